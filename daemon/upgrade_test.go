package daemon

import (
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
)

// demoConfig is the game of store/testdata/schema8-demo.db.gz: "pbem demo"
// with seed 1752 (demo.Run writes it), its ports left to the kernel.
const demoConfig = `
data_dir: data
log_level: warn
game:
  id: syw
  name: SYW Demo Game
  ruleset: syw-1752
  scenario: %s
  referee: referee@pbem.localhost
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  reminder_hours: 0
  referee_password: {password: demo-referee-commands}
  nations:
    eisenmark: {addresses: [eisenmark@pbem.localhost], password: demo-eisenmark}
    morgronskia: {addresses: [morgronskia@pbem.localhost], password: demo-morgronskia}
    unterreich: {addresses: [unterreich@pbem.localhost], password: demo-unterreich}
    fromande: {addresses: [fromande@pbem.localhost], password: demo-fromande}
    hispardia: {addresses: [hispardia@pbem.localhost], password: demo-hispardia}
mail:
  mode: embedded
  address: orders@pbem.localhost
  embedded:
    domain: pbem.localhost
    imap_listen: 127.0.0.1:0
    smtp_listen: 127.0.0.1:0
    accounts:
      - {user: orders@pbem.localhost, password: demo-orders}
      - {user: referee@pbem.localhost, password: demo-referee}
`

// TestGameInProgressUpgrades opens, with this pbem, the store of a game in
// progress written by pbem at schema 8 (store/testdata/schema8-demo.db.gz:
// the demo's year, turn 7 rolled back and held) and plays on: the treaty
// ledger is the one that pbem kept; status reads the hold (released once
// the mail worked), the run and the runner as recorded; the reports rebuilt
// from the archive carry, turn after turn, the same last-seen intelligence
// and treasury as the report models that pbem stored; and playing on (RERUN
// 6, turn 7 resolved) reads the dice key and the ledger the turn was
// resolved from as they moved.
func TestGameInProgressUpgrades(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "data", "pbem.db")
	unzipTB(t, "../store/testdata/schema8-demo.db.gz", path)
	old := oldMeta(t, path)

	scen, _ := filepath.Abs("../scenarios/default")
	text := fmt.Sprintf(demoConfig, scen)
	cfg, err := config.Parse([]byte(text), filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Open(ctx, cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	var ledger []game.Treaty
	if err := json.Unmarshal([]byte(old["treaties:syw"]), &ledger); err != nil {
		t.Fatal(err)
	}
	if ts, err := g.Treaties(ctx); err != nil || !reflect.DeepEqual(ts, ledger) {
		t.Errorf("the treaty ledger after the upgrade: %+v, %v\nwant %+v", ts, err, ledger)
	}
	s, err := g.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Turn != 7 || s.IsHeld || !s.Held.Released || s.Held.Why == "" || s.Run.PID == 0 || !s.RunnerKnown || !s.Intake.Known || !s.OutboxKnown {
		t.Errorf("status after the upgrade: turn %d, held %v %+v, run %+v, runner %v, intake %v, outbox %v",
			s.Turn, s.IsHeld, s.Held, s.Run, s.RunnerKnown, s.Intake.Known, s.OutboxKnown)
	}
	// The reports rebuilt from the archive, as it was upgraded (turn 7 was
	// rolled back: its report is of a voided record).
	for turn := 0; turn <= 6; turn++ {
		for _, n := range g.Config.NationIDs() {
			key := fmt.Sprintf("report-model:syw:%d:%s", turn, n)
			var want reports.Model
			if err := json.Unmarshal([]byte(old[key]), &want); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			got, err := g.carriedReport(ctx, turn, game.NationID(n))
			if err != nil {
				t.Fatal(err)
			}
			if a, b := carried(got), carried(&want); a != b {
				t.Errorf("%s's report of turn %d, rebuilt from the archive, carries\n%s\nthe one mailed carried\n%s", n, turn, a, b)
			}
		}
	}

	// Playing on reads what moved. A RERUN is byte for byte only while
	// the rules are those that resolved the turn (any later change of rules
	// changes the result, and the RERUN says so), so what is checked is
	// what the upgrade moved: the dice key (each turn's seed is the same)
	// and the ledger the turn was resolved from.
	seeds := map[int]uint64{}
	vs, err := g.DB.TurnVersions(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range vs {
		seeds[r.Turn] = r.Seed
	}
	ledger6, ok6, err := g.DB.TurnTreatyLedger(ctx, "syw", 6)
	if err != nil || !ok6 {
		t.Fatalf("turn 6's ledger after the upgrade: %v, %v", ok6, err)
	}
	if _, err := g.Rerun(ctx, 6); err != nil {
		t.Errorf("RERUN 6 after the upgrade: %v", err)
	}
	if _, err := g.ResolveOpen(ctx, 7); err != nil {
		t.Fatal(err)
	}
	vs, err = g.DB.TurnVersions(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range vs {
		if want, ok := seeds[r.Turn]; ok && r.Seed != want {
			t.Errorf("turn %d v%d was resolved with seed %d, want %d (the dice key as stored before the upgrade)", r.Turn, r.Version, r.Seed, want)
		}
	}
	if again, _, err := g.DB.TurnTreatyLedger(ctx, "syw", 6); err != nil || !reflect.DeepEqual(again, ledger6) {
		t.Errorf("turn 6's ledger after the RERUN: %+v, %v; want the one it was resolved from %+v", again, err, ledger6)
	}
}

// carried is what a report carries forward, in words: the turn, the
// treasury, and the foreign forces it shows revealed or as last seen.
func carried(md *reports.Model) string {
	var lines []string
	for _, f := range md.Foreign {
		if f.Level != "" && f.Level != "size" {
			lines = append(lines, fmt.Sprintf("seen %s %s at %s", f.ID, f.Level, f.At))
		}
	}
	for _, f := range md.LastSeen {
		lines = append(lines, fmt.Sprintf("last seen %s %s in turn %d at %s", f.ID, f.Level, f.SeenTurn, f.At))
	}
	slices.Sort(lines)
	return fmt.Sprintf("turn %d, treasury %d\n%s", md.Turn, md.Treasury.Total, strings.Join(lines, "\n"))
}

// unzipTB unpacks a gzipped file.
func unzipTB(t testing.TB, from, to string) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// oldMeta reads the meta table of a store not yet upgraded, with SQL of
// its own (store.Open would upgrade it).
func oldMeta(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		m[k] = v
	}
	if len(m) == 0 {
		t.Fatal("no meta rows in the old store")
	}
	return m
}
