package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDemoCommand runs "pbem demo" as the README's first command does, with
// the built binary: it exits 0, every nation and the referee have a report
// for each of the six monthly turns and the year-end, and the land battle,
// the siege, the sea battle and the treaty are in the reports of the
// nations involved and in no one else's.
func TestDemoCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and plays a game-year")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "pbem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "demo-out")
	cmd := exec.Command(bin, "demo", "--out", out)
	cmd.Dir = "../.."
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("pbem demo: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("pbem demo took %v", time.Since(start))
	if !strings.Contains(stdout.String(), "The year in summary") {
		t.Errorf("no summary printed:\n%s", stdout.String())
	}
	nations := []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"}
	turns, err := filepath.Glob(filepath.Join(out, "0[1-7]-1752-*"))
	if err != nil || len(turns) != 7 {
		t.Fatalf("turn folders %v, want 7 (six months and the year-end)", turns)
	}
	if !strings.HasSuffix(turns[6], "07-1752-year-end") || !strings.HasSuffix(turns[0], "01-1752-April") {
		t.Errorf("turn folders %v do not sort April first and the year-end last", turns)
	}
	// read returns a report's text (a PDF through pdftotext), "" if none.
	read := func(turn, who string) string {
		base := filepath.Join(turn, who)
		if b, err := os.ReadFile(base + ".txt"); err == nil {
			return string(b)
		}
		if _, err := os.Stat(base + ".pdf"); err != nil {
			t.Errorf("%s: no report for %s", filepath.Base(turn), who)
			return ""
		}
		if _, err := exec.LookPath("pdftotext"); err != nil {
			t.Skip("the reports are PDFs: install poppler-utils (pdftotext) to check what they say")
		}
		b, err := exec.Command("pdftotext", "-layout", base+".pdf", "-").Output()
		if err != nil {
			t.Errorf("pdftotext %s.pdf: %v", base, err)
		}
		return string(b)
	}
	forceID := regexp.MustCompile(`"([EMUFH])[0-9]+"`)
	byLetter := map[string]string{"E": "eisenmark", "M": "morgronskia", "U": "unterreich", "F": "fromande", "H": "hispardia"}
	found := map[string]bool{}
	for _, turn := range turns {
		texts := map[string]string{}
		for _, n := range append(slices.Clone(nations), "referee") {
			texts[n] = read(turn, n)
			// The other mail of the turn: answers, treaty notices, rulings.
			if b, err := os.ReadFile(filepath.Join(turn, n+"-mail.txt")); err == nil {
				texts[n] += string(b)
			}
		}
		for _, c := range []struct{ what, marker string }{
			{"land battle", "LandBattle"},
			{"sea battle", "SeaBattle"},
			{"siege", "SiegeStatusChanged"},
			{"treaty", "Peace of Garzow"},
			{"assault", "AssaultResolved"},
			{"landing", "Debarked"},
		} {
			// Who was involved: the nations the referee's lines name, by
			// name or by their forces' IDs (E2 is Eisenmark's).
			involved := map[string]bool{}
			for _, l := range strings.Split(texts["referee"], "\n") {
				if strings.Contains(l, c.marker) {
					for _, n := range nations {
						if strings.Contains(l, n) {
							involved[n] = true
						}
					}
					for _, id := range forceID.FindAllStringSubmatch(l, -1) {
						involved[byLetter[id[1]]] = true
					}
				}
			}
			if c.marker == "Peace of Garzow" {
				involved = map[string]bool{"eisenmark": true, "fromande": true}
			}
			for _, n := range nations {
				if !strings.Contains(texts[n], c.marker) {
					continue
				}
				if !involved[n] {
					t.Errorf("%s: %s's report tells of a %s it was not part of", filepath.Base(turn), n, c.what)
				}
				found[c.what] = true
			}
		}
	}
	for _, what := range []string{"land battle", "sea battle", "siege", "treaty", "assault", "landing"} {
		if !found[what] {
			t.Errorf("no nation's report tells of a %s", what)
		}
	}
}
