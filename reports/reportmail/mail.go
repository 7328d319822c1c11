// Package reportmail turns reports into outbox messages: each nation's turn
// report (the PDF attached, a plain-text summary as the body, the nation's
// view as JSON attached), the starting report, the referee's master report,
// and the notice that tells the referee what was cut from a report too big
// to mail.
//
// A message is composed to its final bytes (outbox.Compose) and measured;
// over Options.SizeLimit (10 MB by default) the zoomed map page is left out
// of the PDF first, then the PDF itself (the body and the JSON still go),
// and each cut is listed in a Cut for CutNotice. Subjects start with the
// game's tag and the zero-padded turn number, so a mailbox sorted by subject
// lists the reports in turn order: "[syw] T005 1752 August — Eisenmark turn
// report". The package only builds messages; the turn runner enqueues them
// (outbox.Row and store.CommitTurn, with the turn).
package reportmail

import (
	"bytes"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
)

// DefaultSizeLimit is the largest message sent whole: 10 MB, under the
// limits of the common mail providers (Gmail 25 MB, many others 10–20 MB).
const DefaultSizeLimit = 10 << 20

// Kinds of the messages, as outbox.Message.Kind.
const (
	KindReport        = "report"
	KindStartReport   = "start-report"
	KindRefereeReport = "referee-report"
	KindReportCut     = "report-cut"
)

// Options says who a report mail is from and to, and how it is printed.
type Options struct {
	// From is the game's address; To the recipients (a nation's registered
	// addresses, or the referee's). Required.
	From mail.Address
	To   []mail.Address
	// Date is the message's Date header. Required (the outbox never reads
	// the clock).
	Date time.Time
	// Tag starts the subject in brackets; default the game's ID.
	Tag string
	// SizeLimit is the largest message sent whole; default
	// DefaultSizeLimit.
	SizeLimit int
	// PDF are the report's print options (nil: A4 defaults).
	PDF *reports.Options
}

// Cut says what was left out of a report mail over the size limit.
type Cut struct {
	Nation string
	Turn   int
	// Size is the whole message's size, Limit the limit it passed.
	Size, Limit int
	// Dropped lists what was left out, in order.
	Dropped []string
}

// Subject returns a report's subject: "[syw] T005 1752 August — Eisenmark
// turn report", or "[syw] T000 1752 April — Eisenmark starting report".
func Subject(tag string, md *reports.Model) string {
	if md.Starting {
		return fmt.Sprintf("[%s] T000 %s — %s starting report", tag, monthOf(md.TurnLabel), md.NationName)
	}
	return fmt.Sprintf("[%s] T%03d %s — %s turn report", tag, md.Turn-1, monthOf(md.Resolved), md.NationName)
}

// monthOf turns "Turn 5, August 1752" into "1752 August", and "Turn 7,
// year-end 1752" into "1752 year-end".
func monthOf(label string) string {
	_, rest, ok := strings.Cut(label, ", ")
	if !ok {
		return label
	}
	f := strings.Fields(rest)
	if len(f) < 2 {
		return rest
	}
	return f[len(f)-1] + " " + strings.Join(f[:len(f)-1], " ")
}

