package daemon

import (
	"context"
	"os"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// What "pbem status" needs to tell the truth about a running daemon, which
// it reads from the store alone: which run of "pbem run" is going (its
// process id, when it started, whether it stopped), and what the turn
// runner is doing with a due turn — waiting for mail that reached the
// server before the deadline, held by the mail-outage guard, waiting for
// the referee's table, resolving, or failing. Health records (the intake's,
// the outbox's) carry the run that wrote them, so a record of an earlier
// run is shown as such and never as this run's connection.

// runRecord is one run of "pbem run" (store.Run).
type runRecord struct {
	PID     int
	Host    string
	Started time.Time
	Stopped time.Time // zero while it runs (or if it was killed)
}

// ID names the run in health records: its start, to the nanosecond.
func (r runRecord) ID() string {
	if r.Started.IsZero() {
		return ""
	}
	return r.Started.UTC().Format(time.RFC3339Nano)
}

// startRun records that this process runs the game from now on.
func (g *Game) startRun(ctx context.Context) error {
	host, _ := os.Hostname()
	g.run = runRecord{PID: os.Getpid(), Host: host, Started: g.Now().UTC()}
	return g.DB.SaveRun(ctx, g.ID(), store.Run(g.run))
}

// stopRun records that this process stops running the game.
func (g *Game) stopRun(ctx context.Context) {
	if g.run.Started.IsZero() || g.DB == nil {
		return
	}
	r := g.run
	r.Stopped = g.Now().UTC()
	if err := g.DB.SaveRun(ctx, g.ID(), store.Run(r)); err != nil {
		g.Log.Warn("recording the end of the run failed", "err", err)
	}
}

// lastRun reads the last recorded run, and whether it is running now (not
// stopped, and its process alive on this machine).
func (g *Game) lastRun(ctx context.Context) (r runRecord, running bool, err error) {
	sr, ok, err := g.DB.LastRun(ctx, g.ID())
	if err != nil || !ok {
		return runRecord{}, false, err
	}
	r = runRecord(sr)
	host, _ := os.Hostname()
	running = r.Stopped.IsZero() && (r.Host != host || processAlive(r.PID))
	return r, running, nil
}

// What the turn runner is doing (runnerState.State).
const (
	runnerOpen       = "open"        // the turn's orders are open
	runnerNoDeadline = "no-deadline" // no deadline: the referee resolves the turn
	runnerCatchingUp = "catching-up" // closed: taking in the mail that reached the server before the close
	runnerHeld       = "held"        // closed: held by the mail-outage guard (outage.go)
	runnerTable      = "table"       // closed: waiting for the referee's tabletop results (tabletop.go)
	runnerResolving  = "resolving"   // being resolved
	runnerFailing    = "failing"     // resolving failed; tried again every turnRetry
	runnerOver       = "over"        // the game is over (gameover.go)
)

// runnerState is the turn runner's state as recorded for "pbem status":
// the run that wrote it (runRecord.ID), the turn, its state (the runner*
// constants, which the store's table lists), why, and since when.
type runnerState = store.TurnRunner

// noteRunner records the turn runner's state when it changed (a look that
// finds the same state writes nothing).
func (g *Game) noteRunner(ctx context.Context, turn int, state, why string) {
	g.runner.Lock()
	last := g.runner.last
	if last.Turn == turn && last.State == state && last.Why == why && last.Run == g.run.ID() && !last.Since.IsZero() {
		g.runner.Unlock()
		return
	}
	s := runnerState{Run: g.run.ID(), Turn: turn, State: state, Why: why, Since: g.Now().UTC()}
	if last.Turn == turn && last.State == state && last.Run == s.Run && !last.Since.IsZero() {
		s.Since = last.Since // the same state, another reason: still since then
	}
	g.runner.last = s
	g.runner.Unlock()
	if err := g.DB.SaveTurnRunner(ctx, g.ID(), s); err != nil && ctx.Err() == nil {
		g.Log.Warn("recording the turn runner's state failed", "err", err)
	}
}

// readRunner reads the turn runner's recorded state.
func (g *Game) readRunner(ctx context.Context) (runnerState, bool, error) {
	return g.DB.TurnRunner(ctx, g.ID())
}
