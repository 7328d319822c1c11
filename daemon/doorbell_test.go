package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// resolveBeside runs the referee's RESOLVE NOW as "pbem resolve" does —
// through a Game of its own on the store of the running daemon d — and
// returns how long it took until every report of the turn (five nations
// and the referee) was accepted by the embedded SMTP server: the
// resolution, the commit, the doorbell and the daemon's outbox sending. It
// fails if that takes longer than limit.
func resolveBeside(tb testing.TB, d *Daemon, turn int, limit time.Duration) time.Duration {
	tb.Helper()
	ctx := context.Background()
	cli, err := Open(ctx, d.Game.Config, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	defer cli.Close()
	start := time.Now()
	if _, err := cli.RunReferee(ctx, refcmd.ResolveNow{}, turn); err != nil {
		tb.Fatal(err)
	}
	prefix := fmt.Sprintf("<syw.t%d.", turn)
	for {
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
		took := time.Since(start)
		if n == 0 {
			return took
		}
		if took > limit {
			tb.Fatalf("turn %d: %d reports still unsent %v after pbem resolve (the outbox polls every %v: was it woken?)", turn, n, took, outbox.DefaultPollInterval)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pbem resolve beside a running pbem run: its reports go out at once, the
// outbox woken by the doorbell beside the store rather than at its next
// poll (10 s). The bound is generous (half the poll) so that a loaded
// machine does not fail it; BenchmarkResolveBesideRun gives the figure.
func TestResolveBesideRunWakesTheOutbox(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), killConfig)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	resolveBeside(t, d, 1, outbox.DefaultPollInterval/2)
}

// BenchmarkResolveBesideRun measures "pbem resolve" beside a running "pbem
// run" on the default game: from the referee's RESOLVE NOW to every report
// (five nations and the referee) accepted by the embedded SMTP server.
// Each iteration resolves the next turn.
func BenchmarkResolveBesideRun(b *testing.B) {
	d, _ := startGame(b, b.TempDir(), killConfig)
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		resolveBeside(b, d, i+1, time.Minute)
	}
}
