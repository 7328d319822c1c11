package parser

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./parser -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test ./parser -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

var goldenDeadline = time.Date(1752, 6, 8, 18, 0, 0, 0, time.FixedZone("CEST", 2*3600))

// TestGoldenReplies checks the replies to sheets in testdata/golden/*.in.
func TestGoldenReplies(t *testing.T) {
	cases := []struct {
		name     string
		turn     int
		replaces bool
		password bool // check passwords
	}{
		{"dozen_mistakes", 3, false, true},
		{"quoted_reply", 3, true, false},
		{"refused_old_turn", 3, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "golden", tc.name+".in"))
			if err != nil {
				t.Fatal(err)
			}
			ctx := fixture(t, tc.turn)
			ctx.Deadline, ctx.Replaces = goldenDeadline, tc.replaces
			if !tc.password {
				ctx.VerifyPassword = nil
			}
			golden(t, tc.name+".reply", Check(string(in), ctx).Text())
		})
	}
}

// TestDozenMistakes: a sheet with twelve different mistakes gives exactly
// one error for each, on its line, and the good orders still count.
func TestDozenMistakes(t *testing.T) {
	in, err := os.ReadFile("testdata/golden/dozen_mistakes.in")
	if err != nil {
		t.Fatal(err)
	}
	r := Check(string(in), fixture(t, 3))
	lines := map[int]bool{}
	for _, d := range r.Diagnostics {
		if d.Severity != Error {
			t.Errorf("line %d: unexpected %s: %s", d.Line, d.Severity, d.Message)
			continue
		}
		if lines[d.Line] {
			t.Errorf("line %d: a second error: %s", d.Line, d.Message)
		}
		lines[d.Line] = true
		if d.Source == "" || d.Hint == "" {
			t.Errorf("line %d: message without the source or what to do: %+v", d.Line, d)
		}
	}
	for l := 9; l <= 20; l++ {
		if !lines[l] {
			t.Errorf("line %d: no error", l)
		}
	}
	if len(lines) != 12 {
		t.Errorf("%d errors, want 12", len(lines))
	}
	var kinds []string
	for _, o := range r.Orders.List {
		kinds = append(kinds, o.Kind())
	}
	if strings.Join(kinds, " ") != "stance pursue" {
		t.Errorf("accepted %v, want the two good orders", kinds)
	}
}
