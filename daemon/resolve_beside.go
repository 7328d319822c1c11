package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/syw-pbem/pbem/internal/doorbell"
)

// RESOLVE NOW from the CLI ("pbem resolve", "pbem referee") beside a
// running "pbem run" on the same store. The command has committed the
// turn's close (referee_turn.go) before it gets here. Were it to resolve
// the turn in its own process as well, the two would resolve the same turn
// side by side on the same cores and one commit would be thrown away. So
// it rings the doorbell beside the store: a "pbem run" that hears it wakes
// its outbox and its turn runner, which finds the turn due and resolves
// it as at a deadline, and the command waits for that turn to be stored.
// Nobody listening (no "pbem run", or one serving a host's games), or the
// runner not done within handOverWait (a turn held while the mail server
// is down waits for the intake), the command resolves the turn itself, as
// it always could: ResolveOpen tells it when the runner won after all.

// handOverWait is how long the command leaves the turn to a running
// "pbem run" before resolving it itself.
const handOverWait = 15 * time.Second

// resolveAtOnce resolves turn (which the referee closed) now: by the
// running "pbem run" when one hears the bell, else here.
func (g *Game) resolveAtOnce(ctx context.Context, turn int) (string, error) {
	if g.ownDB && doorbell.Ring(doorbell.Beside(g.Config.StorePath())) {
		if line, ok := g.awaitResolved(ctx, turn, handOverWait); ok {
			return line, nil
		}
		g.Log.Warn("the running pbem run did not resolve the turn in time; resolving it here", "turn", turn, "waited", handOverWait)
	}
	return g.ResolveOpen(ctx, turn)
}

// awaitResolved waits until turn is stored as resolved (by another
// process), at most wait; it says so in the answer's words.
func (g *Game) awaitResolved(ctx context.Context, turn int, wait time.Duration) (string, bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	limit := time.NewTimer(wait)
	defer limit.Stop()
	for {
		if rec, err := g.DB.LatestTurnHead(ctx, g.ID()); err == nil && rec.Turn >= turn {
			return fmt.Sprintf("TURN %d was resolved by the running \"pbem run\", which is sending its reports now", turn), true
		}
		select {
		case <-ctx.Done():
			return "", false
		case <-limit.C:
			return "", false
		case <-tick.C:
		}
	}
}
