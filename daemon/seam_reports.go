package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
)

// The reports of a game played through the seam (seam.go). A campaign on
// an area map (campaign.AreaMapped) gets package reports' area report: the
// plain text as the mail's body and the PDF, with the map drawn with the
// nation's fog, attached. A campaign without one gets the plain list of
// its events.

// campaignReportMail is ReportMail for a game played through the seam.
func (g *Game) campaignReportMail(m TurnMail) (Mailed, error) {
	am, ok := g.seamOnly.(campaign.AreaMapped)
	if !ok || m.CampaignState == nil {
		_, text := plainTurnText(nil, m)
		subject := fmt.Sprintf("[%s] %s resolved: %s's report", m.GameID, m.TurnLabel, m.NationName)
		return Mailed{Subject: subject, Text: text}, nil
	}
	view, err := am.AreaView(m.CampaignState, m.Nation)
	if err != nil {
		return Mailed{}, err
	}
	r, err := reports.Area(reports.AreaInput{Map: am.AreaMap(), View: view, Nation: m.Nation, NationName: m.NationName,
		GameID: m.GameID, GameName: m.GameName, TurnLabel: m.TurnLabel, NextLabel: m.NextLabel, NextDeadline: m.NextDeadline,
		Zone: m.Zone, Events: m.Events, Rolls: m.Rolls, Starting: m.Starting, NMR: m.NMR, Rerun: m.Rerun, NMRNations: m.NMRNations})
	if err != nil {
		return Mailed{}, err
	}
	text := r.Text
	if m.Nation == engine.Referee && len(m.Sheets) > 0 {
		var b strings.Builder
		b.WriteString("\nSheets in force\n---------------\n")
		for _, s := range m.Sheets {
			fmt.Fprintf(&b, "%s: receipt %s\n", s.Nation, s.Receipt)
		}
		text += b.String()
	}
	return Mailed{Subject: r.Subject, Text: text,
		Attachments: []outbox.Attachment{{Filename: r.File, ContentType: "application/pdf", Data: r.PDF}}}, nil
}

// CampaignReport builds a nation's report of a stored turn (engine.Referee:
// the referee's; turn < 0: the latest resolved, 0: the opening) as it was
// mailed, for a game played through the seam on an area map ("pbem
// report").
func (g *Game) CampaignReport(ctx context.Context, turn int, n game.NationID) (*reports.AreaReport, error) {
	am, ok := g.seamOnly.(campaign.AreaMapped)
	if !ok {
		return nil, fmt.Errorf("game %s is not played on an area map through the campaign seam", g.ID())
	}
	var rec store.TurnRecord
	var err error
	if turn < 0 {
		rec, err = g.DB.LatestTurn(ctx, g.ID())
	} else {
		rec, err = g.DB.Turn(ctx, g.ID(), turn)
	}
	if err != nil {
		return nil, err
	}
	cs, err := g.campaignStateOf(rec)
	if err != nil {
		return nil, err
	}
	var events []engine.Event
	if len(rec.EventLog) > 0 {
		all, err := engine.UnmarshalEvents(rec.EventLog)
		if err != nil {
			return nil, fmt.Errorf("the stored events of turn %d: %w", rec.Turn, err)
		}
		events = engine.EventsFor(all, n)
	}
	var rolls []engine.Roll
	if n == engine.Referee && len(rec.Dice) > 0 {
		if err := json.Unmarshal(rec.Dice, &rolls); err != nil {
			return nil, fmt.Errorf("the stored dice of turn %d: %w", rec.Turn, err)
		}
	}
	view, err := am.AreaView(cs, n)
	if err != nil {
		return nil, err
	}
	name := g.nationName(n)
	if n == engine.Referee {
		name = "Referee"
	}
	deadline, _ := g.turnDeadline(ctx, cs.TurnNumber())
	label := cs.TurnLabel()
	if rec.Turn > 0 {
		label = g.labelOf(nil, rec.Turn)
	}
	return reports.Area(reports.AreaInput{Map: am.AreaMap(), View: view, Nation: n, NationName: name, GameID: g.ID(),
		GameName: g.Config.Game.Name, TurnLabel: label, NextLabel: cs.TurnLabel(), NextDeadline: deadline, Zone: g.Zone,
		Events: events, Rolls: rolls, Starting: rec.Turn == 0})
}
