package campaign

import (
	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// Features: optional interfaces a Game may implement. The daemon and the
// reports ask for a feature with a type assertion and do without it when
// the campaign has none, so that nothing above the seam asks which
// campaign it runs.

// TurnLabeller labels any turn, not only the state's: the deadline of the
// next turn, a referee's command bound to a turn ("Turn 4, Early Summer
// 1801").
type TurnLabeller interface {
	TurnLabelOf(turn int) string
}

// AreaMapped is a Game played on an area map: its reports draw the map
// with package reports/areadraw, and its report is built from AreaView.
type AreaMapped interface {
	AreaMap() *areamap.Map
	// AreaView is what the report of nation n shows: the nation's View, or
	// for engine.Referee the whole state. It is the value reports.Area
	// reads (*trossian.NationView, *trossian.State).
	AreaView(st State, n game.NationID) (any, error)
}

// HexPlayed is a Game played on a hex map with an SYW ruleset: the daemon
// serves it by its SYW path (treaties, requests, special actions, the
// battle model, the SYW reports), which reads the hex map, the edition and
// the scenario directly. The SYW adapter (syw.go) implements it.
type HexPlayed interface {
	HexMap() *hexmap.Map
	HexRules() *ruleset.Ruleset
	HexScenario() *scenario.Scenario
}

// NationNamer names a nation for people ("Norvale"): every Scenario can
// (Nations); a Game that can do it alone implements this.
type NationNamer interface {
	NationName(n game.NationID) string
}

// Archived is a Game whose turns the game archive holds ("pbem export",
// "pbem verify"). Each turn record of the archive carries the state, the
// inputs (the orders as EncodeOrders writes them, the referee's rulings
// and tabletop results as the campaign stores them, the seed), the dice and
// the events; the archive's header carries the rest of what the campaign
// resolves a turn on, which ArchiveRules gives: the version of its rule
// tables and its map as text. The Campaign opens the game again from that
// header alone (ArchiveOpener), so that anyone can resolve every turn of
// the archive again with pbem and nothing else.
type Archived interface {
	// ArchiveRules returns the version of the game's rule tables (a hash:
	// two builds whose tables differ in any number give two versions) and
	// its map in the map's text format.
	ArchiveRules() (version, mapText string, err error)
}

// ArchiveOpener is a Campaign whose games' archives pbem verifies: it opens
// a game from an archive's header — the ruleset and the map's text — to
// decode and resolve its turns again. Such a game has no starting position
// of its own (NewState fails): the archive's first record holds it. The
// rules version is the caller's to compare (Archived.ArchiveRules).
type ArchiveOpener interface {
	OpenArchived(ruleset, mapText string) (Game, error)
}
