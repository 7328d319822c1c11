// Package engine resolves a turn of the SYW Big Game Campaign.
//
// The engine is a pure function: Resolve(Input{map, ruleset, state, orders,
// seed}) returns the next state and the events of the turn, and every die
// thrown. It does no I/O, reads no clock and keeps no mutable globals; every
// loop over a Go map goes over sorted keys; every die comes from one seeded
// PCG source (Dice) and is recorded as a Roll. The same inputs give the same
// turn, byte for byte, and the input state is never changed.
//
// The resolution is a fixed sequence of named steps (pipeline.go): orders,
// organisation, supply, movement, scouting, battles, sieges, sea-battles,
// attrition, minimum-sizes, captures, end-of-turn; the year-end turn has its
// own pipeline. Each step is a function of the working turn and emits typed
// events (eventkinds.go) with a header saying the step, the rule applied,
// the place, the nations involved and who may see it. Reports and battle
// narratives are built only from events and from the two functions that
// decide what a nation may know (fog of war): View over the state, EventsFor
// over the events (fog.go), which gives each nation an event told to both
// sides without the other side's own numbers.
//
// Movement is the heart of the package: land forces and fleets spend their
// movement points on one 120-tick clock, so that forces meet where they
// would really meet (movement.go), and contact is resolved as the rules'
// "Land Battles" section orders it — Grenzers filtering, overruns, retreat
// before battle, pursuit, cavalry slowing, and battles found for the battles
// step (contact.go), which fights them with the battle package
// (engine/battle) and applies the post-battle rules (battles.go). Every number comes from the ruleset; the
// readings of ambiguous rules are in docs/rules-notes.md and the design in
// docs/engine.md.
//
// Rules tests are data files in testdata/cases, run by TestCases.
package engine
