package narrative

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
)

// TurningOf is the moment nation n's story tells as the turning point
// (false: none), for the tests.
func TurningOf(e *engine.LandBattle, n game.NationID) (battle.Moment, bool) {
	mine := e.SideOf(n)
	if mine < 0 {
		mine = 0
	}
	t := &teller{e: e, mine: mine}
	t.plan()
	if t.turning < 0 {
		return battle.Moment{}, false
	}
	return e.Moments[t.turning], true
}
