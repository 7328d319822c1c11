//go:build unix

package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// TestDeadlineSetThenRestart (issue 28, case 2): the referee sets the
// deadline two hours ahead — the reminders go out at once, dated now and
// saying how long is left — then three minutes ahead — no reminder, too
// late to act on one; pbem is stopped (SIGTERM) and started again; at the
// deadline (a test clock put forward) the turn resolves: no reminder
// backdated to 24 hours before a deadline, none queued ahead of older mail,
// no hold, and the referee gets no outage notice.
func TestDeadlineSetThenRestart(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	pg := newProvGame(t, nil, clock)
	ctx := context.Background()
	g := pg.d.Game

	soon := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second)
	id := pg.send("referee@provider.test", "deadline", refereeCommand("DEADLINE SET "+soon.Format("2006-01-02T15:04:05")+" UTC"))
	ack := pg.waitFor("referee@provider.test", replyTo(id))
	if !strings.Contains(body(ack), "the deadline of Turn 1, April 1752 is now") {
		t.Fatalf("the answer to DEADLINE SET:\n%s", body(ack))
	}
	reminder := pg.waitFor("eisenmark@provider.test", subjectHas("Reminder"))
	if !strings.Contains(header(reminder, "Subject"), "due in 2 hours") || !strings.Contains(body(reminder), "in 2 hours") {
		t.Errorf("the reminder two hours before the deadline:\n%s\n%s", header(reminder, "Subject"), body(reminder))
	}
	sent, err := time.Parse(time.RFC1123Z, header(reminder, "Date"))
	if err != nil || sent.Before(time.Now().Add(-time.Minute)) {
		t.Errorf("the reminder is dated %q, not when it was sent (%v)", header(reminder, "Date"), err)
	}

	closer := time.Now().Add(3 * time.Minute).UTC().Truncate(time.Second)
	id = pg.send("referee@provider.test", "deadline", refereeCommand("DEADLINE SET "+closer.Format("2006-01-02T15:04:05")+" UTC"))
	pg.waitFor("referee@provider.test", replyTo(id))
	waitUntil(t, "the new deadline stored", func() bool {
		d, err := g.TurnDeadline(ctx, 1)
		return err == nil && d.Equal(closer)
	})
	pg.stop() // SIGTERM
	pg.start()
	g = pg.d.Game
	clock.Advance(time.Until(closer) + 5*time.Second)
	g.WakeTurns()
	waitUntil(t, "turn 1 resolved at its deadline after the restart", func() bool {
		rec, err := g.DB.LatestTurn(ctx, "syw")
		return err == nil && rec.Turn == 1
	})
	pg.waitFor("referee@provider.test", func(m string) bool {
		return subjectHas("resolved: referee's summary")(m) && strings.Contains(body(m), "(TURN 2)")
	})

	var reminders int
	for _, r := range allRows(t, g) {
		switch r.Kind {
		case MailOutage:
			t.Errorf("the referee was told the turn waits:\n%s", body(string(r.Raw)))
		case MailReminder:
			reminders++
			if r.Priority != store.OutboxNotice {
				t.Errorf("a reminder has priority %d, want a notice's", r.Priority)
			}
			if r.CreatedAt.Before(soon.Add(-2*time.Hour - time.Minute)) {
				t.Errorf("a reminder was queued as of %v, backdated before the DEADLINE SET", r.CreatedAt)
			}
		}
	}
	if reminders != 5 {
		t.Errorf("%d reminders, want 5 (one per nation, for the two-hour deadline only)", reminders)
	}
	if r, ok, _ := g.readRunner(ctx); ok && r.State == runnerHeld {
		t.Errorf("the turn runner recorded a hold: %+v", r)
	}
	if _, held, _ := g.heldTurn(ctx, 1, closer); held {
		t.Error("turn 1 was held")
	}
}
