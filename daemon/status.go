package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// Status is the game as the referee needs to see it between turns: what
// `pbem status` prints. It is read from the store alone, so it works while
// the daemon runs.
type Status struct {
	Game, Name, Ruleset string
	Turn                int       // the turn orders are taken for
	TurnLabel           string    // "Turn 3, June 1752"
	Deadline            time.Time // zero: none
	DeadlineSource      string    // store.DeadlineSchedule or store.DeadlineReferee
	Zone                *time.Location
	LastResolved        time.Time // when the last turn was resolved; zero before the first
	Nations             []NationStatus
	Requests            []RequestStatus
	Outbox              map[store.OutboxState]int
	OldestPending       time.Time      // the oldest mail waiting to go out; zero for none
	MailWaiting         int            // received mails not yet handled
	MailQuarantined     int            // received mails set aside for the referee
	Intake              IntakeHealth   // outage.go: the intake's connection to the mailbox
	Battles             []BattleStatus // battles of the open turn on the referee's table
	// OutboxHealth is the outbox's record of its attempts (outbox.Health;
	// OutboxKnown is false before the first).
	OutboxHealth outbox.Health
	OutboxKnown  bool
	// Run is the last run of "pbem run" recorded, and whether it runs now
	// (runstate.go); Runner is the turn runner's state as it recorded it.
	Run         runRecord
	Running     bool
	Runner      runnerState
	RunnerKnown bool
	// Closed is an early close of the open turn's orders (RESOLVE NOW, or
	// every nation FINAL; closing.go), when IsClosed.
	Closed   turnClose
	IsClosed bool
	// Held is the open turn's hold by the mail-outage guard (outage.go),
	// when IsHeld.
	Held   turnHold
	IsHeld bool
	// Victory says who won, when and with which tax base ("" while nobody
	// has); Over is set when that ended the game (game.after_victory end,
	// gameover.go), VictoryTurn is the winning turn.
	Victory     string
	Over        bool
	VictoryTurn int
}

// NationStatus is one nation's orders for the open turn.
type NationStatus struct {
	ID, Name   string
	Eliminated bool
	Receipt    string    // of the sheet in force; "" when none
	At         time.Time // when it was received
	Sheets     int       // sheets received this turn (accepted ones, the one in force included)
	Final      bool      // the sheet in force was marked FINAL
}

// BattleStatus is a battle of the open turn sent to the referee's table
// (tabletop.go): when its sheet went out, and whether its result is in.
type BattleStatus struct {
	Hex       string
	Nations   string
	SheetSent time.Time
	Result    bool
}

// RequestStatus is a request on a sheet in force and the referee's ruling.
type RequestStatus struct {
	Nation, Token, Text string
	Ruling              string // the ruling in a sentence ("Request R1a2b3c of Eisenmark approved: …"); "" while pending
}

