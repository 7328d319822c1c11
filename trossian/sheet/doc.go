// Package sheet reads and checks the Trossian campaign's order sheets:
// docs/orders-trossian.md is the players' reference; this comment explains
// how the package works.
//
// The sheet has the SYW sheet's frame — GAME, NATION, PASSWORD, TURN, one
// order a line, END — and its hygiene: parser.ReadFrame undoes what mail
// clients do, finds the sheet, strips reply quoting, joins wrapped lines by
// the continuation rule and reads the header, with this campaign's
// keywords; parser.Lex splits each statement into tokens. The grammar
// (grammar.go) has one function per keyword, matched in any case and by
// unique prefix; a word that is neither gets "expected X or Y, read Z; did
// you mean X?". Every problem is a parser.Diagnostic: the line, what was
// read, what was expected, what to do.
//
// The checker (checker.go) sees only the kingdom's trossian.View. It keeps
// a shadow of the kingdom's state and runs the orders in the engine's
// order: the orders for forces at the King's seat in sheet order, each
// leaving the shadow as the engine will (a march planned, a detachment's ID
// foretold); then the orders for forces away from the seat, each bound to
// the courier the sheet sends to its force, or to a force standing with it
// ("shall direct their generals via messages sent by couriers") — an order
// with no courier is an error that says which line to add; then the
// couriers, one waiting at the seat for each; in winter the purchases
// against the coming winter's funds (trossian.WinterFunds), then the
// banking. Each order passes its kind's legality check — the engine's own
// function (trossian.OrderKind.Legal) — so the checker and the engine
// decide alike; the engine checks again when the order is carried out, by
// then perhaps on a changed field.
//
// Check returns a Report: the accepted orders (each courier carrying its
// own), the diagnostics, the canonical form (Format; it reads back as the
// same orders) and its SHA-256 receipt, and, through Text, the reply laid
// out as the SYW reply is.
package sheet
