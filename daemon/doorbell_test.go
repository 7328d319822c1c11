package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/doorbell"
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
	awaitBell(b, d)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		resolveBeside(b, d, i+1, time.Minute)
	}
}

// TestResolveBesideRunLeavesTheTurnToIt: "pbem resolve" beside a running
// "pbem run" closes the turn and leaves the resolving to the running
// process, which the bell wakes: the turn is resolved once, by the runner,
// and the command says so. Without a "pbem run" the command resolves it.
func TestResolveBesideRunLeavesTheTurnToIt(t *testing.T) {
	t.Parallel()
	// The reports' PDFs are not the point: plain-text mails.
	d, _ := startGameWith(t, t.TempDir(), killConfig, &Options{TurnMailer: PlainTurnMail})
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	awaitBell(t, d)
	cli, err := Open(context.Background(), d.Game.Config, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	line, err := cli.RunReferee(context.Background(), refcmd.ResolveNow{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `resolved by the running "pbem run"`) {
		t.Errorf("pbem resolve beside pbem run answered %q, want it to say the running pbem run resolved the turn", line)
	}
	rec, err := d.Game.DB.LatestTurnHead(context.Background(), d.Game.ID())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Turn != 1 || rec.Version != 1 {
		t.Errorf("the latest turn is %d version %d, want turn 1 resolved once (version 1)", rec.Turn, rec.Version)
	}
}

// awaitBell waits until the running daemon d listens at its doorbell (a
// ring heard wakes its outbox and turn runner, who find nothing to do).
func awaitBell(tb testing.TB, d *Daemon) {
	tb.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if doorbell.Ring(doorbell.Beside(d.Game.Config.StorePath())) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatal("the running daemon made no doorbell in 10 s")
		}
	}
}
