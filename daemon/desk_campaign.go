package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
)

// The desk of a game played through the campaign seam (seam.go: the
// Trossian campaign), whose Map and Rules are nil. It shows what applies to
// such a game — the open turn and its deadline, each kingdom's sheet
// checked by the campaign's own checker, the battles waiting on the table
// with their sheets and the RESULT block to answer, the referee's RULE
// lines recorded for the turn, the reports (the campaign's PDFs, the map
// drawn in them) — and says which referee commands the game does not take
// and why (DeskView.Refuses), so that the console offers only those it
// takes.

// deskRefusals are the registry's commands the game does not take, with
// the reason (seamRefusal): for an SYW game only RULE, a campaign's ruling.
func (g *Game) deskRefusals() map[string]string {
	if g.seamOnly == nil {
		return map[string]string{"rule": "RULE is for the games of a campaign played through the seam (the Trossian campaign); " +
			"an SYW ruling answers a player's request (APPROVE) or a treaty (BREACH, LIFT)"}
	}
	out := map[string]string{}
	for _, k := range refereeKinds {
		if err := g.seamRefusal(k.verb()); err != nil {
			out[k.verb()] = err.Error()
		}
	}
	return out
}

// sheetProblems checks a sheet in force again, as its mail was: with the
// SYW checker, or the campaign's for a game played through the seam; it
// returns the errors and warnings, each with its line.
func (g *Game) sheetProblems(ctx context.Context, st *engine.State, nation, raw string) ([]string, error) {
	var diags []parser.Diagnostic
	if g.seamOnly != nil {
		cs, err := g.CampaignState(ctx)
		if err != nil {
			return nil, err
		}
		diags = g.Campaign.Check(raw, campaign.CheckContext{State: cs, Game: g.ID(), Nation: game.NationID(nation), Zone: g.Zone}).Diagnostics
	} else {
		diags = parser.Check(raw, parser.CheckContext{Map: g.Map, Rules: g.Rules, State: st, Game: g.ID(),
			Nation: game.NationID(nation), Turn: st.Turn, Zone: g.Zone}).Diagnostics
	}
	var out []string
	for _, dg := range diags {
		if dg.Severity == parser.Note {
			continue
		}
		line := fmt.Sprintf("%s: %s", dg.Severity, dg.Message)
		if dg.Line > 0 {
			line = fmt.Sprintf("line %d: %s", dg.Line, line)
		}
		out = append(out, line)
	}
	return out, nil
}

// campaignDeskBattles gives the battles of a game played through the seam
// that still wait for a result their sheet, as mailed to the referee, and
// the RESULT block it ends with, to fill in.
func (g *Game) campaignDeskBattles(ctx context.Context, out []DeskBattle) error {
	sheets, err := g.AwaitingBattles(ctx)
	if err != nil {
		return err
	}
	for i := range out {
		for _, s := range sheets {
			if !out[i].Result && s.Key == out[i].Hex {
				out[i].Sheet = s.Text
				if at := strings.LastIndex(s.Text, "\nRESULT "); at >= 0 {
					out[i].Answer = s.Text[at+1:]
				}
			}
		}
	}
	return nil
}

// deskRulings are the referee's RULE lines recorded for the open turn of a
// game played through the seam, as written.
func (g *Game) deskRulings(ctx context.Context, turn int) ([]string, error) {
	if g.seamOnly == nil {
		return nil, nil
	}
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range subs {
		if s.Kind == KindCampaignRuling && s.Valid {
			out = append(out, s.RawText)
		}
	}
	return out, nil
}

// campaignDeskReport is DeskReport for a game played through the seam:
// the report as it was mailed (the campaign's PDF, its map drawn with the
// nation's fog, or every force in the referee's).
func (g *Game) campaignDeskReport(ctx context.Context, turn int, nation string) ([]byte, error) {
	n := game.NationID(nation)
	if nation == "referee" {
		n = engine.Referee
	} else if !g.hasNation(n) {
		return nil, fmt.Errorf("%w: %q is not a nation of game %s", ErrNoReport, nation, g.ID())
	}
	r, err := g.CampaignReport(ctx, turn, n)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: game %s has no turn %d", ErrNoReport, g.ID(), turn)
	}
	if err != nil {
		return nil, err
	}
	return r.PDF, nil
}

// errNoMapImage is DeskMapSVG's answer for a game whose map is drawn only
// in its reports' PDFs.
func (g *Game) errNoMapImage() error {
	return fmt.Errorf("%w: the %s campaign's map is drawn in its reports' PDFs only, not as an image", ErrNoReport, g.rulesetID())
}
