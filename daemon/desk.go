package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
)

// The referee's desk: what the web console (package console) reads and
// does. It reads what "pbem status" reads (Status) and a little more — each
// nation's sheet as understood, its errors and NMR streak, the battle
// sheets waiting on the table, the treaties, the mail queues, the reports of
// a resolved turn — and does nothing of its own: every act is referee
// commands written as in a mail and run by RunRefereeText, through the
// registry (referee.go), so the console, the CLI and the mail cannot drift.
// Each act is logged as a referee's mail is (who, when, what, the answer),
// to the log and to the store, where the console shows the last ones.

// DeskView is the game as the referee's console shows it.
type DeskView struct {
	*Status
	Now      time.Time
	LastTurn int // the last turn resolved (0: only the opening position)
	Sheets   []DeskSheet
	Battles  []DeskBattle
	Treaties []game.Treaty
	Failed   []DeskMail // outbox mails given up on
	Held     []DeskMail // received mails quarantined
	Log      []DeskEntry
	// TurnNote and Health are what "pbem status" says of the open turn
	// (closed early, held, waiting) and of the mail's health.
	TurnNote, Health string
	// Refuses are the referee commands (by the registry's verb: approve,
	// breach, preview, rollback, battle …) the game does not take, each
	// with the reason: for an SYW game only RULE (a campaign's ruling); a
	// game of another campaign (desk_campaign.go) takes what the campaign
	// seam lets it.
	Refuses map[string]string
	// Rulings are the referee's RULE lines recorded for the open turn (a
	// campaign's rulings; an SYW game's rulings answer its Requests).
	Rulings []string
	// MapImage says whether DeskMapSVG draws the game's map; when false,
	// the map is in the reports' PDFs only.
	MapImage bool
	// ResultForm says whether a tabletop result is written with the SYW
	// RESULT form's fields (OUTCOME, WINNER, LOSSES, HITS, GENERAL, GUNS,
	// DAYS); otherwise it is the RESULT block at the end of the battle's
	// sheet (DeskBattle.Answer), filled in.
	ResultForm bool
}

// Takes reports whether the game takes the referee command verb.
func (v *DeskView) Takes(verb string) bool { _, refused := v.Refuses[verb]; return !refused }

// DeskSheet is one nation's orders for the open turn.
type DeskSheet struct {
	NationStatus
	From     string   // the address the sheet in force came from ("" typed in, or none)
	Orders   string   // the sheet in force as the checker understood it (canonical)
	Problems []string // the sheet in force's errors and warnings, checked again now
	Refused  int      // sheets refused this turn
	NMR      int      // turns in a row before this one the nation sent no orders
}

// DeskBattle is a battle of the open turn on the referee's table, with the
// sheet the referee fights it from.
type DeskBattle struct {
	BattleStatus
	Sheet string
	// Answer is the RESULT block the sheet ends with, to fill in (a
	// campaign's battle; "" for SYW's, entered in the RESULT form).
	Answer string
}

// DeskMail is a mail in a queue the referee looks after.
type DeskMail struct {
	At      time.Time
	Who     string // recipients, or the sender
	Subject string
	Error   string
}

// DeskEntry is one act done at the desk, as the store keeps it.
type DeskEntry = store.DeskAct

// deskLogKeep is how many acts the store keeps for the page; the log
// (slog) has them all.
const deskLogKeep = 200

