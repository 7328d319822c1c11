package inbox

import (
	"bytes"
	"fmt"
	netmail "net/mail"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/syw-pbem/pbem/internal/english"
)

// TextSource says where a text of a mail came from.
type TextSource string

// Text sources, in the order Extract prefers them.
const (
	// SourceBody: the text/plain body (every inline text/plain part, joined).
	SourceBody TextSource = "body"
	// SourceAttachment: a .txt attachment (or any text/plain attachment).
	SourceAttachment TextSource = "attachment"
	// SourceHTML: text taken from a text/html part, tags removed.
	SourceHTML TextSource = "html"
)

// Text is one readable text of a mail, decoded to UTF-8 with LF line ends.
type Text struct {
	Source    TextSource // where it came from
	Name      string     // the attachment's file name ("" for a body)
	Part      string     // the IMAP-style part number ("" for a single-part mail)
	Text      string     // the text
	Truncated bool       // cut at Limits.MaxTextBytes
	// Forwarded is how many forwarded messages (message/rfc822 parts)
	// deep the text was found: 0 for the mail's own text.
	Forwarded int
	// Warnings are what went wrong reading this text (a charset guessed,
	// broken base64 or quoted-printable, the text cut), each with the line
	// of Text it concerns (0: the whole text), so that a reply can show it
	// under that line.
	Warnings []TextWarning
}

// TextWarning is a problem met reading a text, at a line.
type TextWarning struct {
	Line    int    // the line of Text it concerns (from 1); 0 for the whole text
	Message string // what happened, for the sender
}

// Extracted is what Extract read from a mail: the header fields the intake
// and the order checker need, and its texts.
type Extracted struct {
	// From is the sender's address, lower-cased, when the mail has exactly
	// one From header holding exactly one address that parses; else "".
	From string
	// FromName is the display name beside From, decoded.
	FromName string
	// FromHeaders is the number of From header fields (a forged mail may
	// carry two; RFC 5322 allows one).
	FromHeaders int
	// FromAddresses lists every address of every From header, lower-cased.
	FromAddresses []string
	// To and Cc list the recipients' addresses, lower-cased.
	To, Cc []string
	// Subject is the decoded Subject.
	Subject string
	// MessageID is the Message-ID without angle brackets ("" if none).
	MessageID string
	// InReplyTo and References are the message ids of those headers.
	InReplyTo, References []string
	// Date is the Date header, zero if missing or unreadable.
	Date time.Time

	// AutoSubmitted is the Auto-Submitted header's keyword, lower case
	// ("" if absent).
	AutoSubmitted string
	// XLoop lists the X-Loop header values, lower-cased.
	XLoop []string
	// Precedence is the Precedence header, lower case ("" if absent).
	Precedence string
	// ReturnPath is the Return-Path header as written ("" if absent, "<>"
	// for the null sender of a bounce).
	ReturnPath string
	// HasReturnPath reports whether a Return-Path header was present.
	HasReturnPath bool
	// AutoReplyHeader names a vendor auto-reply header found (X-Autoreply,
	// X-Autorespond), "" if none.
	AutoReplyHeader string
	// ContentType is the message's media type, lower case.
	ContentType string
	// ReportType is the report-type parameter of a multipart/report
	// (delivery-status for a bounce, disposition-notification for a read
	// receipt).
	ReportType string

	// AuthenticationResults are the Authentication-Results header values,
	// topmost (most recently added) first. Authenticate decides which to
	// trust.
	AuthenticationResults []string

	// Text is the mail's own text: the first non-blank of Texts that is
	// not forwarded (or, when there is none, the first non-blank).
	Text string
	// Texts lists every readable text: the body, then .txt attachments,
	// then text from HTML when the mail has no plain-text body. Texts of a
	// forwarded message (a message/rfc822 part) come before those of the
	// message that forwards it, the innermost first: a sheet forwarded as
	// an attachment is the original. An order checker that finds no sheet
	// in Text may try the others.
	Texts []Text
	// Attachments lists the file names of the attachments (parts with a
	// file name or Content-Disposition: attachment); "" for an unnamed one.
	Attachments []string
	// Parts is the number of MIME parts; Depth the deepest multipart
	// nesting.
	Parts, Depth int
	// Warnings are soft problems met while reading (an unknown charset,
	// broken base64); reading went on.
	Warnings []string

	ownAddresses []string
}

