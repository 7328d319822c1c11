// Package parser reads the players' order sheets, checks them against the
// game, and writes the reply a player reads. docs/orders.md is the players'
// reference; this comment explains how the package works.
//
// # Stages
//
// A mail body goes through four stages, each in its own file:
//
//  1. Clean-up and extraction (clean.go). normalize undoes what mail clients
//     do to text: a byte-order mark, CRLF or lone CR line ends, tabs and
//     Unicode spaces, smart quotes and dashes. findHeader finds the sheet:
//     the first GAME line followed by NATION, PASSWORD or TURN, preferring the
//     least quoted one, so a player's own sheet wins over one quoted from an
//     earlier mail; the sheet's reply quoting ("> ") is stripped to that
//     depth. Everything before the header and after END (or a "-- "
//     signature) is ignored. splitBody joins wrapped lines into logical
//     lines by the continuation rule (a trailing backslash; a line that does
//     not start with an order keyword but is indented, starts with a digit,
//     comma or quote, or follows a trailing comma; an open quote closed on a
//     later line) and collects a TREATY's text block up to ENDTREATY. Every
//     logical line remembers the mail line each of its parts came from.
//
//  2. Lexing (lex.go), one logical line at a time, in the style of
//     text/template/parse/lex.go: state functions emit items (words, numbers,
//     quoted strings, commas, colons, signs, stray characters) with their
//     offsets, from which every message recovers its line number.
//
//  3. Parsing (parse.go, grammar.go, contents.go): one function per
//     statement keyword builds the engine order (engine/orders.go) or a
//     sheet-level form (Treaty, Attest, Request, PasswordChange). Keywords
//     match case-insensitively and by unique prefix; a word that is neither
//     gets "expected X or Y, read Z; did you mean X?" with the nearest
//     keyword by edit distance. A Vocabulary of the map's cities, sea areas
//     and nations and the game's leaders lets city names of several words be
//     read without quotes. The first error in a statement stops that
//     statement only; the rest of the sheet is read.
//
//  4. Checking (check.go, checker*.go) against the game as it stands: the
//     forces exist, are the nation's and are where the order assumes;
//     marches are legal for the force's slowest part (engine.StepCost and
//     engine.Route, the engine's own functions) and fit its movement points;
//     voyages follow the sea areas and winds (engine.SeaStepCost); cargo fits
//     the transports; purchases are in the Cost Chart, allowed to the nation,
//     placed where the rules allow and affordable; every order is of the
//     turn's kind. The checker keeps a shadow of the nation's forces and runs
//     the statements in the order the engine carries them out (organisation,
//     embarking, movement, landing, the rest), so that a force split off can
//     be moved by the same sheet. The checker sees only the nation's
//     engine.View (fog of war): a foreign force, leader or depot gets the
//     same answer as a made-up name (TestCheckerFogOfWar).
//
// Check returns a Report: the accepted orders as engine.Orders, the
// diagnostics (errors, warnings, notes, each with its line, what was read,
// what was expected and what to do) and, through Text, the reply. The
// accepted orders print in a canonical form (format.go) that parses back to
// the same orders; its SHA-256 is the receipt.
//
// The referee's commands are a language of their own, package refcmd,
// written in the players' words: it reads a mail of commands with this
// package's clean-up (CommandLines) and the pieces of this grammar over
// each line (Reader, reader.go), with the same errors.
package parser