// Desk reads the game for the referee's console.
func (g *Game) Desk(ctx context.Context) (*DeskView, error) {
	s, err := g.Status(ctx)
	if err != nil {
		return nil, err
	}
	v := &DeskView{Status: s, Now: g.Now().UTC(), Refuses: g.deskRefusals(), MapImage: g.Map != nil, ResultForm: g.seamOnly == nil}
	var note strings.Builder
	s.turnStateText(&note, v.Now)
	v.TurnNote, v.Health = strings.TrimSpace(note.String()), strings.TrimSpace(s.healthText(v.Now))
	if rec, err := g.DB.LatestTurn(ctx, g.ID()); err == nil {
		v.LastTurn = rec.Turn
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	st, err := g.State(ctx)
	if err != nil {
		return nil, err
	}
	if v.Sheets, err = g.deskSheets(ctx, st, s); err != nil {
		return nil, err
	}
	if v.Battles, err = g.deskBattles(ctx, s.Battles); err != nil {
		return nil, err
	}
	if v.Treaties, err = g.Treaties(ctx); err != nil {
		return nil, err
	}
	if v.Failed, v.Held, err = g.deskQueues(ctx); err != nil {
		return nil, err
	}
	if v.Log, err = g.DeskLog(ctx); err != nil {
		return nil, err
	}
	if v.Rulings, err = g.deskRulings(ctx, s.Turn); err != nil {
		return nil, err
	}
	return v, nil
}

// deskSheets lists each nation's sheet in force with its sender, the orders
// as understood and their problems, and each nation's NMR streak.
func (g *Game) deskSheets(ctx context.Context, st *engine.State, s *Status) ([]DeskSheet, error) {
	receipts, err := g.sheetReceipts(ctx, st.Turn)
	if err != nil {
		return nil, err
	}
	inForce, err := g.DB.SubmissionsInForce(ctx, g.ID(), st.Turn, KindOrders)
	if err != nil {
		return nil, err
	}
	if err := g.TreatiesInto(ctx, st); err != nil {
		return nil, err
	}
	out := make([]DeskSheet, len(s.Nations))
	for i, n := range s.Nations {
		d := DeskSheet{NationStatus: n}
		for _, r := range receipts {
			switch {
			case string(r.Nation) != n.ID:
			case r.Refused:
				d.Refused++
			default:
				d.From = r.From
			}
		}
		for _, sub := range inForce {
			if sub.Nation != n.ID {
				continue
			}
			d.Orders = sub.CanonicalText
			if d.Problems, err = g.sheetProblems(ctx, st, n.ID, sub.RawText); err != nil {
				return nil, err
			}
		}
		if n.Receipt == "" && !n.Eliminated {
			if d.NMR, err = g.nmrBefore(ctx, st.Turn, n.ID); err != nil {
				return nil, err
			}
		}
		out[i] = d
	}
	return out, nil
}

// nmrBefore counts the turns in a row before turn in which nation had no
// sheet in force.
func (g *Game) nmrBefore(ctx context.Context, turn int, nation string) (int, error) {
	n := 0
	for t := turn - 1; t >= 1; t-- {
		subs, err := g.DB.SubmissionsInForce(ctx, g.ID(), t, KindOrders)
		if err != nil {
			return 0, err
		}
		if slices.ContainsFunc(subs, func(s store.Submission) bool { return s.Nation == nation }) {
			break
		}
		n++
	}
	return n, nil
}

// deskBattles adds to the table's battles still without a result the sheet
// the referee was mailed.
func (g *Game) deskBattles(ctx context.Context, bs []BattleStatus) ([]DeskBattle, error) {
	out := make([]DeskBattle, len(bs))
	pending := false
	for i, b := range bs {
		out[i].BattleStatus = b
		pending = pending || !b.Result
	}
	if !pending {
		return out, nil
	}
	if g.seamOnly != nil {
		return out, g.campaignDeskBattles(ctx, out)
	}
	st, lbs, _, err := g.trialBattles(ctx, nil)
	if err != nil {
		return nil, err
	}
	for i := range out {
		for _, lb := range lbs {
			if !out[i].Result && lb.Hex.String() == out[i].Hex {
				out[i].Sheet = g.battleSheet(st, lb)
			}
		}
	}
	return out, nil
}

// deskQueues lists the mails the outbox gave up on and the received mails
// set aside.
func (g *Game) deskQueues(ctx context.Context) (failed, held []DeskMail, err error) {
	rows, err := g.DB.MessagesInState(ctx, store.OutboxFailed)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		failed = append(failed, DeskMail{At: r.UpdatedAt, Who: strings.Join(r.Recipients, ", "), Subject: subjectOf(r.Raw), Error: r.LastError})
	}
	ms, err := g.DB.MailByStatus(ctx, store.MailQuarantined)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range ms {
		held = append(held, DeskMail{At: m.ReceivedAt, Who: m.From, Subject: subjectOf(m.Raw), Error: m.Error})
	}
	return failed, held, nil
}

// subjectOf reads a raw mail's Subject, decoded ("" when unreadable).
func subjectOf(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	s := m.Header.Get("Subject")
	if dec, err := new(mime.WordDecoder).DecodeHeader(s); err == nil {
		return dec
	}
	return s
}