// Extract reads a raw mail within limits (zero fields mean the defaults).
//
// It never panics and never takes much longer than limits.Deadline. A mail
// it refuses comes back with a *LimitError (errors.Is ErrTooLarge,
// ErrHeaderTooLarge, ErrTooManyParts, ErrTooDeep, ErrDeadline, or
// ErrUnreadable after a recovered panic). Where the top-level header could
// be read, the *Extracted is returned beside that error with its header
// fields (From, Subject, …) filled and no texts, so the sender can be told;
// otherwise it is nil. Soft problems (an unknown charset, broken transfer
// encoding, a missing closing boundary) are not errors: they are listed in
// Warnings and reading goes on.
//
// Extract slices the MIME structure itself in one linear pass, checking the
// depth before entering a level and the part count before keeping a part,
// and decodes only the parts that can hold text, so its cost is bounded by
// MaxDepth passes over at most MaxRawBytes whatever the mail is.
func Extract(raw []byte, limits Limits) (*Extracted, error) {
	lim := limits.withDefaults()
	type result struct {
		ex  *Extracted
		err error
	}
	var stop atomic.Bool
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{nil, limitErr(ErrUnreadable, fmt.Sprintf("panic: %v\n%s", p, clip(string(debug.Stack()), 2000)), "")}
			}
		}()
		ex, err := extract(raw, lim, &stop)
		done <- result{ex, err}
	}()
	timer := time.NewTimer(lim.Deadline)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.ex, r.err
	case <-timer.C:
		stop.Store(true) // the goroutine stops at its next check
		return nil, limitErr(ErrDeadline, fmt.Sprintf("more than %v", lim.Deadline), lim.Deadline.String())
	}
}

func extract(raw []byte, lim Limits, stop *atomic.Bool) (*Extracted, error) {
	ex := &Extracted{ownAddresses: lim.OwnAddresses}
	warn := func(format string, args ...any) {
		if len(ex.Warnings) < 50 {
			ex.Warnings = append(ex.Warnings, fmt.Sprintf(format, args...))
		}
	}
	tooLarge := int64(len(raw)) > lim.MaxRawBytes
	data := raw
	if tooLarge {
		// Read the header only, to say who sent it.
		n := min(int64(len(raw)), int64(lim.MaxHeaderBytes)+2)
		data = raw[:n]
	}
	hb, body, err := splitHeader(data, lim.MaxHeaderBytes)
	if err != nil {
		return nil, err
	}
	h, skipped := parseHeader(hb, stop)
	if skipped > 0 {
		warn("%s skipped", english.Count(skipped, "malformed header line"))
	}
	ex.readHeader(h, warn)
	if tooLarge {
		return ex, limitErr(ErrTooLarge, fmt.Sprintf("%d bytes", len(raw)), fmt.Sprintf("%d bytes", lim.MaxRawBytes))
	}

	t := &texts{lim: lim, warn: warn}
	w := &walker{lim: lim, stop: stop, warn: warn, visit: func(l leaf) { t.leaf(l, ex) }}
	if err := w.entity(0, "", h, body); err != nil {
		return ex, err
	}
	ex.Parts, ex.Depth = w.parts, w.maxDepth
	ex.Texts = t.collect()
	for _, own := range []bool{true, false} {
		for _, tx := range ex.Texts {
			if strings.TrimSpace(tx.Text) != "" && (!own || tx.Forwarded == 0) {
				ex.Text = tx.Text
				break
			}
		}
		if ex.Text != "" {
			break
		}
	}
	return ex, nil
}

