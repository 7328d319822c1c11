package host

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/game"
)

// diceKey is the dice key every test game gets, so that a game run alone
// and the same game on a host roll the same dice.
const diceKey = "3b2f1e0d9c8b7a69584736251403f2e1d0c9b8a79685746352413f2e1d0c9b8a"

// createStores creates every game of the host folder in its store, with
// diceKey, as "pbem run" would at its first start.
func createStores(t testing.TB, dir string) {
	t.Helper()
	ctx := context.Background()
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range s.Names() {
		cfg, err := config.Load(ConfigPath(dir, name, s.Games[name]))
		if err != nil {
			t.Fatal(err)
		}
		g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: testLogger()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Ensure(ctx); err != nil {
			t.Fatal(err)
		}
		if err := g.DB.EnsureDiceKey(ctx, name, func() (string, error) { return diceKey, nil }); err != nil {
			t.Fatal(err)
		}
		g.Close()
	}
}

// editConfig changes a game's config.yaml.
func editConfig(t testing.TB, dir, name string, edit func(string) string) {
	t.Helper()
	path := filepath.Join(GameDir(dir, name), "config.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// played is what one game went through: its sheets and what came of them.
type played struct {
	sheets  map[string]string // by nation
	turn    int               // the turn the sheets were for
	archive []byte
	reports map[string][]byte // turn's report model (JSON) by nation
}

// TestHostServesThreeGames serves two SYW 1752 games and one V4 game from
// one process on one mail server: sheets by mail to the host's one
// address (routed by their GAME line) and to a game's own address, a sheet
// for a game its sender does not play in answered with their games, a
// deadline in each game; then each game is played alone from a copy of
// the same folder, and its archive and reports are the same bytes.
func TestHostServesThreeGames(t *testing.T) {
	t.Parallel()
	dir := newHostFolder(t, gameSpec{"alpha", "syw-1752"}, gameSpec{"bravo", "syw-1752"}, gameSpec{"vier", "syw-v4"})
	// In vier, eisenmark is played by carl: eisenmark@ plays in alpha and
	// bravo only.
	editConfig(t, dir, "vier", func(s string) string {
		return strings.ReplaceAll(s, "eisenmark@pbem.localhost", "carl@pbem.localhost")
	})
	if _, err := ensureAccountSecret(dir, "carl@pbem.localhost"); err != nil {
		t.Fatal(err)
	}
	createStores(t, dir)
	alone := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", dir, alone).CombinedOutput(); err != nil {
		t.Fatalf("copying the host folder: %v %s", err, out)
	}

	clock := &testClock{}
	h := startHost(t, dir, clock, nil)
	for _, gi := range h.Games() {
		if gi.Status != StatusRunning {
			t.Fatalf("game %s: %s %s", gi.Name, gi.Status, gi.Err)
		}
	}
	ms := h.Mail()
	hosted := map[string]*played{}
	for _, name := range []string{"alpha", "bravo", "vier"} {
		g, ok := h.Game(name)
		if !ok {
			t.Fatalf("game %s is not served", name)
		}
		p := &played{sheets: scriptSheets(t, g, GameDir(dir, name)), turn: turnOf(t, g)}
		hosted[name] = p
		for nation, sheet := range p.sheets {
			from := nation + "@pbem.localhost"
			if name == "vier" && nation == "eisenmark" {
				from = "carl@pbem.localhost"
			}
			// bravo's sheets to its own address; the others' to the host's.
			to := "orders@pbem.localhost"
			if name == "bravo" {
				to = "orders+bravo@pbem.localhost"
			}
			id, err := post(ms.SMTPAddr(), from, mailPassword(t, dir, from), to, "orders", sheet)
			if err != nil {
				t.Fatal(err)
			}
			ack := waitMail(t, ms.IMAPAddr(), from, mailPassword(t, dir, from), answers(id))
			if got := header(ack, "From"); !strings.Contains(got, "orders+"+name+"@") {
				t.Errorf("%s's sheet for %s was answered from %q, not the game's address", nation, name, got)
			}
		}
	}

	// eisenmark@ sends a sheet for vier, where it has no nation: the host
	// answers at once with the games it plays in, and vier never sees it.
	eis := "eisenmark@pbem.localhost"
	id, err := post(ms.SMTPAddr(), eis, mailPassword(t, dir, eis), "orders@pbem.localhost", "orders",
		"GAME vier\nNATION eisenmark\nPASSWORD x\nTURN 1\nEND\n")
	if err != nil {
		t.Fatal(err)
	}
	reply := waitMail(t, ms.IMAPAddr(), eis, mailPassword(t, dir, eis), answers(id))
	for _, want := range []string{"names game vier", "no nation in it", "alpha", "orders+alpha@pbem.localhost", "bravo", "GAME alpha"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the answer to a sheet for a game its sender is not in lacks %q:\n%s", want, reply)
		}
	}

	// The deadline passes in every game.
	clock.Advance(29 * 24 * time.Hour)
	for name, p := range hosted {
		g, _ := h.Game(name)
		g.WakeTurns()
		waitUntil(t, name+" resolves its turn", func() bool { return turnOf(t, g) > p.turn })
	}
	for name, p := range hosted {
		g, _ := h.Game(name)
		p.archive, p.reports = record(t, g, p.turn)
	}

	// Each game alone, from the copy made before the host started.
	for name, p := range hosted {
		t.Run(name+"-alone", func(t *testing.T) {
			got := playAlone(t, alone, name, p)
			if !bytes.Equal(got.archive, p.archive) {
				t.Errorf("game %s's archive on the host differs from the same game played alone (%d and %d bytes)", name, len(p.archive), len(got.archive))
			}
			for nation, want := range p.reports {
				if !bytes.Equal(got.reports[nation], want) {
					t.Errorf("game %s: %s's report of turn %d differs from the same game played alone", name, nation, p.turn)
				}
			}
		})
	}
}