// DeskAct runs referee commands written as in a mail (docs/referee.md) for
// the console: through RunRefereeText, the registry's path, so that a desk
// act is a referee command — carried out as the mail's are: a RESOLVE NOW
// closes the turn's orders and wakes the turn runner, which resolves it
// (waiting for a battle on the table, as for a mail) rather than resolving
// it there and then as the CLI does. who is the console's name for whoever is signed
// in and from the client's address; both are logged with the commands and
// the answer, as a referee's mail is, and kept for the page.
func (g *Game) DeskAct(ctx context.Context, who, from, text string) (lines []string, ok bool, err error) {
	lines, ok, err = g.runRefereeText(ctx, text, false) // the turn runner of "pbem run" resolves a RESOLVE NOW, as for a mail
	logged := maskNewPasswords(text)
	if err != nil {
		g.Log.Error("referee commands from the console failed", "who", who, "from", from, "commands", logged, "err", err)
		return nil, false, err
	}
	g.Log.Info("referee commands from the console", "who", who, "from", from, "commands", logged, "answer", strings.Join(lines, " | "), "ok", ok)
	e := DeskEntry{At: g.Now().UTC(), Who: who, From: from, Text: logged, Answer: lines, OK: ok}
	if err := g.appendDeskLog(ctx, e); err != nil {
		return lines, ok, fmt.Errorf("the commands were carried out, but not recorded in the console's log: %w", err)
	}
	return lines, ok, nil
}

// resetPasswordRE is a RESET PASSWORD line: its last word is the new
// password, which the log does not keep.
var resetPasswordRE = regexp.MustCompile(`(?im)^(\s*RESET\s+PASSWORD\s+\S+\s+)\S+`)

// maskNewPasswords hides the new password of each RESET PASSWORD line.
func maskNewPasswords(text string) string {
	return resetPasswordRE.ReplaceAllString(text, "${1}********")
}

// DeskLog returns the acts done at the desk, the latest first.
func (g *Game) DeskLog(ctx context.Context) ([]DeskEntry, error) {
	return g.DB.DeskActs(ctx, g.ID())
}

func (g *Game) appendDeskLog(ctx context.Context, e DeskEntry) error {
	return g.DB.AddDeskAct(ctx, g.ID(), e, deskLogKeep)
}

// VerifyReferee reports whether pw is the referee's password
// (game.referee_password): the same hash and check as the PASSWORD line of
// a referee's mail. False when none is configured.
func (g *Game) VerifyReferee(pw string) bool {
	hash, err := g.refereeHash()
	return err == nil && hash != "" && g.verifyReferee(hash, pw)
}

// NationName is a nation's name for people ("Eisenmark"); the id when the
// map has no such nation.
func (g *Game) NationName(nation string) string { return g.nationName(game.NationID(nation)) }

// ErrNoReport is DeskReport's error for a turn or nation the game has no
// report of.
var ErrNoReport = errors.New("no such report")

// DeskReport renders a resolved turn's report as a PDF: nation's, or the
// referee's master report for nation "referee". turn 0 is the starting
// report. A turn not in the store, or a nation not of the game, is
// ErrNoReport.
func (g *Game) DeskReport(ctx context.Context, turn int, nation string) ([]byte, error) {
	if g.seamOnly != nil {
		return g.campaignDeskReport(ctx, turn, nation)
	}
	st, events, rec, err := archivedTurn(ctx, g.DB, g.ID(), turn)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: game %s has no turn %d", ErrNoReport, g.ID(), turn)
	}
	if err != nil {
		return nil, err
	}
	opts := &reports.Options{Taxes: &g.Rules.Taxes}
	var b bytes.Buffer
	if nation == "referee" {
		md, err := g.RebuildRefereeReport(ctx, st, events, rec)
		if err != nil {
			return nil, err
		}
		err = reports.RenderReferee(&b, md, g.Map, opts)
		return b.Bytes(), err
	}
	if _, ok := g.Map.Nation(game.NationID(nation)); !ok {
		return nil, fmt.Errorf("%w: %q is not a nation of game %s", ErrNoReport, nation, g.ID())
	}
	md, err := g.RebuildReport(ctx, turn, game.NationID(nation))
	if err != nil {
		return nil, err
	}
	err = reports.Render(&b, md, g.Map, opts)
	return b.Bytes(), err
}

// DeskMap renders the map after a resolved turn (every force, as the
// referee's report draws it) as a one-page PDF. For a game played through
// the seam it is the referee's report, whose map page draws every force.
func (g *Game) DeskMap(ctx context.Context, turn int) ([]byte, error) {
	if g.seamOnly != nil {
		return g.campaignDeskReport(ctx, turn, "referee")
	}
	st, events, rec, err := archivedTurn(ctx, g.DB, g.ID(), turn)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: game %s has no turn %d", ErrNoReport, g.ID(), turn)
	}
	if err != nil {
		return nil, err
	}
	md, err := g.RebuildRefereeReport(ctx, st, events, rec)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = reports.RenderMap(&b, md, g.Map, &reports.Options{Taxes: &g.Rules.Taxes})
	return b.Bytes(), err
}

