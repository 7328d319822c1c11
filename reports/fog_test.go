package reports_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

// TestFogOfWarReports plays the default scenario for eight turns (six
// months with marches on the nearest foreign city, attacks and pursuits,
// the year-end and one more month) with every force marked: each troop and
// gun count made unique and recognisable (count·10⁵ + 777xx), each leader
// named "Secret-<force>-<n>". For every nation and every turn, including the
// starting report, the PDF's text, the mail body and the JSON are searched
// for every foreign force's ID, counts and leaders: each may appear only if
// one of the events the nation saw (engine.EventsFor, this turn or before)
// carried it, or engine.View showed it as scouted.
func TestFogOfWarReports(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays eight turns and renders every report")
	}
	sc, err := scenario.Load("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
	if err != nil {
		t.Fatal(err)
	}
	uniq := 0
	for i := range st.Forces {
		f := &st.Forces[i]
		for j := range f.Troops {
			uniq++
			f.Troops[j].Count = f.Troops[j].Count*100000 + 77700 + uniq
		}
		for j := range f.Guns {
			uniq++
			f.Guns[j].Count = f.Guns[j].Count*100000 + 77700 + uniq
		}
		for j := range f.Leaders {
			f.Leaders[j].Name = fmt.Sprintf("Secret-%s-%d", f.ID, j)
		}
	}
	var turns []fogTurn
	turns = append(turns, fogTurn{before: st, after: st})
	r := rand.New(rand.NewPCG(11, 11))
	for cur := st; cur.Turn < 9; {
		var orders []engine.Orders
		if !cur.Calendar.Date(cur.Turn).IsYearEnd() {
			orders = plausibleOrders(sc.Map, cur, r)
		}
		res, err := engine.Resolve(engine.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: cur, Orders: orders, Seed: uint64(cur.Turn)})
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, fogTurn{before: cur, after: res.State, events: res.Events})
		cur = res.State
	}
	// Each nation's reports are searched in a subtest of their own, in
	// parallel: a PDF and its pdftotext take a while.
	var (
		mu                    sync.Mutex
		kinds                 = map[string]int{}
		checked, shownGranted int
	)
	t.Run("nation", func(t *testing.T) {
		for _, ns := range st.Nations {
			t.Run(string(ns.ID), func(t *testing.T) {
				t.Parallel()
				k, c, g := searchNation(t, sc.Map, ns.ID, turns)
				mu.Lock()
				defer mu.Unlock()
				for kind, n := range k {
					kinds[kind] += n
				}
				checked += c
				shownGranted += g
			})
		}
	})
	for _, k := range []string{"Contact", "Scouted", "CityCaptured"} {
		if kinds[k] == 0 {
			t.Errorf("the scripted game had no %s event: the test would prove little (kinds seen: %v)", k, kinds)
		}
	}
	if shownGranted == 0 {
		t.Error("no report showed a foreign force's ID even where an event named it: the search would prove little")
	}
	// A negative control: the referee's report (every force, whole) must
	// trip the same search, or the search is blind.
	last := turns[len(turns)-1]
	ref, err := reports.BuildReferee(reports.RefereeInput{Map: sc.Map, Rules: ruleset.SYW1752(), State: last.after, Events: last.events})
	if err != nil {
		t.Fatal(err)
	}
	refJSON, _ := json.Marshal(ref)
	f := last.after.Forces[0]
	if !hasToken(string(refJSON), string(f.ID)) || (len(f.Troops) > 0 && !hasToken(string(refJSON), strconv.Itoa(f.Troops[0].Count))) ||
		(len(f.Leaders) > 0 && !hasToken(string(refJSON), f.Leaders[0].Name)) {
		t.Errorf("the search does not find %s's ID, counts or leader in the referee's report", f.ID)
	}
	t.Logf("%d foreign forces checked across reports (%d times a granted foreign ID was shown); event kinds the nations saw: %v",
		checked, shownGranted, kinds)
}

// fogTurn is one turn of the fog test's game: the states before and after
// it and its events.
type fogTurn struct {
	before, after *engine.State
	events        []engine.Event
}

