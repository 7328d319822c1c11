package daemon

import (
	"context"
	"errors"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/reportmail"
	"github.com/syw-pbem/pbem/store"
)

// Starting reports. When a game is created every nation is mailed its
// starting report — the report of the opening position: its forces,
// leaders, depots and fleets with their IDs, the treasury, the first
// deadline and the order template — and the referee the master report of
// the opening. They go once: the mails and a mark
// (store.MarkStartReportsQueued) are written in one transaction, each mail
// under a Message-ID made from the game, turn 0, the nation and the kind;
// Ensure queues them after
// creating the game, and the daemon's start queues them if a crash (or an
// older pbem) left a game at its opening without them.

// MailStartReport is the outbox kind of a starting report.
const MailStartReport = reportmail.KindStartReport

// SendStartReports queues the starting reports if the game is at its
// opening and they have not been queued yet. It reports whether it queued
// them.
func (g *Game) SendStartReports(ctx context.Context) (bool, error) {
	if done, err := g.DB.StartReportsQueued(ctx, g.ID()); err != nil || done {
		return false, err
	}
	rec, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return false, err
	}
	if rec.Turn != 0 {
		return false, nil // the game is under way: the turn reports carry it
	}
	st, err := g.decoded(rec)
	if err != nil {
		return false, err
	}
	deadline, err := g.turnDeadline(ctx, st.Turn)
	if err != nil {
		return false, err
	}
	if err := g.TreatiesInto(ctx, st); err != nil {
		return false, err
	}
	now := rec.ResolvedAt
	if now.IsZero() {
		now = g.Now()
	}
	tm := TurnMail{GameID: g.ID(), GameName: g.Config.Game.Name, TurnLabel: g.labelOf(st, st.Turn), State: st,
		Starting: true, NextTurn: st.Turn, NextLabel: g.labelOf(st, st.Turn), NextDeadline: deadline, Zone: g.Zone}
	if g.seamOnly != nil { // seam.go: the campaign's state, for its reports
		if tm.CampaignState, err = g.campaignStateOf(rec); err != nil {
			return false, err
		}
	}
	var rs []recipient
	for _, id := range g.Config.NationIDs() {
		n := game.NationID(id)
		if to := g.registered(n); to != "" {
			m := tm
			m.Nation, m.NationName = n, g.nationName(n)
			rs = append(rs, recipient{tm: m, kind: MailStartReport, who: id, to: to})
		}
	}
	if ref := g.Config.Game.Referee; ref != "" {
		m := tm
		m.Nation, m.NationName = engine.Referee, "Referee"
		rs = append(rs, recipient{tm: m, kind: MailStartReport, who: "referee", to: ref})
	}
	built, err := g.buildMails(rs)
	if err != nil {
		return false, err
	}
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if done, err := tx.StartReportsQueued(ctx, g.ID()); err != nil || done {
			if err == nil {
				err = errStartReportsSent
			}
			return err
		}
		for i, r := range rs {
			msg := g.message(r.kind, r.who, 0, "start", []string{r.to}, built[i].Subject, built[i].Text, now)
			msg.Attachments = built[i].Attachments
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.MarkStartReportsQueued(ctx, g.ID(), g.Now())
	})
	if errors.Is(err, errStartReportsSent) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	g.Log.Info("starting reports queued", "game", g.ID(), "mails", len(rs))
	return true, nil
}

var errStartReportsSent = errors.New("the starting reports were queued already")