// record exports g's archive, checks it verifies, and rebuilds every
// nation's report of turn.
func record(t testing.TB, g *daemon.Game, turn int) ([]byte, map[string][]byte) {
	t.Helper()
	ctx := context.Background()
	var b bytes.Buffer
	if _, err := g.Export(ctx, &b); err != nil {
		t.Fatal(err)
	}
	sum, err := daemon.VerifyArchive(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("game %s's archive does not verify: %v", g.ID(), err)
	}
	if sum.Resolved < 1 {
		t.Fatalf("game %s's archive has no resolved turn: %+v", g.ID(), sum)
	}
	st, err := g.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reports := map[string][]byte{}
	for _, n := range st.Nations {
		md, err := g.RebuildReport(ctx, turn, game.NationID(n.ID))
		if err != nil {
			t.Fatal(err)
		}
		reports[string(n.ID)], _ = json.Marshal(md)
	}
	return b.Bytes(), reports
}

// playAlone runs one game of the copied host folder by itself, on its own
// embedded server, with the same sheets and the same deadline.
func playAlone(t *testing.T, hostCopy, name string, p *played) *played {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(GameDir(hostCopy, name), "config.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("127.0.0.1:1143", "127.0.0.1:0", "127.0.0.1:2525", "127.0.0.1:0").Replace(string(b))
	cfg, err := config.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{}
	d, err := daemon.Start(ctx, cfg, &daemon.Options{Logger: testLogger(), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		d.Close()
	}()
	for nation, sheet := range p.sheets {
		from := cfg.Game.Nations[nation].Addresses[0]
		pw := mailPassword(t, hostCopy, from)
		id, err := post(d.Mail.SMTPAddr(), from, pw, cfg.Mail.Address, "orders", sheet)
		if err != nil {
			t.Fatal(err)
		}
		waitMail(t, d.Mail.IMAPAddr(), from, pw, answers(id))
	}
	clock.Advance(29 * 24 * time.Hour)
	d.Game.WakeTurns()
	waitUntil(t, name+" alone resolves its turn", func() bool { return turnOf(t, d.Game) > p.turn })
	archive, reports := record(t, d.Game, p.turn)
	return &played{archive: archive, reports: reports}
}
