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
// the mail worked), the run and the runner as recorded; RERUN 6 gives turn 6's result byte for byte (the
// ledger it was resolved from, the dice key and the rulings all moved);
// turn 7 resolves to its voided record, which is restored; and the reports
// rebuilt from the archive carry, turn after turn, the same last-seen
// intelligence and treasury as the report models that pbem stored.
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
	if line, err := g.Rerun(ctx, 6); err != nil || !strings.Contains(line, "same result, byte for byte: nothing was changed") {
		t.Errorf("RERUN 6 after the upgrade: %q, %v", line, err)
	}
	if _, err := g.ResolveOpen(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if rec, err := g.DB.LatestTurn(ctx, "syw"); err != nil || rec.Turn != 7 || rec.Version != 1 {
		t.Errorf("turn 7 resolved again is %d v%d, %v; want its voided record (version 1) restored", rec.Turn, rec.Version, err)
	}

	for turn := 0; turn <= 7; turn++ {
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
