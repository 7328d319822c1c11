package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"runtime"
	"slices"
	"sync"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/reports/reportmail"
	"github.com/syw-pbem/pbem/store"
)

// The turn reports as mail. The turn runner's default mailer
// (Game.ReportMail) builds each nation's report with package reports — from
// the nation's engine.View of the state and engine.EventsFor of the turn's
// events, nothing else (reports.Build takes both itself) — and mails it
// with reportmail: the PDF and the JSON view attached, the plain-text report
// as the body. The referee gets the master report: the sheets received with
// receipts and times and the nations missing, every force, every die roll,
// every ruling, and the daemon's plain list of every event. The mails are
// outbox rows of the turn's own commit; the report carries last-seen
// intelligence and the treasury brought forward from the reports before
// it, which are rebuilt from the archive (reportmodel.go), never stored.
// The reports are built in parallel, one per core.

// Mailed is one recipient's mail about a turn, as a TurnMailer builds it.
// The daemon addresses it and gives it its Message-ID.
type Mailed struct {
	Subject, Text string
	Attachments   []outbox.Attachment
	// Cut says what was left out of a report over the mail size limit; the
	// referee is told.
	Cut *reportmail.Cut
}

// ReportMail is the daemon's default TurnMailer: a nation's PDF report (or
// the referee's master report) as reportmail builds it.
func (g *Game) ReportMail(m TurnMail) (Mailed, error) {
	if g.seamOnly != nil {
		return g.campaignReportMail(m) // seam_reports.go
	}
	to := []mail.Address{{Address: "x@invalid"}} // addressed by the daemon
	o := reportmail.Options{From: mail.Address{Name: g.Config.Game.Name, Address: g.Config.Mail.Address}, To: to,
		Date: g.Now().UTC(), Tag: g.ID(), PDF: &reports.Options{Taxes: &g.Rules.Taxes}}
	_, plain := plainTurnText(g.Map, m)
	if m.Nation == engine.Referee {
		md, err := reports.BuildReferee(reports.RefereeInput{Map: g.Map, Rules: g.Rules, State: m.State, Events: m.Events,
			Rolls: m.Rolls, Rulings: m.Rulings, Sheets: m.Sheets, GameName: m.GameName, Deadline: m.NextDeadline, Zone: m.Zone,
			Narrate: g.Narrate, NMRStreaks: nmrStreaks(m.NMRStreaks)})
		if err != nil {
			return Mailed{}, err
		}
		msg, err := reportmail.RefereeMail(md, g.Map, o)
		if err != nil {
			return Mailed{}, err
		}
		subject := msg.Subject
		if m.Rerun {
			subject += ", resolved again (correction)"
		}
		text := msg.Text
		if !m.Starting {
			text += "\n\nThe daemon's summary\n--------------------\n\n" + plain
		}
		return Mailed{Subject: subject, Text: text, Attachments: msg.Attachments}, nil
	}
	in, err := g.nationInput(m)
	if err != nil {
		return Mailed{}, err
	}
	md, err := reports.Build(in)
	if err != nil {
		return Mailed{}, err
	}
	msg, cut, err := reportmail.NationMail(md, g.Map, o)
	if err != nil {
		return Mailed{}, err
	}
	subject := msg.Subject
	if m.Rerun {
		subject += ", resolved again (correction)"
	}
	return Mailed{Subject: subject, Text: msg.Text, Attachments: msg.Attachments, Cut: cut}, nil
}

// nmrStreaks keys the NMR streaks by nation for the referee's report.
func nmrStreaks(in map[string]int) map[game.NationID]int {
	if len(in) == 0 {
		return nil
	}
	out := make(map[game.NationID]int, len(in))
	for n, k := range in {
		out[game.NationID(n)] = k
	}
	return out
}

// recipient is one mail the turn runner builds: a nation's, or the
// referee's.
type recipient struct {
	tm   TurnMail
	kind string
	who  string // nation id, or "referee"
	to   string
}

