package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// BenchmarkResolveNowByMail measures, on the default game with every
// nation's mailbox on the embedded server, the referee's RESOLVE NOW by
// mail: from the mail handed to the embedded SMTP server to every report
// of the turn (five nations and the referee) accepted by it — the intake's
// wake-up, the command's decision and commit, the turn runner's resolution
// and the outbox's sending. Each iteration resolves the next turn. Figure
// in README's table and docs/turns.md.
func BenchmarkResolveNowByMail(b *testing.B) {
	d, _ := startGame(b, b.TempDir(), killConfig)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for i := 0; b.Loop(); i++ {
		turn := i + 1
		raw := fmt.Sprintf("From: referee@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: resolve\r\n"+
			"Message-ID: <bench-resolve-%d@x>\r\n\r\nPASSWORD %s\r\nTURN %d\r\nRESOLVE NOW\r\n", turn, refereePassword, turn)
		if err := mailserver.SendAs(ctx, d.Mail.SMTPAddr(), loginFor("referee@pbem.localhost"), "referee@pbem.localhost",
			[]string{"orders@pbem.localhost"}, []byte(raw)); err != nil {
			b.Fatal(err)
		}
		awaitReportsSent(b, d, turn, time.Minute)
	}
}

// awaitReportsSent waits until turn is stored and none of its reports is
// still waiting to be sent, at most limit. Only the few unsent rows are
// read: reading every sent report each time would cost more than the turn.
func awaitReportsSent(tb testing.TB, d *Daemon, turn int, limit time.Duration) {
	tb.Helper()
	ctx := context.Background()
	prefix := fmt.Sprintf("<syw.t%d.", turn)
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > limit {
			tb.Fatalf("turn %d: reports not all sent %v after the RESOLVE NOW", turn, limit)
		}
		rec, err := d.Game.DB.LatestTurnHead(ctx, "syw")
		if err != nil {
			tb.Fatal(err)
		}
		if rec.Turn < turn {
			continue
		}
		n := 0
		for _, st := range []store.OutboxState{store.OutboxPending, store.OutboxSending} {
			rows, err := d.Game.DB.MessagesInState(ctx, st)
			if err != nil {
				tb.Fatal(err)
			}
			for _, r := range rows {
				if (r.Kind == MailReport || r.Kind == MailRefereeReport) && strings.HasPrefix(r.MessageID, prefix) {
					n++
				}
			}
		}
		if n == 0 {
			return
		}
	}
}