// readHeader fills the header fields of ex from the message header.
func (ex *Extracted) readHeader(h header, warn func(string, ...any)) {
	froms := h.values("From")
	ex.FromHeaders = len(froms)
	for _, v := range froms {
		if len(v) > maxFromBytes {
			warn("From header of %d bytes not read (a sender's From is far shorter)", len(v))
			continue
		}
		addrs, err := gomail.ParseAddressList(v)
		if err != nil {
			warn("From %q could not be read: %v", clip(v, 80), err)
			continue
		}
		for _, a := range addrs {
			ex.FromAddresses = append(ex.FromAddresses, strings.ToLower(a.Address))
		}
		if len(froms) == 1 && len(addrs) == 1 {
			ex.From = strings.ToLower(addrs[0].Address)
			ex.FromName = addrs[0].Name
		}
	}
	ex.To = addressList(h, "To", warn)
	ex.Cc = addressList(h, "Cc", warn)
	if s := h.get("Subject"); s != "" {
		d, ok := decodeWords(s)
		if !ok {
			warn("Subject uses an unknown charset; kept as written")
		}
		ex.Subject = d
	}
	ex.MessageID = msgID(h.get("Message-Id"))
	ex.InReplyTo = msgIDs(h.get("In-Reply-To"))
	ex.References = msgIDs(h.get("References"))
	if d := h.get("Date"); d != "" {
		if t, err := netmail.ParseDate(d); err == nil {
			ex.Date = t
		} else {
			warn("Date %q could not be read", clip(d, 60))
		}
	}
	if v := h.get("Auto-Submitted"); v != "" {
		kw, _, _ := strings.Cut(v, ";")
		ex.AutoSubmitted = strings.ToLower(strings.TrimSpace(stripComment(kw)))
	}
	for _, v := range h.values("X-Loop") {
		ex.XLoop = append(ex.XLoop, strings.ToLower(strings.Trim(strings.TrimSpace(v), "<>")))
	}
	ex.Precedence = strings.ToLower(strings.TrimSpace(h.get("Precedence")))
	if h.has("Return-Path") {
		ex.HasReturnPath = true
		ex.ReturnPath = strings.TrimSpace(h.get("Return-Path"))
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond"} {
		if h.has(k) {
			ex.AutoReplyHeader = k
			break
		}
	}
	typ, params, _ := mediaType(h.get("Content-Type"))
	if typ == "" {
		typ = "text/plain"
	}
	ex.ContentType = typ
	if typ == "multipart/report" {
		ex.ReportType = strings.ToLower(params["report-type"])
	}
	ex.AuthenticationResults = h.values("Authentication-Results")
}

// stripComment removes a trailing RFC 5322 comment: "auto-replied (vacation)".
func stripComment(s string) string {
	if i := strings.IndexByte(s, '('); i >= 0 {
		return s[:i]
	}
	return s
}

// Address headers longer than these are not parsed: the address parser
// allocates a few kilobytes per address, and no real sender needs more.
const (
	maxFromBytes      = 4 << 10
	maxRecipientBytes = 16 << 10
)

func addressList(h header, key string, warn func(string, ...any)) []string {
	var out []string
	for _, v := range h.values(key) {
		if len(v) > maxRecipientBytes {
			warn("%s header of %d bytes not read", key, len(v))
			continue
		}
		addrs, err := gomail.ParseAddressList(v)
		if err != nil {
			warn("%s %q could not be read: %v", key, clip(v, 80), err)
			continue
		}
		for _, a := range addrs {
			out = append(out, strings.ToLower(a.Address))
		}
	}
	return out
}

