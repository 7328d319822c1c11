package daemon

import (
	"context"
	"errors"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
)

// KindForecast is a nation's standing FORECAST ON|OFF choice, kept as a
// submission of turn forecastChoiceTurn so that it holds for the nation's
// later sheets and turns; CanonicalText is "on" or "off".
const KindForecast = "forecast"

// forecastChoiceTurn is the turn the standing choice is filed under: no
// game's turn is 0, so the turn runner and the archive never read it.
const forecastChoiceTurn = 0

// withForecast adds the forecast of the nation's turn (forecast/) to the
// answer to its accepted sheet, when the nation's choice — the sheet's
// FORECAST line, else its last one, else game.forecast — says so: the
// section after the checker's text and the map of the planned paths as a
// PDF attachment. A sheet's FORECAST line is saved with the sheet
// (out.save). A refused or late sheet, the year-end and a forecast the
// engine cannot make leave the answer as it is (the last logged).
func (g *Game) withForecast(ctx context.Context, out *outcome, msg outbox.Message, m store.Mail, st *engine.State, nation game.NationID, r *parser.Report, late bool) outbox.Message {
	if r == nil || r.Refused || late {
		return msg
	}
	if r.Forecast != "" && out.save != nil {
		save, now := out.save, g.Now().UTC()
		out.save = func(ctx context.Context, tx *store.Tx) error {
			if err := save(ctx, tx); err != nil {
				return err
			}
			_, _, err := tx.SaveSubmission(ctx, store.Submission{GameID: g.ID(), Turn: forecastChoiceTurn, Nation: string(nation),
				Kind: KindForecast, MailID: m.ID, RawText: "FORECAST " + strings.ToUpper(r.Forecast),
				CanonicalText: r.Forecast, Valid: true, SubmittedAt: now})
			return err
		}
	}
	if !g.forecastOn(ctx, nation, r) {
		return msg
	}
	in := forecast.Input{Map: g.Map, Rules: g.Rules, View: engine.View(g.Map, g.Rules, st, nation), Orders: r.Orders}
	fc, err := forecast.Make(in)
	if err != nil {
		g.Log.Warn("no forecast for the answer", "nation", nation, "turn", st.Turn, "err", err)
		return msg
	}
	msg.Text += fc.Text(g.Map)
	if !fc.HasMoves() {
		return msg // a map without moves shows nothing the report does not
	}
	pdf, err := fc.PictureBytes(g.Map, g.Rules)
	if err != nil {
		g.Log.Warn("no forecast map for the answer", "nation", nation, "turn", st.Turn, "err", err)
		return msg
	}
	msg.Text += forecast.PictureNote(st.Turn)
	msg.Attachments = append(msg.Attachments, outbox.Attachment{Filename: forecast.PictureName(st.Turn), ContentType: "application/pdf", Data: pdf})
	return msg
}

// forecastOn is the nation's choice: its sheet's FORECAST line, else the
// last it sent, else the game's default.
func (g *Game) forecastOn(ctx context.Context, nation game.NationID, r *parser.Report) bool {
	if r.Forecast != "" {
		return r.Forecast == config.ForecastOn
	}
	s, err := g.DB.LatestSubmission(ctx, g.ID(), forecastChoiceTurn, string(nation), KindForecast)
	switch {
	case err == nil:
		return s.CanonicalText == config.ForecastOn
	case !errors.Is(err, store.ErrNotFound):
		g.Log.Warn("reading the nation's forecast choice", "nation", nation, "err", err)
	}
	return g.Config.Game.Forecast != config.ForecastOff
}
