//go:build unix

package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/store"
)

// writeTestConfig writes testConfig into dir, for a child daemon, and
// returns it parsed.
func writeTestConfig(t *testing.T, dir string) *config.Config {
	t.Helper()
	scen, _ := filepath.Abs("../scenarios/default")
	text := fmt.Sprintf(testConfig, scen, imapWait)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Sheets are judged by when they reached the mail server, whenever pbem
// takes them in: issue 28's first case, on the test provider and on the
// embedded server.

// arrivalCase is what both tests check once pbem is started again after
// the deadline: the two sheets that reached the server before it count,
// the one after it is late, and the turn resolved with the two, the others
// NMR.
func checkArrivals(t *testing.T, db *store.DB, deadline time.Time, onTime, late []string, refereeSummary string) {
	t.Helper()
	ctx := context.Background()
	rows, err := db.MailHeadsByStatus(ctx, store.MailMoved)
	if err != nil {
		t.Fatal(err)
	}
	acked, _ := db.MailHeadsByStatus(ctx, store.MailAcknowledged)
	rows = append(rows, acked...)
	class := map[string]string{}
	for _, m := range rows {
		nation, _, _ := strings.Cut(m.From, "@")
		if !slices.Contains(onTime, nation) && !slices.Contains(late, nation) {
			continue
		}
		class[nation] = m.Classification
		if m.ArrivalSource != store.ArrivalInternalDate || m.FetchedAt.IsZero() {
			t.Errorf("%s's sheet: arrival read from %q (fetched %v), want the server's INTERNALDATE", nation, m.ArrivalSource, m.FetchedAt)
		}
		if before := !m.ReceivedAt.After(deadline); before != slices.Contains(onTime, nation) {
			t.Errorf("%s's sheet arrived at %v, deadline %v", nation, m.ReceivedAt, deadline)
		}
	}
	for _, n := range onTime {
		if class[n] != ClassOrders {
			t.Errorf("%s's sheet, sent before the deadline while pbem was stopped, is %q, want %q", n, class[n], ClassOrders)
		}
	}
	for _, n := range late {
		if class[n] != ClassLate {
			t.Errorf("%s's sheet, sent after the deadline, is %q, want %q", n, class[n], ClassLate)
		}
	}
	rec, err := db.LatestTurn(ctx, "syw")
	if err != nil || rec.Turn != 1 {
		t.Fatalf("the latest turn is %d (%v), want turn 1 resolved", rec.Turn, err)
	}
	for _, n := range onTime {
		if strings.Contains(strings.ToLower(refereeSummary), n) {
			t.Errorf("the referee's summary lists %s among the NMR nations:\n%s", n, refereeSummary)
		}
	}
	for _, n := range late {
		if !strings.Contains(strings.ToLower(refereeSummary), n) {
			t.Errorf("the referee's summary does not list %s, whose sheet was late, among the NMR nations:\n%s", n, refereeSummary)
		}
	}
}

// nmrLine is the referee summary's line naming the NMR nations.
func nmrLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "No orders (NMR)") {
			return l
		}
	}
	return ""
}

// afterSecond waits until the clock has passed t by a second: a mail
// delivered then is stamped (to the second) after t.
func afterSecond(t time.Time) {
	for time.Now().Before(t.Add(time.Second)) {
		time.Sleep(time.Until(t.Add(time.Second + 10*time.Millisecond)))
	}
}

