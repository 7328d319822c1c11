package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// One mistake, one error: an order that fails should not leave the player
// puzzling over errors it causes further down the sheet, and advice should
// never ask for an order the sheet already has.

// friction is the checker's record of what the sheet means to do, for
// errors and advice that follow from another order.
type friction struct {
	// splitIDs maps the line of every SPLIT without AS (read or not) to the
	// ID its new force would have if every such SPLIT succeeded.
	splitIDs map[int]game.ForceID
	// marches maps a force to the MOVE the sheet gives it.
	marches map[game.ForceID]march
}

// predictSplitIDs numbers the sheet's SPLITs without AS, in line order,
// those the parser could not read included (found by their keyword in the
// errors already reported), and records the IDs of the unreadable ones as
// made by a failed order, so that a later order naming the force is told
// the SPLIT failed (and on which line) rather than that there is no such
// force.
func (c *checker) predictSplitIDs(sts []Statement) {
	var lines []int
	for _, st := range sts {
		if o, ok := st.Order.(engine.Split); ok && o.NewID == "" {
			lines = append(lines, st.Line)
		}
	}
	unread := map[int]bool{}
	for _, d := range c.r.Diagnostics {
		if d.Severity != Error || d.Line == 0 || unread[d.Line] {
			continue
		}
		w := strings.Fields(strings.ToUpper(d.Source))
		if len(w) == 0 || w[0] != "SPLIT" || slices.Contains(w, "AS") {
			continue
		}
		unread[d.Line] = true
		lines = append(lines, d.Line)
	}
	slices.Sort(lines)
	c.fr.splitIDs = map[int]game.ForceID{}
	n := c.nextForce
	for _, l := range lines {
		for ; ; n++ {
			id := game.ForceID(c.letter + strconv.Itoa(n))
			if _, ok := c.forces[id]; ok {
				continue
			}
			if _, ok := c.gone[id]; ok {
				continue
			}
			c.fr.splitIDs[l] = id
			n++
			break
		}
		if unread[l] {
			c.failedAt(c.fr.splitIDs[l], l)
		}
	}
}

// failedAt records that the order on line would have made the force id.
// The first such order is the one named.
func (c *checker) failedAt(id game.ForceID, line int) {
	if _, ok := c.created[id]; !ok {
		c.created[id] = line
	}
}

// splitFailed records that a SPLIT without AS was refused (see
// predictSplitIDs). A SPLIT … AS has its ID recorded by prepass already.
func (c *checker) splitFailed(o engine.Split) {
	if o.NewID != "" || c.st == nil {
		return
	}
	if id, ok := c.fr.splitIDs[c.st.Line]; ok {
		c.failedAt(id, c.st.Line)
	}
}

// march is a MOVE as the sheet gives it: where it is meant to end, and its
// line.
type march struct {
	to   game.Hex
	line int
}

// noteMarch remembers where a MOVE is meant to go (prepass).
func (c *checker) noteMarch(o engine.Move, line int) {
	to := o.Dest
	if len(o.Path) > 0 {
		to = o.Path[len(o.Path)-1]
	}
	if c.fr.marches == nil {
		c.fr.marches = map[game.ForceID]march{}
	}
	if _, dup := c.fr.marches[o.Force]; !dup {
		c.fr.marches[o.Force] = march{to: to, line: line}
	}
}

// marchHint is the advice for a force that is not in the city mc when an
// order needs it there: when the sheet already has a MOVE for the force it
// speaks of that MOVE (bound for the city but too long for one turn, bound
// elsewhere, or refused) rather than asking for another; with no MOVE it is
// fallback.
func (c *checker) marchHint(id game.ForceID, mc *hexmap.City, end game.Place, fallback string) string {
	m, ok := c.fr.marches[id]
	if !ok {
		return fallback
	}
	if _, moved := c.planned[id]; !moved {
		return fmt.Sprintf("The MOVE on line %d, to %s, has an error: correct it first.", m.line, c.m.HexLabel(m.to))
	}
	if m.to != mc.Hex {
		return fmt.Sprintf("The MOVE on line %d sends %s to %s instead: change it to MOVE %s TO %s if the city is the goal.",
			m.line, id, c.m.HexLabel(m.to), id, mc.Hex)
	}
	return fmt.Sprintf("The MOVE on line %d takes %s to %s, but this turn only as far as %s: it can arrive next turn "+
		"(order the march on again then), and the siege can begin the turn it stands in the city. Leave this order for then.",
		m.line, id, mc.Name, c.label(end))
}
