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
