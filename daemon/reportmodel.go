package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
)

// A nation's report is a function of the archive. The report of turn n
// tells the nation what it sees after the turn — engine.View of the state
// stored with turn n, engine.EventsFor of the turn's stored events — and
// carries two things from the reports before it: last-seen intelligence
// (foreign forces scouted in an earlier turn and not seen now) and the
// treasury brought forward. Both are folded from the opening, report by
// report, out of the stored states and events of the turns in force
// (carriedReport), so nothing of a report is stored: any turn's report can
// be built again from the archive alone (RebuildReport), and the one mailed
// is that (TestReportsRebuiltFromTheArchive, in package demo, rebuilds
// every report of the demo's year and compares it with the mail, byte for
// byte).

// carriedReport returns nation's report model of turn (0: the starting
// report) as the next report reads it (reports.Input.Previous): rebuilt from
// the stored states and events of turns 0 to turn, each report from the one
// before (carriedReports).
func (g *Game) carriedReport(ctx context.Context, turn int, nation game.NationID) (*reports.Model, error) {
	mds, err := g.carriedReports(ctx, turn, []game.NationID{nation})
	if err != nil {
		return nil, err
	}
	return mds[0], nil
}

// carriedReports is carriedReport for several nations at once: each turn's
// state is read once, and the nations' reports of it are built side by
// side. Only what a report carries forward is built in full (the foreign
// forces seen, last-seen intelligence, the treasury); the rest of each
// report — narratives, ledger lines, rulings, the deadline — is left out, as
// no later report reads it.
//
// The last report folded for each nation is kept in memory with the
// versions of the turn records it was folded from, so that the next turn's
// report folds one turn more, not the whole game again; a record set aside
// or resolved again since (a rollback, a rerun) makes it fold from there.
func (g *Game) carriedReports(ctx context.Context, turn int, nations []game.NationID) ([]*reports.Model, error) {
	heads, err := g.DB.TurnsInForce(ctx, g.ID())
	if err != nil {
		return nil, err
	}
	if turn < 0 || turn >= len(heads) {
		return nil, fmt.Errorf("turn %d of game %s has not been resolved", turn, g.ID())
	}
	chain := make([]int, turn+1)
	for k := range chain {
		if heads[k].Turn != k {
			return nil, fmt.Errorf("game %s has no turn %d in force", g.ID(), k)
		}
		chain[k] = heads[k].Version
	}
	prev := make([]*reports.Model, len(nations))
	start := make([]int, len(nations))
	from := turn + 1
	g.folded.Lock()
	for i, n := range nations {
		if f, ok := g.folded.last[n]; ok && len(f.chain) <= len(chain) && slices.Equal(f.chain, chain[:len(f.chain)]) {
			start[i], prev[i] = len(f.chain), f.model
		}
		from = min(from, start[i])
	}
	g.folded.Unlock()
	for k := from; k <= turn; k++ {
		st, events, _, err := archivedTurn(ctx, g.DB, g.ID(), k)
		if err != nil {
			return nil, err
		}
		errs := make([]error, len(nations))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))
		for i, n := range nations {
			if start[i] > k {
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				defer func() { // hosted.go: a panic fails the turn, not the process
					if p := recover(); p != nil {
						errs[i] = panicError(p)
					}
				}()
				md, err := reports.Build(reports.Input{Map: g.Map, Rules: g.Rules, State: st, Events: events, Nation: n,
					Previous: prev[i], Narrate: noNarratives, Ledger: noLedger})
				if err == nil {
					prev[i], err = asRead(md)
				}
				if err != nil {
					errs[i] = fmt.Errorf("rebuilding %s's report of turn %d: %w", n, k, err)
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	g.folded.Lock()
	if g.folded.last == nil {
		g.folded.last = map[game.NationID]foldedReport{}
	}
	for i, n := range nations {
		g.folded.last[n] = foldedReport{chain: chain, model: prev[i]}
	}
	g.folded.Unlock()
	return prev, nil
}

// foldedReport is a nation's report as carriedReport last folded it, and
// the versions of the turn records 0, 1, … it was folded from. The model
// is never changed (reports.Build only reads Previous).
type foldedReport struct {
	chain []int
	model *reports.Model
}

// noNarratives and noLedger stand for the narratives and the ledger lines
// of a report that only carries forward (carriedReport).
func noNarratives(*hexmap.Map, game.NationID, []engine.Event) []reports.Narrative { return nil }
func noLedger(*hexmap.Map, game.NationID, []engine.Event) []reports.LedgerLine    { return nil }

// asRead returns the model as a reader of its JSON gets it (the report's
// JSON attachment), so that a report reads the one before it exactly as a
// program reading the mails would.
func asRead(md *reports.Model) (*reports.Model, error) {
	js, err := reports.JSON(md)
	if err != nil {
		return nil, err
	}
	var out reports.Model
	if err := json.Unmarshal(js, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// previousReports are TurnMail.Previous for the nations' reports of
// turn: each nation's report of the turn before as JSON, rebuilt from the
// archive; none before the first turn.
func (g *Game) previousReports(ctx context.Context, turn int, nations []game.NationID) ([][]byte, error) {
	out := make([][]byte, len(nations))
	if turn < 1 || len(nations) == 0 {
		return out, nil
	}
	mds, err := g.carriedReports(ctx, turn-1, nations)
	if err != nil {
		return nil, err
	}
	for i, md := range mds {
		if out[i], err = reports.JSON(md); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RebuildReport builds nation's report of turn (0: the starting report)
// again from the archive alone, as it was mailed: the state and events
// stored with the turn, the reports before it (carriedReport), the turn's
// rulings and sheets in force (whether the nation sent none), the deadline
// the next turn opened with, whether the turn was resolved again (its
// record's version) and whether it ended the game. A deadline or a ruling
// changed after the turn was resolved is read as it stands now.
func (g *Game) RebuildReport(ctx context.Context, turn int, nation game.NationID) (*reports.Model, error) {
	st, events, rec, err := archivedTurn(ctx, g.DB, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	m := TurnMail{GameID: g.ID(), GameName: g.Config.Game.Name, Nation: nation, NationName: g.nationName(nation), Turn: turn,
		TurnLabel: st.Calendar.Label(turn), State: st, Events: engine.EventsFor(events, nation), Zone: g.Zone,
		NextTurn: turn + 1, NextLabel: st.Calendar.Label(turn + 1), Starting: turn == 0, Rerun: rec.Version > 1}
	if turn == 0 {
		m.TurnLabel, m.NextTurn, m.NextLabel = st.Calendar.Label(st.Turn), st.Turn, st.Calendar.Label(st.Turn)
	}
	// The deadline the next turn opened with: the schedule's, as the turn
	// runner stored it with the turn; a deadline set by the referee later
	// has no schedule's, and is read as it stands.
	switch d, err := g.DB.TurnDeadline(ctx, g.ID(), m.NextTurn); {
	case err == nil && !d.Scheduled.IsZero():
		m.NextDeadline = d.Scheduled.In(g.Zone)
	case err == nil:
		m.NextDeadline = d.At.In(g.Zone)
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	if turn > 0 {
		if g.gameOver(st) != nil {
			m.GameOver, m.NextDeadline = g.victorySentence(st, st.Victory), time.Time{}
		}
		if m.Rulings, err = g.reportRulings(ctx, turn); err != nil {
			return nil, err
		}
		if m.NMR, err = g.sentNone(ctx, turn, nation); err != nil {
			return nil, err
		}
		prev, err := g.previousReports(ctx, turn, []game.NationID{nation})
		if err != nil {
			return nil, err
		}
		m.Previous = prev[0]
	}
	in, err := g.nationInput(m)
	if err != nil {
		return nil, err
	}
	return reports.Build(in)
}

// sentNone reports whether nation had no sheet in force for turn and
// played it (not eliminated in the state it was resolved from): it held on
// DEFEND (NMR).
func (g *Game) sentNone(ctx context.Context, turn int, nation game.NationID) (bool, error) {
	before, _, _, err := archivedTurn(ctx, g.DB, g.ID(), turn-1)
	if err != nil {
		return false, err
	}
	ns, ok := before.Nation(nation)
	if !ok || ns.Eliminated {
		return false, nil
	}
	orders, err := g.SheetsInForce(ctx, turn)
	if err != nil {
		return false, err
	}
	for _, o := range orders {
		if o.Nation == nation {
			return false, nil
		}
	}
	return true, nil
}

// nationInput is what a nation's report of m is built from: the turn runner
// mails it (ReportMail), and RebuildReport builds it again.
func (g *Game) nationInput(m TurnMail) (reports.Input, error) {
	var prev *reports.Model
	if len(m.Previous) > 0 {
		prev = new(reports.Model)
		if err := json.Unmarshal(m.Previous, prev); err != nil {
			return reports.Input{}, fmt.Errorf("the previous report of %s cannot be read: %w", m.Nation, err)
		}
	}
	var notes []string
	if m.Rerun {
		notes = append(notes, "The referee had this turn resolved again after a correction. This report replaces the one sent earlier for it.")
	}
	if m.GameOver != "" {
		notes = append(notes, "The game is over: "+m.GameOver+" No more orders are taken.")
	}
	if m.NMR {
		notes = append(notes, "No orders from you were in force at the deadline (NMR): every one of your land forces held in place on DEFEND, and nothing else was done for you this turn.")
	}
	return reports.Input{Map: g.Map, Rules: g.Rules, State: m.State, Events: m.Events, Nation: m.Nation,
		GameName: m.GameName, Deadline: m.NextDeadline, Zone: m.Zone, Rulings: m.Rulings, Previous: prev, Notes: notes,
		Narrate: g.Narrate, Ledger: g.Ledger}, nil
}
