package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// TestCheckerFogOfWar probes the checker with every foreign force ID (fleets
// too), leader and depot the game state holds, in every order that names
// one, and with a made-up name of the same shape: the replies must be the
// same once the name is blanked out. So a player cannot learn from the
// checker which foreign leaders, depots or forces exist.
func TestCheckerFogOfWar(t *testing.T) {
	type probe struct {
		kind string // "force", "leader", "depot"
		real string
		fake string
	}
	base := fixture(t, 3)
	st := base.State.Clone()
	// A foreign fleet with its admiral, a foreign depot, and a foreign
	// general whose name is two words.
	st.Forces = append(st.Forces,
		game.Force{ID: "F2", Nation: "fromande", At: game.AtHex(hx("2205")), Ships: game.Ships{Warships: 3, Transports: 2},
			Leaders: []game.Leader{adm("Suffren")}},
		game.Force{ID: "U2", Nation: "unterreich", At: game.AtHex(hx("1910")), Troops: []game.Troops{tr(30, game.GradeC, game.LineInfantry)},
			Leaders: []game.Leader{gen("Prince Karl")}})
	st.Depots = append(st.Depots, game.Depot{ID: "F-D1", Nation: "fromande", At: game.AtHex(hx("1011"))},
		game.Depot{ID: "U-D2", Nation: "unterreich", At: game.AtHex(hx("2217"))})
	st.Normalize()

	var probes []probe
	for _, f := range st.Forces {
		if f.Nation == "eisenmark" {
			continue
		}
		letter := strings.TrimRight(string(f.ID), "0123456789")
		probes = append(probes, probe{"force", string(f.ID), letter + "97"})
		for _, l := range f.Leaders {
			// The same shape: as many words, as many letters.
			fake := strings.Map(func(r rune) rune {
				if r == ' ' {
					return r
				}
				return 'Q'
			}, l.ID)
			probes = append(probes, probe{"leader", l.ID, fake})
		}
	}
	for _, d := range st.Depots {
		if d.Nation != "eisenmark" {
			probes = append(probes, probe{"depot", d.ID, d.ID[:len(d.ID)-1] + "9"})
		}
	}
	templates := map[string][]struct {
		turn int
		text string
	}{
		"force": {
			{3, "MOVE %s TO 1110"}, {3, "STANCE %s ATTACK"}, {3, "RETREAT %s IF ODDS 3:2"}, {3, "PURSUE %s"},
			{3, "SLOW ENEMY %s"}, {3, "ON CONTACT %s STOP"}, {3, "SPLIT %s AS E9 2 C infantry"}, {3, "MERGE E1 INTO %s"},
			{3, "MERGE %s INTO E1"}, {3, "ASSIGN Keith TO %s"}, {3, "GARRISON %s Dresna"}, {3, "FIELDWORKS %s 4"},
			{3, "BESIEGE %s Dresna"}, {3, "ASSAULT %s Dresna"}, {3, "BOMBARD %s Dresna BREACH"}, {3, "EMBARK E3 ON %s"},
			{3, "EMBARK %s ON E4"}, {3, "SAIL %s 1910"}, {3, "DEBARK %s"}, {3, "FLEET %s AVOID"}, {3, "REPAIR %s"},
			{7, "FIELD ALL\nFIELD %s"}, {7, "FIELD ALL\nDISBAND %s"}, {7, "FIELD ALL\nTRANSFER %s 1 field-gun TO fromande"},
		},
		"leader": {
			{3, "ASSIGN %s TO E1"}, {3, "ASSIGN GENERAL %s TO E1"}, {3, "DETACH %s"}, {3, "DETACH ADMIRAL %s AS E9"},
			{3, "SPLIT E1 AS E9 2 C infantry, general %s"}, {3, "SPLIT E1 AS E9 %s"},
			{7, "FIELD ALL\nTRANSFER GENERAL %s TO fromande"}, {7, "FIELD ALL\nBUY GENERAL %s AT Konigsfeld"},
		},
		"depot": {
			{3, "SUPPLY %s TO fromande"}, {3, "WITHDRAW SUPPLY %s FROM fromande"},
			{7, "FIELD ALL\nFIELD DEPOT %s"}, {7, "FIELD ALL\nTRANSFER DEPOT %s TO fromande"},
		},
	}
	reply := func(turn int, order, name string) string {
		ctx := base
		s := st.Clone()
		s.Turn = turn
		ctx.State = s
		r := Check(sheetFor(turn, fmt.Sprintf(order, name)), ctx)
		var out []string
		for _, d := range r.Diagnostics {
			out = append(out, fmt.Sprintf("%d %s %s | %s | %s", d.Line, d.Severity, d.Message, d.Read, d.Hint))
		}
		// The whole reply, but for the receipt (a hash of the orders, which
		// hold the name).
		text := r.Text()
		if i := strings.Index(text, "\nReceipt: "); i >= 0 {
			text = text[:i]
		}
		out = append(out, text)
		// Blank the name, and each of its words (a multiword name not in
		// the vocabulary is read a word at a time).
		pairs := []string{name, "NAME", strings.ToUpper(name), "NAME", fold(name), "NAME"}
		for i, w := range strings.Fields(name) {
			k := fmt.Sprintf("WORD%d", i)
			pairs = append(pairs, w, k, strings.ToUpper(w), k, fold(w), k)
		}
		return strings.NewReplacer(pairs...).Replace(strings.Join(out, "\n"))
	}
	n := 0
	for _, p := range probes {
		for _, tmpl := range templates[p.kind] {
			got, want := reply(tmpl.turn, tmpl.text, p.real), reply(tmpl.turn, tmpl.text, p.fake)
			n++
			if got != want {
				t.Errorf("%s %q in %q: the checker answers differently than for the made-up %q:\n%s\n--- made-up:\n%s",
					p.kind, p.real, tmpl.text, p.fake, got, want)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d probes", n)
	}
}
