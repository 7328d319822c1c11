package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
)

// trossianConfig is a Trossian game (seed 004) on the embedded server.
const trossianConfig = `
data_dir: data
log_level: warn
game:
  id: tross
  name: Trossian Test Game
  ruleset: trossian
  scenario: %s
  referee: referee@pbem.localhost
  referee_password: {password: demo-referee-orders}
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  nations:
    norvale: {addresses: [norvale@pbem.localhost], password: demo-norvale}
    ostmark: {addresses: [ostmark@pbem.localhost], password: demo-ostmark}
    varn: {addresses: [varn@pbem.localhost], password: demo-varn}
    carrowland: {addresses: [carrowland@pbem.localhost], password: demo-carrowland}
    selvenia: {addresses: [selvenia@pbem.localhost], password: demo-selvenia}
mail:
  mode: embedded
  address: orders@pbem.localhost
  embedded:
    domain: pbem.localhost
    imap_listen: 127.0.0.1:0
    smtp_listen: 127.0.0.1:0
    accounts:
      - {user: orders@pbem.localhost, password: pw-orders}
      - {user: referee@pbem.localhost, password: pw-referee}
      - {user: norvale@pbem.localhost, password: pw-norvale}
      - {user: ostmark@pbem.localhost, password: pw-ostmark}
      - {user: varn@pbem.localhost, password: pw-varn}
      - {user: carrowland@pbem.localhost, password: pw-carrowland}
      - {user: selvenia@pbem.localhost, password: pw-selvenia}
  imap:
    %s
`