// RebuildRefereeReport is the referee's master report of stored turn rec
// (st and events read from it), as the turn's mail carried it: its dice,
// rulings and sheets, the next deadline as stored. Only the NMR streaks are
// not told again. What the console and "pbem report --referee" show.
func (g *Game) RebuildRefereeReport(ctx context.Context, st *engine.State, events []engine.Event, rec store.TurnRecord) (*reports.RefereeModel, error) {
	var rolls []engine.Roll
	if len(bytes.TrimSpace(rec.Dice)) > 0 {
		if err := json.Unmarshal(rec.Dice, &rolls); err != nil {
			return nil, fmt.Errorf("the stored dice of turn %d: %w", rec.Turn, err)
		}
	}
	var sheets []reports.SheetReceipt
	var rulings []reports.Ruling
	if rec.Turn > 0 {
		var err error
		if sheets, err = g.sheetReceipts(ctx, rec.Turn); err != nil {
			return nil, err
		}
		if rulings, err = g.reportRulings(ctx, rec.Turn); err != nil {
			return nil, err
		}
	}
	deadline, err := g.TurnDeadline(ctx, st.Turn)
	if err != nil {
		return nil, err
	}
	return reports.BuildReferee(reports.RefereeInput{Map: g.Map, Rules: g.Rules, State: st, Events: events, Rolls: rolls,
		Rulings: rulings, Sheets: sheets, GameName: g.Config.Game.Name, Deadline: deadline, Zone: g.Zone, Narrate: g.Narrate})
}

// VerifyNation reports whether pw is nation's order-sheet password for the
// turn now open: a player's sign-in to the nation's own page.
func (g *Game) VerifyNation(ctx context.Context, nation, pw string) bool {
	st, err := g.State(ctx)
	if err != nil {
		return false
	}
	return g.VerifyPassword(ctx, game.NationID(nation), st.Turn, pw)
}

// deskMapWidth is the width of the console's map image, in pixels.
const deskMapWidth = 1400

// DeskMapSVG draws the map of a resolved turn as an SVG image: a nation's,
// as its report's map shows it (its own forces, what it knows of others'),
// or the referee's (every force) for nation "referee". A turn not in the
// store, or a nation not of the game, is ErrNoReport.
func (g *Game) DeskMapSVG(ctx context.Context, turn int, nation string) ([]byte, error) {
	if g.Map == nil {
		return nil, g.errNoMapImage()
	}
	var b bytes.Buffer
	if nation == "referee" {
		st, events, rec, err := archivedTurn(ctx, g.DB, g.ID(), turn)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%w: game %s has no turn %d", ErrNoReport, g.ID(), turn)
		}
		if err != nil {
			return nil, err
		}
		md, err := g.RebuildRefereeReport(ctx, st, events, rec)
		if err != nil {
			return nil, err
		}
		err = reports.RefereeMapSVG(&b, md, g.Map, deskMapWidth)
		return b.Bytes(), err
	}
	if _, ok := g.Map.Nation(game.NationID(nation)); !ok {
		return nil, fmt.Errorf("%w: %q is not a nation of game %s", ErrNoReport, nation, g.ID())
	}
	if _, err := g.DB.Turn(ctx, g.ID(), turn); errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: game %s has no turn %d", ErrNoReport, g.ID(), turn)
	}
	md, err := g.RebuildReport(ctx, turn, game.NationID(nation))
	if err != nil {
		return nil, err
	}
	err = reports.NationMapSVG(&b, md, g.Map, deskMapWidth)
	return b.Bytes(), err
}

// HasRefereePassword reports whether a referee password is configured
// (game.referee_password) and readable: without one nobody can sign in to
// the console, as no referee's mail of commands is taken.
func (g *Game) HasRefereePassword() bool {
	hash, err := g.refereeHash()
	return err == nil && hash != ""
}

// SessionDir is the game's data folder (data_dir), where the referee's
// console keeps the game's sign-ins so that they outlive a restart
// (console.SessionKeeper); "" for a game opened without a config.
func (g *Game) SessionDir() string {
	if g.Config == nil {
		return ""
	}
	return g.Config.Path(g.Config.DataDir)
}
