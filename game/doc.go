// Package game is the vocabulary of the SYW Big Game Campaign: nations, hexes,
// troops and their grades, guns, ships, leaders, forces, depots, cities' changing
// state, treaties and the calendar.
//
// It imports only the standard library. Everything else in pbem — the map, the
// rule tables, the engine, the order parser, the reports — speaks in these
// types. The values here carry no rules: what a grade costs, how far a foot
// force marches or how much attrition it suffers live in package ruleset, one
// table per rule, one value per edition.
//
// Every collection in this package that the engine iterates is a slice kept in
// a canonical order (see Force.Normalize), never a map, so that a turn resolved
// twice produces the same bytes.
package game
