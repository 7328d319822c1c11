// Package campaign is the seam between the daemon and a campaign's rules:
// the SYW Big Game Campaign and the Trossian campaign (seed 004) are two
// values of one interface, chosen by the game's ruleset, so that the
// daemon, the archive and the mail path carry either without an "if
// trossian" anywhere.
//
// A Campaign reads its scenarios and opens a Game: its rules on its map.
// The daemon asks a Game for everything a turn needs — a new state, a sheet
// checked, a turn resolved (or the battles it waits for), a nation's view,
// the codecs of states and orders, the referee's tabletop result read — and
// for nothing else. What every campaign shares is below the seam and not
// duplicated: the order value (engine.Order, engine.Orders), the events
// (engine.Event, engine.Header, engine.Visibility; one registry,
// engine.RegisterEvent; one fog, engine.EventsFor), the dice (engine.Dice,
// engine.Roll), the sheet frame, lexer and diagnostics (parser.ReadFrame,
// parser.Lex, parser.Diagnostic), and above it the reports, the mail and
// the archive, which read events, views and replies.
//
// How a ruleset chooses its campaign: ForRuleset(config game.ruleset)
// returns the campaign whose Rulesets lists it; RulesetIDs is the list
// config validation reads. docs/engine.md ("Campaigns") writes the seam
// down: the SYW adapter (syw.go), the optional features (features.go), and
// how the daemon plays a campaign through the seam.
//
// Layering: campaign imports the engines (engine, trossian), the checkers
// (parser, trossian/sheet), the maps and scenarios; the daemon imports
// campaign; nothing below imports it.
package campaign