// Status reads the game's status.
func (g *Game) Status(ctx context.Context) (*Status, error) {
	st, _, err := g.current(ctx)
	if err != nil {
		return nil, err
	}
	s := &Status{Game: g.ID(), Name: g.Config.Game.Name, Ruleset: g.rulesetID(), Turn: st.Turn,
		TurnLabel: g.labelOf(st, st.Turn), Zone: g.Zone, Outbox: map[store.OutboxState]int{}}
	if v := st.Victory; v != nil && len(v.Winners) > 0 {
		s.Victory, s.Over, s.VictoryTurn = g.victorySentence(st, v), g.gameOver(st) != nil, victoryTurn(st, v)
	}
	if d, err := g.DB.TurnDeadline(ctx, g.ID(), st.Turn); err == nil {
		s.Deadline, s.DeadlineSource = d.At, d.Source
	}
	if s.Closed, s.IsClosed, err = g.earlyClose(ctx, g.DB, st.Turn); err != nil {
		return nil, err
	}
	if s.Held, s.IsHeld, err = g.heldTurn(ctx, st.Turn, s.Deadline); err != nil {
		return nil, err
	}
	s.IsHeld = s.IsHeld && !s.Held.Released
	if rec, err := g.DB.LatestTurn(ctx, g.ID()); err == nil && rec.Status == store.TurnResolved {
		s.LastResolved = rec.ResolvedAt
	}
	subs, err := g.DB.Submissions(ctx, g.ID(), st.Turn)
	if err != nil {
		return nil, err
	}
	byNation := map[string]*NationStatus{}
	for _, ns := range st.Nations {
		s.Nations = append(s.Nations, NationStatus{ID: string(ns.ID), Name: g.nationName(ns.ID), Eliminated: ns.Eliminated})
	}
	for i := range s.Nations {
		byNation[s.Nations[i].ID] = &s.Nations[i]
	}
	final := map[int64]bool{}
	rulings := map[string]string{}
	for _, sub := range subs {
		switch sub.Kind {
		case KindFinal:
			final[sub.MailID] = true
		case KindRuling:
			rulings[sub.ReceiptHash] = g.rulingSentence(sub)
		}
	}
	for _, sub := range subs {
		n := byNation[sub.Nation]
		if sub.Kind != KindOrders || !sub.Valid || n == nil {
			continue
		}
		n.Sheets++
		if !sub.Superseded {
			n.Receipt, n.At, n.Final = sub.ReceiptHash, sub.SubmittedAt, final[sub.MailID]
			if m, err := g.DB.MailHead(ctx, sub.MailID); err == nil && sub.MailID != 0 {
				n.At = m.ReceivedAt // when it reached the server: what made it count
			}
		}
	}
	open, _, err := g.openRequests(ctx, st.Turn)
	if err != nil {
		return nil, err
	}
	for token, req := range open {
		s.Requests = append(s.Requests, RequestStatus{Nation: req.Nation, Token: token, Text: req.RawText, Ruling: rulings[token]})
	}
	slices.SortFunc(s.Requests, func(a, b RequestStatus) int { return strings.Compare(a.Nation+a.Token, b.Nation+b.Token) })
	for _, state := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxFailed} {
		rows, err := g.DB.MessagesInState(ctx, state)
		if err != nil {
			return nil, err
		}
		s.Outbox[state] = len(rows)
		for _, r := range rows {
			if state == store.OutboxPending && (s.OldestPending.IsZero() || r.CreatedAt.Before(s.OldestPending)) {
				s.OldestPending = r.CreatedAt
			}
		}
	}
	waiting, err := g.DB.MailByStatus(ctx, store.MailStored)
	if err != nil {
		return nil, err
	}
	quarantined, err := g.DB.MailByStatus(ctx, store.MailQuarantined)
	if err != nil {
		return nil, err
	}
	s.MailWaiting, s.MailQuarantined = len(waiting), len(quarantined)
	if s.Battles, err = g.tableBattles(ctx, st); err != nil {
		return nil, err
	}
	if s.Intake, err = g.IntakeHealth(ctx); err != nil {
		return nil, err
	}
	if s.OutboxHealth, s.OutboxKnown, err = outbox.ReadHealth(ctx, g.DB); err != nil {
		return nil, err
	}
	if s.Run, s.Running, err = g.lastRun(ctx); err != nil {
		return nil, err
	}
	if s.Runner, s.RunnerKnown, err = g.readRunner(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Text prints the status for the referee; now is the time it is read at.
func (s *Status) Text(now time.Time) string {
	var b strings.Builder
	show := func(t time.Time) string { return t.In(s.Zone).Format(deadlineLayout) }
	fmt.Fprintf(&b, "%s (%s), ruleset %s\n", s.Name, s.Game, s.Ruleset)
	if s.Over {
		fmt.Fprintf(&b, "GAME OVER: %s\n", s.Victory)
		fmt.Fprintf(&b, "No turn is open, no orders are taken, no deadline is set. To reopen the game: ROLLBACK %d\n"+
			"(pbem rollback %d), then RESOLVE NOW or RERUN %d; to play on past the victory: game.after_victory: play-on.\n",
			s.VictoryTurn, s.VictoryTurn, s.VictoryTurn)
		if !s.LastResolved.IsZero() {
			fmt.Fprintf(&b, "Last turn resolved: %s\n", show(s.LastResolved))
		}
		s.queuesText(&b, now)
		return b.String()
	}
	if s.Victory != "" {
		fmt.Fprintf(&b, "Won: %s The game goes on (game.after_victory: play-on).\n", s.Victory)
	}
	fmt.Fprintf(&b, "Open: %s (TURN %d)\n", s.TurnLabel, s.Turn)
	switch {
	case s.Deadline.IsZero():
		b.WriteString("Deadline: none (resolve the turn with RESOLVE NOW, or set one with DEADLINE SET)\n")
	case s.Deadline.After(now):
		fmt.Fprintf(&b, "Deadline: %s, in %s (set by the %s)\n", show(s.Deadline), roundDuration(s.Deadline.Sub(now)), s.DeadlineSource)
	default:
		fmt.Fprintf(&b, "Deadline: %s, passed %s ago\n", show(s.Deadline), roundDuration(now.Sub(s.Deadline)))
	}
	s.turnStateText(&b, now)
	if !s.LastResolved.IsZero() {
		fmt.Fprintf(&b, "Last turn resolved: %s\n", show(s.LastResolved))
	}
	b.WriteString("\nOrders:\n")
	for _, n := range s.Nations {
		switch {
		case n.Eliminated:
			fmt.Fprintf(&b, "  %-14s eliminated\n", n.Name)
		case n.Receipt == "":
			fmt.Fprintf(&b, "  %-14s no orders yet\n", n.Name)
		default:
			final := ""
			if n.Final {
				final = ", FINAL"
			}
			fmt.Fprintf(&b, "  %-14s receipt %s, %s (%s%s)\n", n.Name, n.Receipt, show(n.At), english.Count(n.Sheets, "sheet"), final)
		}
	}
	if len(s.Requests) > 0 {
		b.WriteString("\nRequests:\n")
		for _, r := range s.Requests {
			ruling := "PENDING: answer APPROVE " + r.Token + " or DENY " + r.Token
			if r.Ruling != "" {
				ruling = "ruled: " + r.Ruling
			}
			fmt.Fprintf(&b, "  %s %s %q — %s\n", r.Token, r.Nation, r.Text, ruling)
		}
	}
	if len(s.Battles) > 0 {
		b.WriteString("\nBattles on the table:\n")
		for _, t := range s.Battles {
			state := "result in"
			if !t.Result {
				state = "PENDING: answer with its RESULT"
				if !t.SheetSent.IsZero() {
					state += fmt.Sprintf(" (sheet sent %s ago)", roundDuration(now.Sub(t.SheetSent)))
				}
			}
			fmt.Fprintf(&b, "  %s %s — %s\n", t.Hex, t.Nations, state)
		}
	}
	s.queuesText(&b, now)
	return b.String()
}

// queuesText prints the mail queues and the mail's health.
func (s *Status) queuesText(b *strings.Builder, now time.Time) {
	fmt.Fprintf(b, "\nOutbox: %d waiting, %d sending, %d failed", s.Outbox[store.OutboxPending], s.Outbox[store.OutboxSending],
		s.Outbox[store.OutboxFailed])
	if !s.OldestPending.IsZero() {
		fmt.Fprintf(b, " (the oldest queued %s ago)", roundDuration(now.Sub(s.OldestPending)))
	}
	fmt.Fprintf(b, "\nMail in: %d waiting to be handled, %d quarantined\n", s.MailWaiting, s.MailQuarantined)
	b.WriteString(s.healthText(now))
}

// roundDuration prints a duration for people: "3d 4h", "2h 5m", "45s".
func roundDuration(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", d/time.Hour, d%time.Hour/time.Minute)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

// tableBattles lists the open turn's battles that go to the referee's table
// (game.battles: table, or BATTLE hex TABLE): those whose sheet was mailed,
// and those whose result is in. It tries the turn to find them, as the
// turn runner does; a game with no battle on the table costs nothing.
func (g *Game) tableBattles(ctx context.Context, st *engine.State) ([]BattleStatus, error) {
	if g.seamOnly != nil {
		return g.campaignTableBattles(ctx, st.Turn) // seam_turn.go
	}
	results, err := g.tabletopResults(ctx, st.Turn)
	if err != nil {
		return nil, err
	}
	var out []BattleStatus
	for _, r := range results {
		out = append(out, BattleStatus{Hex: r.Hex.String(), Nations: joinNations(r.Nations), Result: true})
	}
	if g.Config.Game.Battles != "table" && len(out) == 0 {
		subs, err := g.DB.Submissions(ctx, g.ID(), st.Turn)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(subs, func(s store.Submission) bool { return s.Kind == KindTabletopAsk && s.Valid }) {
			return nil, nil
		}
	}
	_, lbs, _, err := g.trialBattles(ctx, nil)
	if err != nil {
		return nil, err
	}
	for _, b := range lbs {
		if b.Model == "tabletop" {
			continue
		}
		tb, err := g.DB.TabletopBattle(ctx, g.ID(), st.Turn, b.Hex.String())
		if err != nil {
			return nil, err
		}
		if tb.SheetSent.IsZero() {
			continue
		}
		at := tb.SheetSent
		var ns []game.NationID
		for _, side := range b.Sides {
			ns = append(ns, side.Nations...)
		}
		out = append(out, BattleStatus{Hex: b.Hex.String(), Nations: joinNations(ns), SheetSent: at})
	}
	return out, nil
}