// NationMail builds a nation's report mail: the plain-text report as the
// body, the PDF and the JSON view attached. A message over the size limit
// loses the zoomed map, then the PDF; cut is non-nil when anything was left
// out, for CutNotice.
func NationMail(md *reports.Model, m *hexmap.Map, o Options) (msg outbox.Message, cut *Cut, err error) {
	if md == nil || m == nil {
		return outbox.Message{}, nil, errors.New("report mail: the report and the map are required")
	}
	if o.Tag == "" {
		o.Tag = md.Game
	}
	if o.SizeLimit <= 0 {
		o.SizeLimit = DefaultSizeLimit
	}
	js, err := reports.JSON(md)
	if err != nil {
		return outbox.Message{}, nil, err
	}
	kind, turn := KindReport, md.Turn-1
	if md.Starting {
		kind, turn = KindStartReport, 0
	}
	base := fmt.Sprintf("%s-T%03d-%s", md.Game, turn, md.Nation)
	msg = outbox.Message{
		Game: md.Game, Turn: turn, Nation: string(md.Nation), Kind: kind,
		From: o.From, To: o.To, Subject: Subject(o.Tag, md), Date: o.Date,
		Text: reports.Text(md),
	}
	jsonAtt := outbox.Attachment{Filename: base + ".json", ContentType: "application/json", Data: js}
	pdfOpts := reports.Options{}
	if o.PDF != nil {
		pdfOpts = *o.PDF
	}
	var dropped []string
	for attempt := 0; ; attempt++ {
		atts := []outbox.Attachment{jsonAtt}
		if attempt < 2 {
			var buf bytes.Buffer
			if err := reports.Render(&buf, md, m, &pdfOpts); err != nil {
				return outbox.Message{}, nil, err
			}
			atts = []outbox.Attachment{{Filename: base + ".pdf", ContentType: "application/pdf", Data: buf.Bytes()}, jsonAtt}
		}
		msg.Attachments = atts
		raw, err := outbox.Compose(msg)
		if err != nil {
			return outbox.Message{}, nil, err
		}
		if len(raw) <= o.SizeLimit || attempt == 2 {
			if len(dropped) > 0 {
				cut = &Cut{Nation: string(md.Nation), Turn: turn, Size: len(raw), Limit: o.SizeLimit, Dropped: dropped}
				msg.Text = "Note: this report was too large to mail whole; left out: " + strings.Join(dropped, "; ") +
					". The referee has been told and can send it another way.\n\n" + reports.Text(md)
			}
			return msg, cut, nil
		}
		switch attempt {
		case 0:
			pdfOpts.NoZoom = true
			dropped = append(dropped, fmt.Sprintf("the zoomed map page (the mail was %d bytes)", len(raw)))
		case 1:
			dropped = append(dropped, fmt.Sprintf("the PDF (the mail was still %d bytes)", len(raw)))
		}
	}
}

// RefereeMail builds the referee's master report mail: the text summary as
// the body, the PDF and the JSON attached. The referee's report is never
// cut; its size is the referee's to judge.
func RefereeMail(md *reports.RefereeModel, m *hexmap.Map, o Options) (outbox.Message, error) {
	if md == nil || m == nil {
		return outbox.Message{}, errors.New("referee report mail: the report and the map are required")
	}
	if o.Tag == "" {
		o.Tag = md.Game
	}
	var buf bytes.Buffer
	if err := reports.RenderReferee(&buf, md, m, o.PDF); err != nil {
		return outbox.Message{}, err
	}
	js, err := marshalIndent(md)
	if err != nil {
		return outbox.Message{}, err
	}
	turn := max(md.Turn-1, 0)
	what := monthOf(md.Resolved)
	if md.Resolved == "" {
		what = monthOf(md.TurnLabel) + " opening"
	}
	base := fmt.Sprintf("%s-T%03d-referee", md.Game, turn)
	return outbox.Message{
		Game: md.Game, Turn: turn, Kind: KindRefereeReport,
		From: o.From, To: o.To, Date: o.Date,
		Subject: fmt.Sprintf("[%s] T%03d %s — referee's master report", o.Tag, turn, what),
		Text:    reports.RefereeText(md),
		Attachments: []outbox.Attachment{
			{Filename: base + ".pdf", ContentType: "application/pdf", Data: buf.Bytes()},
			{Filename: base + ".json", ContentType: "application/json", Data: js},
		},
	}, nil
}

// CutNotice tells the referee which reports were cut to fit the size
// limit, and what was left out of each. It returns false when cuts is
// empty.
func CutNotice(game string, turn int, cuts []Cut, o Options) (outbox.Message, bool) {
	if len(cuts) == 0 {
		return outbox.Message{}, false
	}
	if o.Tag == "" {
		o.Tag = game
	}
	var b strings.Builder
	fmt.Fprintf(&b, "These turn reports were over the mail size limit and were sent cut:\n\n")
	for _, c := range cuts {
		fmt.Fprintf(&b, "- %s: %d bytes, limit %d; left out: %s.\n", c.Nation, c.Size, c.Limit, strings.Join(c.Dropped, "; "))
	}
	b.WriteString("\nRender the whole report with: pbem report --nation NAME --out FILE.pdf, and send it another way.\n")
	return outbox.Message{
		Game: game, Turn: turn, Kind: KindReportCut, From: o.From, To: o.To, Date: o.Date,
		Subject: fmt.Sprintf("[%s] T%03d — %s cut to fit the mail size limit", o.Tag, turn, reportsWord(len(cuts))),
		Text:    b.String(),
	}, true
}

func reportsWord(n int) string { return english.Count(n, "report") }