// buildMails runs the mailer for every recipient, in parallel, and returns
// the results in the recipients' order.
func (g *Game) buildMails(rs []recipient) ([]Mailed, error) {
	mailer := g.TurnMailer
	if mailer == nil {
		mailer = g.ReportMail
	}
	out := make([]Mailed, len(rs))
	errs := make([]error, len(rs))
	sem := make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))
	var wg sync.WaitGroup
	for i := range rs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			// A panic here would end the process, and with it every game a
			// host serves: it stops this game's turn runner instead (hosted.go).
			defer func() {
				if p := recover(); p != nil {
					errs[i] = panicError(p)
				}
			}()
			out[i], errs[i] = mailer(rs[i].tm)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("building %s's mail: %w", rs[i].who, err)
		}
	}
	return out, nil
}

// sheetReceipts are the order sheets of a turn, for the referee's report:
// every sheet in force (the latest valid one of each nation), with the
// sender's address as the mail read and whether it was marked FINAL, and
// every sheet the checker refused (Refused), which changed nothing. A sheet
// typed in by the referee has no mail and no From.
func (g *Game) sheetReceipts(ctx context.Context, turn int) ([]reports.SheetReceipt, error) {
	inForce, err := g.DB.SubmissionsInForce(ctx, g.ID(), turn, KindOrders)
	if err != nil {
		return nil, err
	}
	all, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	final := map[int64]bool{}
	var refused []store.Submission
	for _, s := range all {
		switch {
		case s.Kind == KindFinal && s.MailID != 0:
			final[s.MailID] = true
		case s.Kind == KindOrders && !s.Valid:
			refused = append(refused, s)
		}
	}
	var out []reports.SheetReceipt
	for _, s := range append(inForce, refused...) {
		r := reports.SheetReceipt{Nation: game.NationID(s.Nation), Received: s.SubmittedAt, Receipt: s.ReceiptHash,
			Final: s.Valid && s.MailID != 0 && final[s.MailID], Refused: !s.Valid}
		if s.MailID != 0 {
			// A sender the store cannot read leaves the column empty; the
			// report is not worth failing the turn for.
			if m, err := g.DB.MailHead(ctx, s.MailID); err != nil {
				g.Log.Warn("the mail of a sheet cannot be read for the referee's report", "nation", s.Nation, "mail", s.MailID, "err", err)
			} else {
				// When it reached the server: what made it count (closing.go),
				// not when pbem got round to it.
				r.From, r.Received = m.From, m.ReceivedAt
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// reportRulings are the rulings of a turn as the reports print them: the
// command as the referee's acknowledgment printed it, naming the requester
// and every nation an effect touches; treaty breaches, lifted penalties and
// loyalty are public.
func (g *Game) reportRulings(ctx context.Context, turn int) ([]reports.Ruling, error) {
	subs, err := g.DB.Submissions(ctx, g.ID(), turn)
	if err != nil {
		return nil, err
	}
	last := map[string]int{}
	for i, s := range subs {
		if s.Kind == KindRuling && s.Valid && s.ReceiptHash != "" {
			last[s.ReceiptHash] = i
		}
	}
	open := g.inForceTokens(subs) // a withdrawn request's ruling lapses (special.go)
	var out []reports.Ruling
	for i, s := range subs {
		if s.Kind != KindRuling || !s.Valid || (s.ReceiptHash != "" && (last[s.ReceiptHash] != i || !open[s.ReceiptHash])) {
			continue
		}
		var r engine.Ruling
		// A ruling with no effect still answers a request (an APPROVE of
		// a question, a DENY): its requester is told it.
		if err := json.Unmarshal([]byte(s.CanonicalText), &r); err != nil || len(r.Effects) == 0 && r.Token == "" {
			continue
		}
		rr := reports.Ruling{Text: g.rulingSentence(s)}
		add := func(n game.NationID) {
			if n != "" && !slices.Contains(rr.Nations, n) {
				rr.Nations = append(rr.Nations, n)
			}
		}
		add(r.Nation)
		for _, e := range r.Effects {
			switch x := e.(type) {
			case engine.TreasuryChange:
				add(x.Nation)
			case engine.DeclareBreach, engine.LiftPenalty, engine.SetLoyalty:
				rr.Public = true
			}
		}
		out = append(out, rr)
	}
	return out, nil
}
