package gamecheck

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// agreement checks a nation's report against the referee's on the
// nation's own facts, its JSON against the model, and the sentences it is
// told about each event against the referee's.
func (c *checker) agreement() {
	t := c.t
	ref := map[game.ForceID]*reports.OwnForce{}
	for i, f := range t.Referee.Forces {
		ref[f.ID] = &t.Referee.Forces[i]
	}
	for _, n := range sortedKeys(t.Nations) {
		md := t.Nations[n]
		for _, f := range append(slices.Clone(md.Forces), md.Fleets...) {
			if r, ok := ref[f.ID]; !ok {
				c.fault("reports", n, "force %s is in the nation's report and not in the referee's", f.ID)
			} else if !reflect.DeepEqual(*r, f) {
				c.fault("reports", n, "force %s: the nation's report has %+v, the referee's %+v", f.ID, f, *r)
			}
		}
		if !reflect.DeepEqual(md.Cities, t.Referee.Cities) {
			c.fault("reports", n, "the cities in the nation's report are not the referee's")
		}
	}
	for _, n := range sortedKeys(t.JSON) {
		var back reports.Model
		if err := json.Unmarshal(t.JSON[n], &back); err != nil {
			c.fault("reports", n, "the JSON attachment does not read back: %v", err)
		} else if again, _ := reports.JSON(&back); !bytes.Equal(again, t.JSON[n]) {
			c.fault("reports", n, "the JSON attachment does not read back as the model")
		} else if !reflect.DeepEqual(&back, t.Nations[n]) {
			if mine, _ := reports.JSON(t.Nations[n]); !bytes.Equal(mine, t.JSON[n]) {
				c.fault("reports", n, "the JSON attachment is not the report's model")
			}
		}
	}
	// The referee's JSON reads back as his model.
	if js, err := json.Marshal(t.Referee); err != nil {
		c.fault("reports", engine.Referee, "the referee's model does not encode: %v", err)
	} else {
		var back reports.RefereeModel
		if err := json.Unmarshal(js, &back); err != nil {
			c.fault("reports", engine.Referee, "the referee's JSON does not read back: %v", err)
		} else if again, _ := json.Marshal(&back); !bytes.Equal(again, js) {
			c.fault("reports", engine.Referee, "the referee's JSON does not read back as his model")
		}
	}
	nations := sortedKeys(t.Nations)
	for _, e := range t.Events {
		if _, ok := e.(*engine.LandBattle); ok {
			continue // a battle is told by reports/narrative, checked by its own tests
		}
		for _, n := range nations {
			if !e.VisibleTo(n) {
				continue
			}
			en, ok := engine.EventFor(e, n)
			if !ok {
				continue
			}
			// The nation's sentence of the event as it saw it, against its
			// sentence of the whole event — the referee's numbers in the
			// nation's words (the referee's own sentence names every side
			// and says more, reports.EventText.Referee).
			whole := sentences(t, n, e)
			mine := sentences(t, n, en)
			if len(mine) != len(whole) {
				continue
			}
			for i := range mine {
				c.numbers(n, e, mine[i], whole[i])
			}
		}
	}
}

// sentences are what the reports tell of one event, for nation n.
func sentences(t *Turn, n game.NationID, e engine.Event) []string {
	var out []string
	for _, nr := range reports.PlainNarratives(t.Map, n, []engine.Event{e}) {
		out = append(out, nr.Text...)
	}
	return out
}

var numberRe = regexp.MustCompile(`\d+`)

// numbers checks that a nation's sentence carries the referee's numbers,
// or roundings of them: fog may round, never falsify.
func (c *checker) numbers(n game.NationID, e engine.Event, mine, whole string) {
	a, b := numberRe.FindAllString(mine, -1), numberRe.FindAllString(whole, -1)
	if len(a) != len(b) {
		return // the nation is told less: a sentence of its own
	}
	for i := range a {
		x, _ := strconv.Atoi(a[i])
		y, _ := strconv.Atoi(b[i])
		if x == y || rounding(x, y) {
			continue
		}
		c.fault("reports", n, "%s: the nation is told %q, the referee %q (%d is not %d, nor a rounding of it)", e.Kind(), mine, whole, x, y)
		return
	}
}

// rounding reports whether x is y rounded to one of the scales the fog
// uses, a small count shown as the scale itself.
func rounding(x, y int) bool {
	if x == 0 {
		return false
	}
	for _, q := range []int{5, 10, 25, 50, 100} {
		r := (y + q/2) / q * q
		if r == 0 {
			r = q
		}
		if x == r {
			return true
		}
	}
	return false
}
