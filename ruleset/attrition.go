package ruleset

import "github.com/syw-pbem/pbem/game"

// AttritionRates are percentage losses by grade, with a separate rate for gun
// models.
type AttritionRates struct {
	Grade map[game.Grade]Percent
	Guns  Percent
}

// Of returns the rate for a grade.
func (a AttritionRates) Of(g game.Grade) Percent { return a.Grade[g] }
