package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDemoCommand runs "pbem demo" as a new user would, pbem in a process of
// its own (pbemBinary), from an empty folder and with no flags: it exits 0,
// writes the starting reports and, for every nation and the referee, a
// report for each of the six monthly turns and the year-end; the land
// battle, the siege, the sea battle and the treaty are in the reports of the
// nations involved and in no one else's; no count disagrees with its noun
// ("1 guns") anywhere it wrote; no PDF ends on a page with one or two lines;
// and the game's archive verifies.
func TestDemoCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs pbem demo in a process of its own: a game-year")
	}
	dir := t.TempDir()
	bin := pbemBinary(t)
	demo := startDemo(bin) // started by TestMain already, in a plain run
	<-demo.done
	out, stdout := filepath.Join(demo.dir, "demo-out"), &demo.stdout
	if demo.err != nil {
		t.Fatalf("pbem demo: %v\n%s\n%s", demo.err, demo.stdout.String(), demo.stderr.String())
	}
	t.Logf("pbem demo took %v", demo.took)
	// The demo's game, exported beside the reports as a hash-chained
	// archive that pbem verify re-resolves turn by turn; one byte changed,
	// it fails.
	archive := filepath.Join(out, "game.archive")
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
	// pdfTexts are the PDFs' texts, page by page (pdftotext ends each
	// with a form feed), by path.
	pdfTexts := map[string]string{}
	var pdfMu sync.Mutex
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
		pdfMu.Lock()
		pdfTexts[base+".pdf"] = string(b)
		pdfMu.Unlock()
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
	startDir := filepath.Join(out, "00-1752-start")
	for _, turn := range append([]string{startDir}, turns...) {
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
	// The starting reports, written before the first turn's.
	for _, n := range append(slices.Clone(nations), "referee") {
		text := texts[filepath.Join(startDir, n)]
		want := "Starting report"
		if n == "referee" {
			want = "opening position"
		}
		if !strings.Contains(text, want) {
			t.Errorf("00-1752-start: %s's starting report does not say it is one:\n%.300s", n, text)
		}
	}
	// Every text the demo wrote or printed — the reports, the checker's
	// answers and the other mail, the summary — counts in agreement.
	all := []string{stdout.String()}
	for _, s := range texts {
		all = append(all, s)
	}
	mails, _ := filepath.Glob(filepath.Join(out, "*", "*-mail.txt"))
	for _, m := range mails {
		b, _ := os.ReadFile(m)
		all = append(all, string(b))
	}
	for _, s := range all {
		for _, bad := range onePlural(s) {
			t.Errorf("a count disagrees with its noun: %q", bad)
		}
	}
	// No PDF ends on a page with one or two lines.
	pdfs, _ := filepath.Glob(filepath.Join(out, "*", "*.pdf"))
	if len(pdfs) != 48 {
		t.Errorf("%d PDFs written, want 48 (the starting reports and seven turns, six each)", len(pdfs))
	}
	for _, p := range pdfs {
		text, ok := pdfTexts[p]
		if !ok {
			b, err := exec.Command("pdftotext", "-layout", p, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext %s: %v", p, err)
			}
			text = string(b)
		}
		if n := lastPageLines(text); n < 3 {
			t.Errorf("%s ends on a page with %d lines", strings.TrimPrefix(p, out+"/"), n)
		}
	}
}

// demoRun is "pbem demo" run once, with no flags, in an empty folder of
// its own.
type demoRun struct {
	dir            string // the folder it ran in (demo-out is written there)
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	err            error
	took           time.Duration
	done           chan struct{} // closed when it has exited
}

var (
	demoOnce sync.Once
	theDemo  *demoRun
)

// startDemo starts "pbem demo" with bin the first time it is called and
// returns the run, whose done is closed when it has exited.
func startDemo(bin string) *demoRun {
	demoOnce.Do(func() {
		r := &demoRun{done: make(chan struct{})}
		theDemo = r
		if r.dir, r.err = os.MkdirTemp("", "pbem-test-demo-"); r.err != nil {
			close(r.done)
			return
		}
		r.cmd = exec.Command(bin, "demo")
		r.cmd.Dir = r.dir
		r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
		start := time.Now()
		if r.err = r.cmd.Start(); r.err != nil {
			close(r.done)
			return
		}
		go func() {
			r.err = r.cmd.Wait()
			r.took = time.Since(start)
			close(r.done)
		}()
	})
	return theDemo
}

// stopDemo stops the demo if it still runs (its test did not), and removes
// its folder.
func stopDemo() {
	if theDemo == nil {
		return
	}
	if theDemo.cmd != nil && theDemo.cmd.Process != nil {
		select {
		case <-theDemo.done:
		default:
			theDemo.cmd.Process.Kill()
			<-theDemo.done
		}
	}
	if theDemo.dir != "" {
		os.RemoveAll(theDemo.dir)
	}
}

// onePluralRe finds "1" before a noun in the plural ("1 guns", "1 C
// gunners", "1 sea battles").
var onePluralRe = regexp.MustCompile(`(?:^|[^\w.,:/#–-])1 (?:[A-D] )?(?:[a-z]+ )?([a-z]+s)\b`)

// notPlurals are words ending in s that are not plural nouns.
var notPlurals = map[string]bool{"is": true, "was": true, "has": true, "its": true, "his": true, "this": true, "thus": true,
	"as": true, "us": true, "yes": true, "across": true, "less": true, "unless": true, "always": true, "perhaps": true}

// onePlural lists the places in s where 1 counts a noun in the plural.
func onePlural(s string) []string {
	var out []string
	for _, m := range onePluralRe.FindAllStringSubmatch(s, -1) {
		if !notPlurals[m[1]] {
			out = append(out, strings.TrimSpace(m[0]))
		}
	}
	return out
}

// lastPageLines counts the lines of text on the last page of a PDF's text
// as pdftotext writes it (each page ended by a form feed), its footer not
// counted.
func lastPageLines(text string) int {
	pages := strings.Split(strings.TrimSuffix(text, "\f"), "\f")
	n := 0
	for _, l := range strings.Split(pages[len(pages)-1], "\n") {
		if strings.TrimSpace(l) != "" && !strings.Contains(l, " — page ") {
			n++
		}
	}
	return n
}

// TestOnePluralFinds: the check the demo's outputs go through finds the
// disagreements the issue found and passes what agrees.
func TestOnePluralFinds(t *testing.T) {
	t.Parallel()
	for s, bad := range map[string]bool{
		"took 1 guns": true, "6 land battles, 1 sea battles": true, "1 C gunners": true, "1 turns resolved again": true,
		"1 cities": true, "1 gun": false, "11 guns": false, "U1 now stands": false, "Turn 1 ended": false,
		"1 of 4 guns": false, "— page 1\n": false, "1 figure was lost": false,
	} {
		if got := len(onePlural(s)) > 0; got != bad {
			t.Errorf("onePlural(%q) found %v, want %v", s, got, bad)
		}
	}
}