// newTrossianHarness runs a Trossian game's daemon; scenario is the
// game.scenario value.
func newTrossianHarness(t *testing.T, scenario string) *harness {
	t.Helper()
	d, cfg := startTrossianDaemon(t, scenario)
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, d: d, cfg: cfg, cancel: cancel, done: make(chan error, 1)}
	go func() { h.done <- d.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

// startTrossianDaemon starts a Trossian game's daemon (scenario is the
// game.scenario value) without running its loops; the caller closes it.
func startTrossianDaemon(t *testing.T, scenario string) (*Daemon, *config.Config) {
	t.Helper()
	dir := t.TempDir()
	text := fmt.Sprintf(trossianConfig, scenario, imapWait)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = io.Discard
	if os.Getenv("PBEM_TEST_LOG") != "" {
		w = os.Stderr
	}
	d, err := Start(context.Background(), cfg, &Options{Logger: slog.New(slog.NewTextHandler(w, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return d, cfg
}

// trossianSheet is a kingdom's sheet for a turn.
func trossianSheet(nation string, turn int, orders ...string) string {
	return fmt.Sprintf("GAME tross\nNATION %s\nPASSWORD demo-%s\nTURN %d\n%s\nEND\n", nation, nation, turn, strings.Join(orders, "\n"))
}

// waitTurn waits until turn n is resolved.
func (h *harness) waitTurn(n int) {
	h.t.Helper()
	ctx := context.Background()
	waitUntil(h.t, fmt.Sprintf("turn %d resolved", n), func() bool {
		rec, err := h.d.Game.DB.LatestTurn(ctx, h.d.Game.ID())
		return err == nil && rec.Turn >= n
	})
}

// TestTrossianGameByMail plays the Trossian campaign by mail through the
// daemon, as players and the referee would: the game created from the
// built-in scenario with every kingdom's starting report (its PDF with the
// area map), sheets answered by the Trossian checker (a mistake told by
// its line), a turn resolved by the trossian engine through the campaign
// seam, the next turn stopped at a battle whose sheet goes to the referee,
// his RESULT with a mistake refused by line and a good one recorded, and
// the turn resolved with it; the referee's PREVIEW mailed, his ROLLBACK
// and RERUN answered; an SYW-only referee command refused with the reason.
func TestTrossianGameByMail(t *testing.T) {
	h := newTrossianHarness(t, "scenarios/trossian") // not on disk beside the config: the built-in copy
	g := h.d.Game
	ctx := context.Background()
	if g.Campaign == nil || g.Map != nil || g.Rules != nil {
		t.Fatalf("a Trossian game opened with campaign %v, map %v, rules %v", g.Campaign, g.Map, g.Rules)
	}
	start, _ := h.waitFor("norvale@pbem.localhost", "pw-norvale", isStartReport)
	if start == "" || !strings.Contains(header(start, "Subject"), "Turn 1, Early Spring 1801") ||
		!strings.Contains(start, "application/pdf") || !strings.Contains(body(start), "Your King holds court at Norhaven") {
		t.Fatalf("Norvale's starting report:\n%s", header(start, "Subject")+"\n"+body(start))
	}
	if st, err := g.State(ctx); err != nil || st.Turn != 1 || len(st.Nations) != 5 {
		t.Fatalf("the stand-in state: %v %+v", err, st)
	}

	// Turn 1: Norvale and Ostmark march on Trossburg. Ostmark's first
	// sheet has a mistake, told by its line; its corrected sheet replaces it.
	id := h.send("norvale@pbem.localhost", "orders", trossianSheet("norvale", 1, "MOVE N1 TO Trossburg", "ATTACK N1"))
	ack, _ := h.waitFor("norvale@pbem.localhost", "pw-norvale", replyTo(id))
	if !strings.Contains(header(ack, "Subject"), "Norvale, Turn 1, Early Spring 1801: orders received, receipt") {
		t.Fatalf("Norvale's answer: %s\n%s", header(ack, "Subject"), body(ack))
	}
	id = h.send("ostmark@pbem.localhost", "orders", trossianSheet("ostmark", 1, "MOVE O1 TO Trossberg"))
	ack, _ = h.waitFor("ostmark@pbem.localhost", "pw-ostmark", replyTo(id))
	if !strings.Contains(header(ack, "Subject"), "with 1 error") || !strings.Contains(body(ack), "line 5") {
		t.Fatalf("Ostmark's answer to a sheet with a mistake: %s\n%s", header(ack, "Subject"), body(ack))
	}
	id = h.send("ostmark@pbem.localhost", "orders", trossianSheet("ostmark", 1, "MOVE O1 TO Trossburg"))
	if ack, _ = h.waitFor("ostmark@pbem.localhost", "pw-ostmark", replyTo(id)); !strings.Contains(header(ack, "Subject"), "orders received, receipt") {
		t.Fatalf("Ostmark's corrected sheet: %s\n%s", header(ack, "Subject"), body(ack))
	}
	id = h.send("varn@pbem.localhost", "orders", strings.Replace(trossianSheet("varn", 1), "demo-varn", "wrong", 1))
	if ack, _ = h.waitFor("varn@pbem.localhost", "pw-varn", replyTo(id)); !strings.Contains(header(ack, "Subject"), "REFUSED") {
		t.Fatalf("a sheet with a wrong password: %s\n%s", header(ack, "Subject"), body(ack))
	}
	h.settle()
	h.send("referee@pbem.localhost", "resolve", refereeCommand("RESOLVE NOW"))
	h.waitTurn(1)
	rep, _ := h.waitFor("norvale@pbem.localhost", "pw-norvale", subjectHas("Turn 1, Early Spring 1801 resolved"))
	if !strings.Contains(rep, "application/pdf") || !strings.Contains(body(rep), "Orders are now taken for Turn 2, Mid Spring 1801") {
		t.Fatalf("Norvale's report of turn 1:\n%s", body(rep))
	}
	if ref, _ := h.waitFor("referee@pbem.localhost", "pw-referee", subjectHas("Turn 1, Early Spring 1801 resolved: Referee's report")); !strings.Contains(body(ref), "No orders (NMR): carrowland, selvenia, varn") {
		t.Fatalf("the referee's report of turn 1:\n%s", body(ref))
	}

	// Turn 2: the armies meet at Trossburg; the turn waits for the table.
	h.send("referee@pbem.localhost", "resolve", refereeCommand("RESOLVE NOW"))
	sheet, _ := h.waitFor("referee@pbem.localhost", "pw-referee", subjectHas("battle at Trossburg to fight on the table"))
	if !strings.Contains(body(sheet), "RESULT Trossburg") {
		t.Fatalf("the battle sheet:\n%s", body(sheet))
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); rec.Turn != 1 {
		t.Fatal("turn 2 was resolved before its battle's result came")
	}
	// pbem status shows the battle waiting for its result.
	if s, err := g.Status(ctx); err != nil || !strings.Contains(s.Text(time.Now()), "Trossburg") ||
		!strings.Contains(s.Text(time.Now()), "PENDING: answer with its RESULT") {
		t.Errorf("status while the battle waits (%v):\n%s", err, s.Text(time.Now()))
	}
	cmd := h.send("referee@pbem.localhost", "result", refereeCommand("RESULT Trossburg", "OUTCOME win", "WINNER ostmark", "UNIT N1 hussars DESTROYED 1", "END"))
	ans, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "ERROR") || !strings.Contains(body(ans), "Nothing was recorded") {
		t.Fatalf("the answer to a result with a mistake:\n%s", body(ans))
	}
	cmd = h.send("referee@pbem.localhost", "result", refereeCommand("RESULT Trossburg", "OUTCOME win", "WINNER ostmark", "UNIT N1 line-infantry DESTROYED 2", "END"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "The result of the battle at Trossburg is recorded") {
		t.Fatalf("the answer to a good result:\n%s", body(ans))
	}
	h.waitTurn(2)
	rec, err := g.DB.LatestTurn(ctx, "tross")
	if err != nil || !strings.Contains(string(rec.EventLog), "BattleFought") {
		t.Fatalf("turn 2 was not fought with the referee's result: %v", err)
	}
	cs, err := g.CampaignState(ctx)
	if err != nil || cs.TurnLabel() != "Turn 3, Late Spring 1801" {
		t.Fatalf("the campaign's state: %v %v", err, cs)
	}
	rep, _ = h.waitFor("ostmark@pbem.localhost", "pw-ostmark", subjectHas("Turn 2, Mid Spring 1801 resolved"))
	if !strings.Contains(body(rep), "Trossburg") {
		t.Fatalf("Ostmark's report of the battle:\n%s", body(rep))
	}

	// The referee's rulings: recorded for the open turn, carried out when
	// it resolves.
	cmd = h.send("referee@pbem.localhost", "rulings", refereeCommand("RULE COURIERS varn +1", `RULE TELL ostmark "The plans say Norvale marches on Kessel."`, "RULE AP Nowhere +5x"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if strings.Count(body(ans), "recorded for Turn 3, Late Spring 1801") != 2 || !strings.Contains(body(ans), "line 4:") {
		t.Fatalf("the answer to RULE:\n%s", body(ans))
	}
	h.send("referee@pbem.localhost", "resolve", refereeCommand("RESOLVE NOW"))
	h.waitTurn(3)
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); strings.Count(string(rec.EventLog), `"RulingDone"`) != 2 {
		t.Errorf("turn 3's rulings were not carried out:\n%s", rec.EventLog)
	}
	rep, _ = h.waitFor("ostmark@pbem.localhost", "pw-ostmark", subjectHas("Turn 3, Late Spring 1801 resolved"))
	if !strings.Contains(body(rep), "Norvale marches on Kessel") {
		t.Errorf("Ostmark was not told the ruling:\n%s", body(rep))
	}

	// PREVIEW by mail: the open turn as it would resolve, in a mail of
	// its own; nothing is saved.
	cmd = h.send("referee@pbem.localhost", "preview", refereeCommand("PREVIEW"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "the preview of Turn 4, Early Summer 1801 follows in a separate mail") {
		t.Fatalf("the answer to PREVIEW in a Trossian game:\n%s", body(ans))
	}
	pv, _ := h.waitFor("referee@pbem.localhost", "pw-referee", subjectHas("PREVIEW of Turn 4, Early Summer 1801"))
	if !strings.Contains(body(pv), "Nothing was saved, and nothing was sent to the players") || !strings.Contains(body(pv), "Early Summer 1801") {
		t.Fatalf("the preview mail:\n%s", body(pv))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); rec.Turn != 3 {
		t.Fatalf("PREVIEW resolved turn 4 (latest record %d)", rec.Turn)
	}

	// ROLLBACK and RERUN by mail: turn 3 set aside and open again, then
	// resolved to the same bytes, restored without a mail to the players.
	t3, _ := g.DB.Turn(ctx, "tross", 3)
	cmd = h.send("referee@pbem.localhost", "rollback", refereeCommand("ROLLBACK 3"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "Turn 3, Late Spring 1801 is open again: 1 turn record set aside") {
		t.Fatalf("the answer to ROLLBACK 3:\n%s", body(ans))
	}
	cmd = h.send("referee@pbem.localhost", "rerun", refereeCommand("RERUN 3"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "same result as before the rollback, byte for byte") {
		t.Fatalf("the answer to RERUN 3:\n%s", body(ans))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); rec.Turn != 3 || rec.Version != t3.Version {
		t.Fatalf("after RERUN 3: turn %d v%d, want turn 3 v%d restored", rec.Turn, rec.Version, t3.Version)
	}

	// A command only SYW has is refused with the reason.
	cmd = h.send("referee@pbem.localhost", "approve", refereeCommand("APPROVE R1a2b3c"))
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "REFUSED") || !strings.Contains(body(ans), "campaign's games do not take this command") {
		t.Fatalf("APPROVE in a Trossian game:\n%s", body(ans))
	}
}

// TestSYWRefusesRule: an SYW game refuses the Trossian campaign's RULE,
// saying what its rulings are; it holds the SYW adapter as its Campaign
// and is served by the SYW path.
func TestSYWRefusesRule(t *testing.T) {
	h := newHarness(t, nil)
	if h.d.Game.Campaign == nil || h.d.Game.Map == nil {
		t.Fatalf("an SYW game opened with campaign %v, map %v", h.d.Game.Campaign, h.d.Game.Map)
	}
	cmd := h.send("referee@pbem.localhost", "rulings", refereeCommand("RULE COURIERS eisenmark +1"))
	ans, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "REFUSED") || !strings.Contains(body(ans), "an SYW ruling answers a player's request (APPROVE)") {
		t.Fatalf("RULE in an SYW game:\n%s", body(ans))
	}
}
