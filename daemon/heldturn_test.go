//go:build unix

package daemon

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHeldTurnWaitsForTheReferee (issue 28, case 3): the provider's IMAP
// server is down across turn 1's deadline. The turn is held and the referee
// told why; when the server is back (an outage of seconds) the turn still
// waits, and the referee is told that too; the referee's RESOLVE NOW in
// reply to the "waits" mail resolves turn 1; the same command arriving
// again after turn 1 was resolved is refused with why, and turn 2 is left
// alone.
func TestHeldTurnWaitsForTheReferee(t *testing.T) {
	t.Parallel()
	pg := newProvGame(t, nil, nil)
	ctx := context.Background()
	g := pg.d.Game
	waitUntil(t, "the intake connected", func() bool {
		h, _ := g.IntakeHealth(ctx)
		return h.Up && h.Run == g.run.ID()
	})
	pg.p.StopIMAP()
	waitUntil(t, "the intake noticed the server down", func() bool { h, _ := g.IntakeHealth(ctx); return !h.Up })
	if err := g.DB.SetDeadline(ctx, "syw", 1, time.Now().Add(200*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	waitUntil(t, "the referee's outage notice sent to the provider", func() bool {
		for _, r := range allRows(t, g) {
			if r.Kind == MailOutage && r.SentAt.After(time.Time{}) {
				return true
			}
		}
		return false
	})
	s, err := g.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if text := s.Text(time.Now()); !strings.Contains(text, "Turn: HELD since") || !strings.Contains(text, "Intake: DOWN since") ||
		strings.Contains(text, "being resolved") {
		t.Errorf("the status while the turn is held:\n%s", text)
	}

	pg.p.StartIMAP()
	waits := pg.waitFor("referee@provider.test", subjectHas("Turn 1, April 1752 waits: the mail is not working"))
	if !strings.Contains(body(waits), "cannot read the game's mailbox") {
		t.Errorf("the outage notice:\n%s", body(waits))
	}
	back := pg.waitFor("referee@provider.test", subjectHas("Turn 1, April 1752: the mail works again"))
	if !strings.Contains(body(back), "it still waits for you") {
		t.Errorf("the notice that the mail works again:\n%s", body(back))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("turn 1 was resolved once the mail worked again, without the referee")
	}

	waitsID := header(waits, "Message-ID")
	reply := func() string {
		return pg.send("referee@provider.test", "Re: "+header(waits, "Subject"), refereeCommand("RESOLVE NOW"),
			"In-Reply-To: "+waitsID, "References: "+waitsID)
	}
	id := reply()
	ack := pg.waitFor("referee@provider.test", replyTo(id))
	if !strings.Contains(body(ack), "Turn 1, April 1752 (TURN 1) will be resolved now") ||
		!strings.Contains(body(ack), "it replies to pbem's mail") {
		t.Errorf("the answer to RESOLVE NOW in reply to the notice:\n%s", body(ack))
	}
	waitUntil(t, "turn 1 resolved", func() bool { rec, _ := g.DB.LatestTurn(ctx, "syw"); return rec.Turn == 1 })

	id = reply() // the same command again, after the turn was resolved
	ack = pg.waitFor("referee@provider.test", replyTo(id))
	if !strings.Contains(body(ack), "REFUSED: this mail is about Turn 1, April 1752") ||
		!strings.Contains(body(ack), "nothing was applied to the turn open now: Turn 2, May 1752") {
		t.Errorf("the answer to RESOLVE NOW after the turn was resolved:\n%s", body(ack))
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 1 {
		t.Errorf("the stale RESOLVE NOW resolved turn %d", rec.Turn)
	}
	if _, closed, _ := g.earlyClose(ctx, g.DB, 2); closed {
		t.Error("the stale RESOLVE NOW closed turn 2's orders")
	}
	if subs, _ := g.DB.SubmissionsOf(ctx, "syw", 2, "", KindResolveNow); len(subs) != 0 {
		t.Errorf("the stale RESOLVE NOW was recorded for turn 2: %+v", subs)
	}
}
