// Package trossian resolves a turn of the Trossian campaign (seed 004): a
// second campaign on the engine machinery of package engine, played on the
// area map of package areamap.
//
// Like engine.Resolve, Resolve is a pure function: Input{map, rules, state,
// orders, rulings, tabletop results, seed} gives the next state, the events
// of the turn and every die thrown, with no I/O, no clock, no map iteration
// without sorted keys and every die from one engine.Dice seeded by the
// turn's seed. The state is plain data; the same input gives the same
// bytes.
//
// What is shared with the SYW campaign: the order values are engine.Order
// (a kind and a sheet line) and a sheet is an engine.Orders; the events
// embed engine.Header and are registered with engine.RegisterEvent, so
// engine.UnmarshalEvents decodes them and engine.EventsFor fogs them (the
// kinds with numbers not every viewer may see implement engine.Redacter);
// dice are engine.Dice and rolls engine.Roll; refusals are engine.Refusal
// and reported as engine.OrderIgnored. What is the campaign's own: the map
// (provinces and sea lanes, not hexes), the calendar (nine monthly phases
// and winter quarters), the units (HQs and stands; costs in AP), movement
// (provinces a phase on a 12-tick clock), the economy (AP by province,
// banked in cities), battles (fought on the tabletop; the post-battle
// sequence), sieges and pacification, navies, and above all couriers: a
// King stays in his capital and his orders reach a force away from it only
// when a courier carries them there.
//
// # The algorithm
//
// A turn is a fixed list of named steps (pipeline.go), each quoting the
// rule it carries out. The movement step is a clock of Ticks ticks: a mover
// with an allowance of a places a phase takes its k-th step at tick
// ⌈k·Ticks/a⌉, so couriers (four), cavalry and HQs (two), infantry and
// artillery (one), armies along a road (one more) and navies (four
// actions) interleave as they would; a courier that reaches its force at
// tick t has its orders carried out from t on. Hostile armies in one
// province are a contact — a battle if either attacks, else a standoff; a
// battle is handed to the referee as a BattleSheet and its tabletop result
// (BattleResult) taken back as data, and a turn with a battle unanswered
// is not resolved (Result.Awaiting). Sieges and pacification count full
// phases of 20AP standing still; income, purchases and banking are the
// winter's.
//
// Every doubtful reading of 004 is a Rules field with its quote
// (rules.go); docs/rules-notes.md §The Trossian campaign lists them.
// Rules tests are data files in testdata/cases (cases_test.go).
package trossian
