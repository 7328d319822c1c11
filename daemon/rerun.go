package daemon

import (
	"bytes"
	"context"
	"fmt"

	"github.com/syw-pbem/pbem/store"
)

// RERUN: the referee has the last turn resolved again, from the state
// before it, the sheets in force for it, and its own dice — after a
// correction of its inputs. Unchanged inputs give the same bytes, and then
// nothing is written or sent. Otherwise the turn's record is voided (kept
// for audit), the new result saved as the next version, and every nation
// and the referee mailed a corrected report under a new Message-ID; the
// next turn stays open with its deadline. Sheets already sent for the next
// turn stay in force: orders that no longer fit the corrected position are
// left out by the engine with an OrderIgnored event.

// decideRerun works out the rerun of turn n, writing nothing. unchanged is
// set when it gives the same state, events and dice as the record in force.
func (g *Game) decideRerun(ctx context.Context, n int) (out turnOutcome, unchanged bool, err error) {
	latest, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return turnOutcome{}, false, err
	}
	if latest.Turn != n || latest.Status != store.TurnResolved {
		st, err := g.decoded(latest)
		if err != nil {
			return turnOutcome{}, false, err
		}
		if latest.Status != store.TurnResolved {
			return turnOutcome{}, false, fmt.Errorf("no turn has been resolved yet (%s is open)", st.Calendar.Label(st.Turn))
		}
		return turnOutcome{}, false, fmt.Errorf("only the last turn resolved, turn %d (%s), can be run again",
			latest.Turn, st.Calendar.Label(latest.Turn))
	}
	from, err := g.DB.Turn(ctx, g.ID(), n-1)
	if err != nil {
		return turnOutcome{}, false, err
	}
	out, err = g.decideFrom(ctx, from, latest, latest.Version)
	if err != nil {
		return turnOutcome{}, false, err
	}
	unchanged = bytes.Equal(out.rec.State, latest.State) && bytes.Equal(out.rec.EventLog, latest.EventLog) &&
		bytes.Equal(out.rec.Dice, latest.Dice)
	return out, unchanged, nil
}
