// Package engine resolves a turn of the SYW Big Game Campaign.
//
// The engine is a pure function: Resolve(map, ruleset, state, orders, seed)
// returns the next state and the events of the turn. It does no I/O, reads no
// clock and keeps no globals; every loop over a Go map goes over sorted keys;
// every die comes from one seeded source and is recorded. The same inputs give
// the same turn, byte for byte.
//
// The resolution is a fixed sequence of named steps, documented in
// pipeline.go. Every step emits typed events saying what happened, to whom,
// where, under which rule and which nations may see it; reports and battle
// narratives are built only from events and from View, the one function that
// decides what a nation may know of the game (fog of war).
package engine
