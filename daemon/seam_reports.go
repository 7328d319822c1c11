package daemon

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
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