// msgID reads one message id, with or without angle brackets.
func msgID(v string) string {
	ids := msgIDs(v)
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// msgIDs reads a list of message ids leniently: "<a@b> <c@d>", or a bare
// id as some clients write it.
func msgIDs(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var out []string
	for {
		i := strings.IndexByte(v, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(v[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(v[i+1 : i+j]); id != "" {
			out = append(out, id)
		}
		v = v[i+j+1:]
	}
	if out == nil && !strings.ContainsAny(v, " \t<>") {
		out = append(out, v)
	}
	return out
}

// texts collects the text candidates of a mail while the walker visits its
// leaves, within the text budget.
type texts struct {
	lim   Limits
	warn  func(string, ...any)
	used  int
	found []Text // in the order the walker visited them
}

func (t *texts) leaf(l leaf, ex *Extracted) {
	disp, dparams, _ := mediaType(l.h.get("Content-Disposition"))
	name := ""
	if n, ok := dparams["filename"]; ok {
		name = n
	} else if n, ok := l.params["name"]; ok {
		name = n
	}
	if name != "" {
		if d, ok := decodeWords(name); ok {
			name = d
		}
	}
	isAttachment := disp == "attachment" || name != ""
	if isAttachment {
		ex.Attachments = append(ex.Attachments, name)
	}
	lowerName := strings.ToLower(name)
	var kind TextSource
	switch {
	case strings.HasSuffix(lowerName, ".txt"), isAttachment && l.mediaType == "text/plain":
		kind = SourceAttachment
	case isAttachment:
		return
	case l.mediaType == "text/plain":
		kind = SourceBody
	case l.mediaType == "text/html":
		kind = SourceHTML
	default:
		return
	}
	if t.used >= t.lim.MaxTextBytes {
		t.warn("part %s not read: the text limit of %d bytes is used up", partName(l.path), t.lim.MaxTextBytes)
		return
	}
	// Transfer-encoded text is at most 3 bytes per decoded byte (QP); read no
	// more than the budget needs.
	enc := l.body
	if budget := 3*(t.lim.MaxTextBytes-t.used) + 4096; len(enc) > budget {
		enc = enc[:budget]
	}
	// Warnings about this text go to the mail's list and to the text's own,
	// at a line where one is known.
	var tw []TextWarning
	warnText := func(line int) func(string, ...any) {
		return func(format string, args ...any) {
			t.warn(format, args...)
			if len(tw) < 20 {
				tw = append(tw, TextWarning{Line: line, Message: fmt.Sprintf(format, args...)})
			}
		}
	}
	var transferMsgs []string
	decoded, badAt := decodeTransfer(l.h.get("Content-Transfer-Encoding"), enc, func(format string, args ...any) {
		transferMsgs = append(transferMsgs, fmt.Sprintf(format, args...))
	})
	flowed := kind != SourceHTML && strings.EqualFold(l.params["format"], "flowed")
	for _, msg := range transferMsgs {
		line := 0
		if badAt > 0 && !flowed && kind != SourceHTML {
			line = bytes.Count(decoded[:min(badAt, len(decoded))], []byte("\n")) + 1
		}
		warnText(line)("%s", msg)
	}
	// A part without a charset (an octet-stream .txt, say) is read as UTF-8
	// if it is valid, else as windows-1252.
	s := normalise(decodeCharset(l.params["charset"], decoded, warnText(0)))
	if kind == SourceHTML {
		s = htmlToText(s)
	} else if flowed {
		s = unflow(s, strings.EqualFold(l.params["delsp"], "yes"))
	}
	s, cut := cutText(s, t.lim.MaxTextBytes-t.used)
	if cut {
		warnText(strings.Count(s, "\n"))("the text was cut here: it is longer than %d bytes, and nothing after this line was read", t.lim.MaxTextBytes)
	}
	t.used += len(s)
	t.found = append(t.found, Text{Source: kind, Name: name, Part: l.path, Text: s, Truncated: cut, Forwarded: l.forwarded, Warnings: tw})
}

// collect orders the candidates: for each message, innermost forwarded
// first, the body (its inline text/plain parts joined), then attachments,
// then HTML only when that message has no plain body.
func (t *texts) collect() []Text {
	deepest := 0
	for _, x := range t.found {
		deepest = max(deepest, x.Forwarded)
	}
	var out []Text
	for level := deepest; level >= 0; level-- {
		var body []Text
		var attach, html []Text
		for _, x := range t.found {
			if x.Forwarded != level {
				continue
			}
			switch x.Source {
			case SourceBody:
				body = append(body, x)
			case SourceAttachment:
				attach = append(attach, x)
			case SourceHTML:
				html = append(html, x)
			}
		}
		if len(body) > 0 {
			b := body[0]
			for _, more := range body[1:] {
				if !strings.HasSuffix(b.Text, "\n") && b.Text != "" {
					b.Text += "\n"
				}
				offset := strings.Count(b.Text, "\n")
				for _, w := range more.Warnings {
					if w.Line > 0 {
						w.Line += offset
					}
					b.Warnings = append(b.Warnings, w)
				}
				b.Text += more.Text
				b.Truncated = b.Truncated || more.Truncated
			}
			out = append(out, b)
		}
		out = append(out, attach...)
		hasPlain := len(body) > 0 && strings.TrimSpace(body[0].Text) != ""
		if !hasPlain {
			out = append(out, html...)
		}
	}
	return out
}

// parseAddressList reads an address header value (encoded words in any
// charset go-message knows) and returns the addresses, lower-cased.
func parseAddressList(v string) ([]string, error) {
	addrs, err := gomail.ParseAddressList(v)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = strings.ToLower(a.Address)
	}
	return out, nil
}
