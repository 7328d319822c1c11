package parser

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/syw-pbem/pbem/engine"
)

var (
	fuzzOnce  sync.Once
	fuzzVocab *Vocabulary
)

func vocabForFuzz(t testing.TB) *Vocabulary {
	fuzzOnce.Do(func() {
		m := loadFixtureMap(t)
		fuzzVocab = NewVocabulary(m, fixtureState(m, 3))
	})
	return fuzzVocab
}

// seedSheets are the sheets every fuzz target starts from: the grammar
// table's statements, the hygiene cases, the docs' examples and the golden
// inputs.
func seedSheets(f *testing.F) []string {
	var out []string
	for _, s := range []string{
		"MOVE E2 1810 1910", "MOVE E2 TO Sankt Polt", "SPLIT E1 AS E7 24 C infantry, 12 B light-cavalry, 2 field-gun, general Keith",
		"RETREAT E2 IF ODDS 3:2", "FORECAST ON\nFORECAST off", "SAIL E4 S2 S3 Morgrad", "SAIL E4 Amber Sea, varangian sea Morgrad", "SPLIT E1 24 C infantery\nMOVE E8 TO 1910", "BUY GENERAL Schwerin \"Kurt von Schwerin\" AT Konigsfeld",
		"SPECIAL \"a \"\"b\"\" c\"", "TREATY \"T\" PARTIES eisenmark, fromande TEXT\nx\nENDTREATY", "MOVE E2\n  TO 1910",
		"MOVE E2 \\\nTO 1910", "DEBARK E3 AT Danzburg", "TRANSFER ADMIRAL Brommy TO fromande", "FIELD DEPOT E-D1",
		"ASSAULT E6 Dresna WITH ALL", "WITHDRAW SUPPLY E-D1 FROM fromande", "NO SLOW ENEMY E2", "ON CONTACT E2 CONTINUE",
		"WITHDRAW REQUEST R1a2b3c", "withdraw special s0A1b2C",
	} {
		out = append(out, wrapSheet(s))
	}
	b, err := os.ReadFile("../docs/orders.md")
	if err == nil {
		for _, part := range strings.Split(string(b), "```") {
			if strings.HasPrefix(part, "orders\n") {
				out = append(out, wrapSheet(strings.TrimPrefix(part, "orders\n")))
			}
			if strings.HasPrefix(part, "sheet\n") {
				out = append(out, strings.TrimPrefix(part, "sheet\n"))
			}
		}
	}
	ins, _ := filepath.Glob("testdata/golden/*.in")
	for _, p := range ins {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, string(b))
		}
	}
	out = append(out, "\uFEFFGAME syw\r\nNATION eisenmark\r\nTURN 3\r\n> MOVE E2 TO \u201cKonigsfeld\u201d\r\n-- \r\n")
	return out
}

// FuzzParse: no input makes Parse panic, and the canonical form of what it
// read reads back as the same statements, and prints the same again.
func FuzzParse(f *testing.F) {
	for _, s := range seedSheets(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, mail string) {
		v := vocabForFuzz(t)
		sh := Parse(mail, v)
		if !sh.Header.Found {
			return
		}
		checkRoundTrip(t, sh, v)
	})
}

func checkRoundTrip(t *testing.T, sh *Sheet, v *Vocabulary) {
	t.Helper()
	text := sh.Canonical(v)
	again := Parse(text, v)
	for _, d := range again.Diagnostics {
		if d.Line > 3 { // the header is printed as read, problems and all
			t.Fatalf("canonical form gives line %d: %s\n%s", d.Line, d.Message, text)
		}
	}
	var want []Statement
	for _, st := range sh.Statements {
		if st.Password == nil {
			want = append(want, st)
		}
	}
	if len(again.Statements) != len(want) {
		t.Fatalf("%d statements read back from the canonical form, want %d\n%s", len(again.Statements), len(want), text)
	}
	for i := range want {
		if !sameStatement(want[i], again.Statements[i]) {
			t.Fatalf("statement %d changed:\n%s\n%s\ncanonical:\n%s", i, fmtStatement(want[i]), fmtStatement(again.Statements[i]), text)
		}
	}
	stable := strings.ReplaceAll(text, FormatStatement(&Statement{Password: &PasswordChange{}}, v)+"\n", "")
	if text2 := again.Canonical(v); text2 != stable {
		t.Fatalf("canonical form not stable:\n%s\n---\n%s", text, text2)
	}
}

// FuzzCheck: no input makes Check or Text panic, and the accepted orders,
// mailed back as the reply prints them, are accepted again unchanged.
func FuzzCheck(f *testing.F) {
	for _, s := range seedSheets(f) {
		f.Add(s, 3)
		f.Add(strings.Replace(s, "TURN 3", "TURN 7", 1), 7)
	}
	f.Fuzz(func(t *testing.T, mail string, turn int) {
		if turn != 7 {
			turn = 3
		}
		ctx := fixture(t, turn)
		ctx.VerifyPassword = nil
		r := Check(mail, ctx)
		_ = r.Text()
		if r.Refused {
			return
		}
		again := Check(r.Canonical(), ctx)
		if again.Refused || !sameOrders(r.Orders.List, again.Orders.List) {
			t.Fatalf("accepted orders changed when checked again:\n%s\n---\n%s", r.Text(), again.Text())
		}
	})
}

func sameOrders(a, b []engine.Order) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(withoutLine(a[i]), withoutLine(b[i])) {
			return false
		}
	}
	return true
}

// TestRoundTripSeeds runs the round-trip property over the seeds, so plain
// go test checks it too.
func TestRoundTripSeeds(t *testing.T) {
	v := vocabForFuzz(t)
	for _, s := range seedSheets(nil) {
		sh := Parse(s, v)
		if sh.Header.Found {
			checkRoundTrip(t, sh, v)
		}
		for _, turn := range []int{3, 7} {
			ctx := fixture(t, turn)
			ctx.VerifyPassword = nil
			r := Check(strings.Replace(s, "TURN 3", "TURN "+itoa(turn), 1), ctx)
			if r.Refused {
				continue
			}
			again := Check(r.Canonical(), ctx)
			if !sameOrders(r.Orders.List, again.Orders.List) {
				t.Errorf("accepted orders changed when checked again:\n%s\n---\n%s", r.Text(), again.Text())
			}
		}
	}
}
