package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// TestResolveNowNotStarved (issue 21, case 2): one player streams valid
// sheets at 10 a second, before and after the referee's RESOLVE NOW; the
// turn is resolved within 2 s of the server taking the command, with the
// sheets that reached the server before it; the ones after it are answered
// late, as after a deadline.
func TestResolveNowNotStarved(t *testing.T) {
	// Not parallel: it times a promise, so it runs while no other test does.
	streamAround(t, func(h *harness) string {
		return h.send("referee@pbem.localhost", "resolve", refereeCommand("RESOLVE NOW"))
	})
}

// TestLastFinalNotStarved: the same for the last FINAL sheet: four nations
// have sent theirs; Eisenmark streams sheets, then a FINAL one, then more;
// the turn resolves within 2 s of the FINAL sheet with it, and the sheets
// after it are late.
func TestLastFinalNotStarved(t *testing.T) {
	// Not parallel: it times a promise, so it runs while no other test does.
	streamAround(t, func(h *harness) string {
		for _, n := range []string{"morgronskia", "unterreich", "fromande", "hispardia"} {
			id := h.send(n+"@pbem.localhost", "orders FINAL", emptySheet(n, 1))
			if ack, _ := h.waitFor(n+"@pbem.localhost", "pw-"+n, replyTo(id)); !strings.Contains(body(ack), "Marked FINAL") {
				h.t.Fatalf("%s's FINAL sheet:\n%s", n, body(ack))
			}
		}
		return h.send("eisenmark@pbem.localhost", "orders", strings.Replace(marchSheet, "\nEND\n", "\nFINAL\nEND\n", 1))
	})
}

// streamAround streams valid sheets from Eisenmark at 10 a second, sends the
// mail that closes the turn (closer returns its Message-ID) after ten of
// them, and checks that the turn resolves within 2 s of the server taking
// that mail, with the sheets before it, and that those after it are late.
func streamAround(t *testing.T, closer func(h *harness) string) {
	// The reports as plain text: the time a turn takes to resolve is not
	// what this measures (BenchmarkResolveTurn does), but that nothing
	// arriving holds the resolution back.
	h := newHarnessWith(t, nil, &Options{TurnMailer: PlainTurnMail})
	g := h.d.Game
	ctx := context.Background()
	smtpAddr := h.d.Mail.SMTPAddr()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var streamed atomic.Int64
	var streamErr atomic.Value
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			raw := fmt.Sprintf("From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: orders %d\r\n"+
				"Message-ID: <stream%d@x>\r\n\r\n%s", i, i, strings.ReplaceAll(marchSheet, "\n", "\r\n"))
			sctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			err := mailserver.SendAs(sctx, smtpAddr, loginFor("eisenmark@pbem.localhost"), "eisenmark@pbem.localhost",
				[]string{"orders@pbem.localhost"}, []byte(raw))
			cancel()
			if err != nil {
				streamErr.Store(err)
				return
			}
			streamed.Add(1)
		}
	}()
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()
	waitUntil(t, "ten sheets streamed", func() bool { return streamed.Load() >= 10 })

	id := closer(h)
	taken := time.Now()
	waitUntil(t, "turn 1 resolved", func() bool { rec, _ := g.DB.LatestTurn(ctx, "syw"); return rec.Turn == 1 })
	took := time.Since(taken)
	from := streamed.Load()
	waitUntil(t, "ten more sheets streamed", func() bool { return streamed.Load() >= from+10 })
	close(stop)
	wg.Wait()
	h.sent += int(streamed.Load()) // for settle: the streamed mails, sent beside the harness
	if err, _ := streamErr.Load().(error); err != nil {
		t.Fatal(err)
	}
	t.Logf("the turn was resolved %v after the server took the closing mail, with %d sheets streamed at 10/s", took.Round(time.Millisecond), streamed.Load())
	if took > resolveLimit {
		t.Errorf("the turn took %v to resolve while a player streamed sheets; want at most %v", took, resolveLimit)
	}
	h.settle()

	var cmd store.Mail
	for _, m := range handledMail(t, g) {
		if m.MessageID == id {
			cmd = m
		}
	}
	if cmd.ID == 0 {
		t.Fatal("the closing mail is not in the store")
	}
	onTime, late := 0, 0
	for _, m := range handledMail(t, g) {
		if !strings.HasPrefix(m.MessageID, "stream") {
			continue
		}
		switch after := m.ID > cmd.ID; {
		case !after && m.Classification == ClassOrders:
			onTime++
		case after && (m.Classification == ClassLate || m.Classification == ClassRefused):
			late++ // late for turn 1, or (handled once turn 2 was open) a sheet for a past turn
		default:
			t.Errorf("sheet %s (mail %d, the closing mail is %d) is %s", m.MessageID, m.ID, cmd.ID, m.Classification)
		}
	}
	if onTime < 10 || late < 10 {
		t.Errorf("%d sheets before the closing mail counted, %d after it refused; want 10 or more of each", onTime, late)
	}
	// Eisenmark's sheet in force is one that came before the close.
	subs, _ := g.DB.SubmissionsOf(ctx, "syw", 1, "eisenmark", KindOrders)
	for _, s := range subs {
		if s.MailID > cmd.ID {
			t.Errorf("a sheet after the closing mail was saved for turn 1: mail %d (the closing mail is %d)", s.MailID, cmd.ID)
		}
	}
}

// handledMail returns every received mail, without its bytes.
func handledMail(t *testing.T, g *Game) []store.Mail {
	t.Helper()
	var out []store.Mail
	for _, s := range []store.MailStatus{store.MailStored, store.MailHandled, store.MailIgnored, store.MailQuarantined,
		store.MailAcknowledged, store.MailMoved} {
		ms, err := g.DB.MailHeadsByStatus(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ms...)
	}
	return out
}
