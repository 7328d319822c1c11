package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// Lift ends the yearly penalty of a treaty breach: the sender is the
// aggrieved party ("he will suffer a penalty of 200 tax points per year
// until the aggrieved party agrees to end the penalty").
type Lift struct {
	Treaty   string        // "T3"
	Offender game.NationID // the nation found in breach
}

// LIFT treaty offender
func parseLift(p *parser) {
	it := p.next()
	if it.typ != itemWord {
		p.expected(it, "a treaty such as T3", "Write LIFT, the treaty's ID and the nation whose penalty you end: LIFT T3 fromande.")
	}
	p.st.Lift = &Lift{Treaty: strings.ToUpper(it.val), Offender: p.nation()}
}

// checkLift: the treaty exists and a penalty of the offender against the
// sender runs under it.
func (c *checker) checkLift(l *Lift) {
	var ids []string
	for i := range c.view.Treaties {
		t := &c.view.Treaties[i]
		ids = append(ids, t.ID)
		if fold(t.ID) != fold(l.Treaty) {
			continue
		}
		l.Treaty = t.ID
		for _, p := range t.Penalties {
			if p.Offender == l.Offender && p.Aggrieved == c.nation && p.Ended == 0 {
				c.note(fmt.Sprintf("%s pays no more penalty for %s once this sheet is accepted", l.Offender, t.ID))
				return
			}
		}
		var running []string
		for _, p := range t.Penalties {
			if p.Ended == 0 {
				running = append(running, fmt.Sprintf("%s against %s", p.Offender, p.Aggrieved))
			}
		}
		slices.Sort(running)
		why := "no penalty runs under it"
		if len(running) > 0 {
			why = "the penalties running are " + strings.Join(running, ", ")
		}
		c.reject(string(l.Offender), fmt.Sprintf("%s pays no penalty to %s under %s: %s; only the aggrieved party ends a penalty", l.Offender, c.r.NationName, t.ID, why),
			"Name the nation the referee found in breach against you.")
	}
	c.reject(l.Treaty, fmt.Sprintf("no treaty %s%s", l.Treaty, didYouMean(suggest(l.Treaty, ids))), "Name the treaty by the ID printed in your report.")
}