// TestProviderSheetsJudgedByArrival: pbem stopped (SIGTERM); two sheets
// reach the provider before the deadline, one after; pbem started after
// the deadline takes all three in before it resolves, counts the two on
// time and answers the third late.
func TestProviderSheetsJudgedByArrival(t *testing.T) {
	t.Parallel()
	pg := newProvGame(t, nil, nil)
	ctx := context.Background()
	// The game exists (turn 1 open); pbem stops.
	waitUntil(t, "the intake connected", func() bool { h, _ := pg.d.Game.IntakeHealth(ctx); return h.Up })
	pg.stop()

	pg.send("eisenmark@provider.test", "orders", marchSheet)
	pg.send("morgronskia@provider.test", "orders", emptySheet("morgronskia", 1))
	pg.delivered()
	deadline := time.Now().Truncate(time.Second).Add(time.Second)
	db := pg.db()
	if err := db.SetDeadline(ctx, "syw", 1, deadline, 0); err != nil {
		t.Fatal(err)
	}
	db.Close()
	afterSecond(deadline)
	pg.send("unterreich@provider.test", "orders", emptySheet("unterreich", 1))
	pg.delivered()

	pg.start()
	summary := pg.waitFor("referee@provider.test", func(m string) bool {
		return subjectHas("resolved: referee's summary")(m) && strings.Contains(body(m), "(TURN 2)")
	})
	for _, n := range []string{"eisenmark", "morgronskia"} {
		ack := pg.waitFor(n+"@provider.test", subjectHas("orders received"))
		if strings.Contains(body(ack), "LATE") {
			t.Errorf("%s's answer:\n%s", n, body(ack))
		}
	}
	late := pg.waitFor("unterreich@provider.test", subjectHas("too LATE"))
	if !strings.Contains(body(late), "THIS SHEET ARRIVED AFTER THE ORDERS CLOSED: the deadline") {
		t.Errorf("the late answer:\n%s", body(late))
	}
	checkArrivals(t, pg.d.Game.DB, deadline, []string{"eisenmark", "morgronskia"}, []string{"unterreich"}, nmrLine(body(summary)))
}

// TestEmbeddedSheetsJudgedByArrival: the same with the embedded server.
// Two sheets reach pbem's own server, and pbem is killed (SIGKILL) at once;
// a third reaches the server's mailbox after the deadline while pbem is
// down; pbem started again counts the first two and answers the third late.
func TestEmbeddedSheetsJudgedByArrival(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeTestConfig(t, dir)
	c := startChild(t, dir)
	c.addrs(t, dir)
	sendMail(t, c.smtp, "eisenmark@pbem.localhost",
		"From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <a@x>\n\n"+marchSheet)
	sendMail(t, c.smtp, "morgronskia@pbem.localhost",
		"From: morgronskia@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <b@x>\n\n"+emptySheet("morgronskia", 1))
	c.kill()

	ctx := context.Background()
	deadline := time.Now().Truncate(time.Second).Add(time.Second)
	db := openKillStore(t, dir)
	if err := db.SetDeadline(ctx, "syw", 1, deadline, 0); err != nil {
		t.Fatal(err)
	}
	db.Close()
	afterSecond(deadline)
	// While pbem's intake is down, its server takes the third sheet: the
	// embedded mail server alone, on the game's mail store, through SMTP
	// as a player's client sends.
	ms, err := startMailServer(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	sendMail(t, ms.SMTPAddr(), "unterreich@pbem.localhost",
		"From: unterreich@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <c@x>\n\n"+emptySheet("unterreich", 1))
	ms.Close()

	c = startChild(t, dir)
	defer c.stop(t)
	c.addrs(t, dir)
	db = openKillStore(t, dir)
	defer db.Close()
	var summary string
	waitUntil(t, "turn 1 resolved and its reports sent", func() bool {
		rows, _ := db.MessagesInState(ctx, store.OutboxSent)
		for _, r := range rows {
			if r.Kind == MailRefereeReport {
				summary = body(string(r.Raw))
				return true
			}
		}
		return false
	})
	waitUntil(t, "the late sheet answered", func() bool {
		ms, _ := db.MailHeadsByStatus(ctx, store.MailStored)
		return len(ms) == 0
	})
	checkArrivals(t, db, deadline, []string{"eisenmark", "morgronskia"}, []string{"unterreich"}, nmrLine(summary))
}
