package parser

import (
	"fmt"
	"slices"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// The organisation orders' effects on the checker's forces are the
// engine's: each accepted SPLIT, MERGE, ASSIGN, DETACH, GARRISON, stance,
// standing order, depot grant and SPECIAL of a monthly sheet is carried
// out by engine.Organiser — the organisation step's own rule (legality,
// effect, new force IDs, minimum force sizes after it) — over the nation's
// view, and the checker's forces are the organiser's after it. A later
// line is checked against the forces the engine will have; a force split
// off on line 20 can be moved on line 5 (the engine organises before it
// marches). TestCheckerOrganisesAsTheEngine plays random organisation
// sheets through both.

// lostForce is a force an order leaves under the minimum force size: the
// order's line and the engine's reason ("desertion", "militia").
type lostForce struct {
	line   int
	reason string
}

// organise carries an accepted organisation order out on the checker's
// forces by the engine's rule, and says what it did. An order the engine
// would not carry out is refused with the engine's reason (the checker's
// own checks, made first, say more and should leave none). A force the
// order leaves under the minimum force size is lost at once, and the
// player is warned.
func (c *checker) organise(o engine.Order) engine.Organised {
	if c.org == nil {
		return engine.Organised{}
	}
	before := map[game.ForceID]bool{}
	for id, f := range c.forces {
		before[id] = f.HasRole(game.General)
	}
	done := c.org.Apply(o)
	if done.Refused != "" {
		c.reject("", done.Refused, "Correct the order; the engine would not carry it out.")
	}
	c.forces = map[game.ForceID]*game.Force{}
	for _, f := range c.org.Forces() {
		cl := f.Clone()
		c.forces[f.ID] = &cl
	}
	for _, id := range done.New {
		if _, named := c.created[id]; !named {
			c.annotation = joinAnnot(c.annotation, "new force "+string(id))
			c.note(fmt.Sprintf("the new force will be %s", id))
		}
	}
	for _, id := range done.Gone {
		i := slices.IndexFunc(done.Disbanded, func(d engine.ForceDisbanded) bool { return d.Force == id })
		if i < 0 {
			c.gone[id] = c.st.Line
			continue
		}
		d := done.Disbanded[i]
		c.lost[id] = lostForce{line: c.st.Line, reason: d.Reason}
		what := english.Count(d.Figures, "figure")
		if d.Figures == 0 {
			what = english.Count(d.Guns, "gun")
		}
		c.warn(string(id), fmt.Sprintf("%s and its %s are lost at once (%s): %s", id, what, d.Reason, c.minimumRule(d.Place)),
			"Split off more figures, or a general with them.")
	}
	// Say which order took a force's last general (checker.legal).
	for id, f := range c.forces {
		if before[id] && !f.HasRole(game.General) {
			c.leaderLeft[id] = c.st.Line
		}
	}
	return done
}

// minimumRule quotes the minimum force size that applies in place p
// (Minimum Force Sizes) — the engine decides, this says it in words.
func (c *checker) minimumRule(p game.Place) string {
	mf := c.rules.MinimumForce
	mc, inCity := c.m.CityAt(p.Hex)
	switch {
	case p.IsSea() || !inCity:
		return fmt.Sprintf("a stack of %d or fewer figures without a general outside a city deserts (Minimum Force Sizes)", mf.OutsideCityDeserts)
	case c.cityState(mc.Name).Loyalty != c.nation:
		return fmt.Sprintf("a stack of %d or fewer figures in a foreign city is killed by the militia (Minimum Force Sizes)", mf.ForeignCityMilitia)
	}
	return fmt.Sprintf("a stack of %d or fewer figures without a general in a friendly town deserts (Minimum Force Sizes)", mf.FriendlyTownDeserts)
}
