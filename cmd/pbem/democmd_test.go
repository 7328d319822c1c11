package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	data := filepath.Join(dir, "demo-data")
	cmd := exec.Command(bin, "demo", "--out", out, "--data", data)
	cmd.Dir = "../.."
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("pbem demo: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("pbem demo took %v", time.Since(start))
	// The demo's game, kept with --data, exports as a hash-chained archive
	// that pbem verify re-resolves turn by turn; one byte changed, it fails.
	archive := filepath.Join(dir, "demo.archive")
	if b, err := exec.Command(bin, "export", "--config", filepath.Join(data, "config.yaml"), "--out", archive).CombinedOutput(); err != nil {
		t.Fatalf("pbem export of the demo's game: %v\n%s", err, b)
	}
	if b, err := exec.Command(bin, "verify", archive).CombinedOutput(); err != nil || !strings.Contains(string(b), "the chain intact") {
		t.Errorf("pbem verify of the demo's archive: %v\n%s", err, b)
	}
	raw, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte(`"Turn":`))
	if i < 0 {
		t.Fatal("no turn in the archive")
	}
	raw[i+7] ^= 1 // a digit becomes another digit
	bad := filepath.Join(dir, "bad.archive")
	if err := os.WriteFile(bad, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if b, err := exec.Command(bin, "verify", bad).CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(b), "FAILED") {
		t.Errorf("pbem verify of an archive with one byte changed: %v, want exit 1 and FAILED\n%s", err, b)
	}
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
	var noPDFText atomic.Bool
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
			noPDFText.Store(true)
			return ""
		}
		b, err := exec.Command("pdftotext", "-layout", base+".pdf", "-").Output()
		if err != nil {
			t.Errorf("pdftotext %s.pdf: %v", base, err)
		}
		return string(b)
	}
	// Who took part in what, turn by turn, as the engine's events name
	// them (the demo writes it beside the reports).
	var involved map[string]map[string][]string
	if b, err := os.ReadFile(filepath.Join(out, "involved.json")); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &involved); err != nil {
		t.Fatal(err)
	}
	// markers: how a report tells of each set piece, as a text mail (the
	// event's kind) and as a PDF (its wording).
	markers := map[string][]string{
		"land battle": {"LandBattle", "battle was joined"},
		"sea battle":  {"SeaBattle", "Sea battle.", "The fleets of "},
		"siege":       {"SiegeStatusChanged", "SiegeLosses", "AssaultResolved", "Siege status changed", "Siege at ", "Siege losses"},
		"assault":     {"AssaultResolved", "Assault resolved", " stormed "},
		"landing":     {"Debarked", "went ashore"},
	}
	// The reports' texts, read two at a time (pdftotext takes a while).
	texts := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for _, turn := range turns {
		for _, n := range append(slices.Clone(nations), "referee") {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- true
				defer func() { <-sem }()
				text := read(turn, n)
				mu.Lock()
				texts[filepath.Join(turn, n)] = text
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	if noPDFText.Load() {
		t.Skip("the reports are PDFs: install poppler-utils (pdftotext) to check what they say")
	}
	found := map[string]bool{}
	for _, turn := range turns {
		folder := filepath.Base(turn)
		if texts[filepath.Join(turn, "referee")] == "" {
			t.Errorf("%s: the referee's report is empty", folder)
		}
		for _, n := range nations {
			report := texts[filepath.Join(turn, n)]
			// The mail of the turn besides the report: answers, treaty notices.
			mail, _ := os.ReadFile(filepath.Join(turn, n+"-mail.txt"))
			// The treaty's proposal and attestation go to its parties only;
			// once every party has attested it is published to every nation,
			// as the rules have it ("Public treaties may not be secret"), so
			// the mails announcing it public are left out here.
			tells := map[string]bool{}
			for _, m := range strings.Split(string(mail), "=== ") {
				subject, _, _ := strings.Cut(m, "\n")
				if strings.Contains(m, "Peace of Garzow") && !strings.Contains(strings.ToLower(subject), "public") {
					tells["treaty"] = true
				}
			}
			for what, ms := range markers {
				for _, m := range ms {
					tells[what] = tells[what] || strings.Contains(report, m)
				}
			}
			for what, ok := range tells {
				if !ok {
					continue
				}
				if !slices.Contains(involved[folder][what], n) {
					t.Errorf("%s: %s is told of a %s it took no part in (%v did)", folder, n, what, involved[folder][what])
					continue
				}
				found[what] = true
			}
			for what, ns := range involved[folder] {
				if slices.Contains(ns, n) && !tells[what] && what != "treaty" {
					t.Errorf("%s: %s took part in a %s and its report does not tell of it", folder, n, what)
				}
			}
		}
	}
	for _, what := range []string{"land battle", "sea battle", "siege", "treaty", "assault", "landing"} {
		if !found[what] {
			t.Errorf("no nation's report tells of a %s", what)
		}
	}
}