// searchNation searches nation n's reports of every turn for the foreign
// forces' IDs, counts and leaders that no event told it, and returns the
// event kinds it saw, the forces checked and the times a granted foreign ID
// was shown.
func searchNation(t *testing.T, m *hexmap.Map, n game.NationID, turns []fogTurn) (kinds map[string]int, checked, shownGranted int) {
	kinds = map[string]int{}
	granted := map[string]bool{}
	var prev *reports.Model
	for ti, tn := range turns {
		seen := engine.EventsFor(tn.events, n)
		for _, e := range seen {
			kinds[e.Kind()]++
			raw, _ := engine.MarshalEvent(e)
			var v any
			_ = json.Unmarshal(raw, &v)
			grant(v, granted)
		}
		// What scouting revealed (engine.View's foreign forces above
		// the size level, each granted by a Scouted event) is the
		// nation's too: the engine's own fog test covers View.
		for _, ff := range engine.View(m, ruleset.SYW1752(), tn.after, n).Foreign {
			if ff.Level > ruleset.LevelSize {
				raw, _ := json.Marshal(ff)
				var v any
				_ = json.Unmarshal(raw, &v)
				grant(v, granted)
			}
		}
		in := reports.Input{Map: m, Rules: ruleset.SYW1752(), State: tn.after, Nation: n, Previous: prev}
		if ti > 0 {
			in.Events = tn.events
		}
		md, err := reports.Build(in)
		if err != nil {
			t.Fatal(err)
		}
		prev = md
		js, _ := reports.JSON(md)
		var pdf bytes.Buffer
		// The zoomed page shows a subset of the continent page's
		// counters; leaving it out halves the test's time.
		if err := reports.Render(&pdf, md, m, &reports.Options{NoZoom: true}); err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{"JSON": string(js), "mail body": reports.Text(md), "PDF": pdfText(t, pdf.Bytes())}
		for _, what := range []string{"JSON", "mail body", "PDF"} {
			text := texts[what]
			for _, s := range []*engine.State{tn.before, tn.after} {
				for _, f := range s.Forces {
					if f.Nation == n {
						continue
					}
					checked++
					if hasToken(text, string(f.ID)) && granted[string(f.ID)] {
						shownGranted++
					}
					if hasToken(text, string(f.ID)) && !granted[string(f.ID)] {
						t.Fatalf("%s, %s: the %s names foreign force %s, which no event named to it:\n%s",
							n, md.TurnLabel, what, f.ID, around(text, string(f.ID)))
					}
					for _, l := range f.Leaders {
						for _, name := range []string{l.Name, l.ID} {
							if hasToken(text, name) && !granted[name] {
								t.Fatalf("%s, %s: the %s names %s's leader %q, which no event told it:\n%s",
									n, md.TurnLabel, what, f.ID, name, around(text, name))
							}
						}
					}
					var counts []int
					for _, tr := range f.Troops {
						counts = append(counts, tr.Count)
					}
					for _, g := range f.Guns {
						counts = append(counts, g.Count)
					}
					for _, c := range counts {
						s := strconv.Itoa(c)
						if c >= 100000 && hasToken(text, s) && !granted[s] {
							t.Fatalf("%s, %s: the %s shows a count of %s (%d), which no event told it:\n%s",
								n, md.TurnLabel, what, f.ID, c, around(text, s))
						}
					}
				}
			}
		}
	}
	return kinds, checked, shownGranted
}

// grant adds every string and every number of a decoded JSON value.
func grant(v any, out map[string]bool) {
	switch x := v.(type) {
	case string:
		out[x] = true
	case float64:
		out[strconv.FormatFloat(x, 'f', -1, 64)] = true
	case []any:
		for _, y := range x {
			grant(y, out)
		}
	case map[string]any:
		for _, y := range x {
			grant(y, out)
		}
	}
}

// hasToken reports s standing alone in text (not inside a longer word or
// number): some occurrence of it has no letter or digit just before or
// just after it.
func hasToken(text, s string) bool {
	if s == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(text[from:], s)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(s):])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		from = i + 1
	}
}

// wordRune is a letter or a digit (utf8.RuneError, at either end of the
// text, is neither).
func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsNumber(r))
}

func around(text, s string) string {
	i := strings.Index(text, s)
	lo, hi := max(0, i-200), min(len(text), i+200)
	return text[lo:hi]
}
