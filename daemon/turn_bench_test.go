package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// BenchmarkDeadlineToReports measures, on the default game with every
// nation's mailbox on the embedded server, the time from a turn's deadline
// to every report (five nations and the referee) handed to SMTP and
// accepted: the turn runner's wake-up, the decision, the commit and the
// outbox's sending. Each iteration resolves the next turn. Figure in
// docs/turns.md.
func BenchmarkDeadlineToReports(b *testing.B) {
	d, _ := startGame(b, b.TempDir(), killConfig)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	g := d.Game
	for i := 0; b.Loop(); i++ {
		turn := i + 1
		if err := g.DB.SetDeadline(ctx, "syw", turn, time.Now().Add(time.Millisecond), 0); err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		g.WakeTurns()
		// Done when the turn is committed and none of its reports is
		// still waiting to be sent (they are committed with the turn).
		// Only the few unsent rows are read: reading every sent report
		// each time would cost more than the turn.
		prefix := fmt.Sprintf("<syw.t%d.", turn)
		for {
			time.Sleep(10 * time.Millisecond)
			rec, err := g.DB.LatestTurn(ctx, "syw")
			if err != nil {
				b.Fatal(err)
			}
			if rec.Turn < turn {
				continue
			}
			n := 0
			for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending} {
				rows, err := g.DB.MessagesInState(ctx, st)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rows {
					if (r.Kind == MailReport || r.Kind == MailRefereeReport) && strings.HasPrefix(r.MessageID, prefix) {
						n++
					}
				}
			}
			if n == 0 {
				break
			}
		}
	}
}

// BenchmarkResolveTurn measures the turn runner's own work for one turn of
// the default game — reading the stored orders, resolving, building the six
// mails, and the one commit — without mail.
func BenchmarkResolveTurn(b *testing.B) {
	d, _ := startGame(b, b.TempDir(), nil)
	defer d.Close()
	ctx := context.Background()
	for b.Loop() {
		if err := d.Game.ResolveTurn(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
