package outbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/textproto"

	"github.com/syw-pbem/pbem/store"
)

// KindDeliveryFailure is the Kind of the message that tells the referee a
// message could not be delivered. A failed message of this kind is not
// reported again, so failures cannot loop.
const KindDeliveryFailure = "delivery-failure"

// Limits that keep every header line within SMTP's 998 octets and the
// References chain short, as mail clients expect.
const (
	maxSubjectRunes  = 200 // longer subjects are cut and end with "…"
	maxFilenameBytes = 80  // longer attachment names are cut, keeping the extension
	maxReferences    = 10  // only the last ids of a long References chain are kept
	maxLine          = 998 // RFC 5321 §4.5.3.1.6, without the CRLF
)

// Message is one mail for Compose: who it is from and to, what it says, and
// what it is about (Game, Turn, Nation, Kind and Key make its Message-ID).
type Message struct {
	// Game is the game's id; "" for mail that belongs to no game.
	Game string
	// Turn is the turn the mail is about; below 0 for mail that belongs to
	// no turn.
	Turn int
	// Nation is the nation the mail is for or about; "" for none (mail to
	// the referee, say).
	Nation string
	// Kind says what the mail is, such as "ack", "report" or "referee".
	// Required.
	Kind string
	// Key tells apart several mails of the same game, turn, nation and
	// kind (for an answer, the Message-ID of the mail answered). May be "".
	Key string
	// Priority is the message's place in the send order under a pace
	// (doc.go, "Priority"): PriorityAnswer, PriorityReport (the default,
	// "") or PriorityNotice. It is not part of the bytes.
	Priority Priority

	// From is the game's address and display name. Required; its domain
	// is the Message-ID's domain.
	From mail.Address
	// To are the recipients: header To and envelope RCPT TO alike. At
	// least one. An answer goes to the registered address the caller
	// gives, never to a Reply-To of the mail answered. Addresses repeated
	// (ignoring case) are kept once.
	To []mail.Address
	// Subject is plain text; non-ASCII is RFC 2047 encoded. Control
	// characters become spaces, and a subject longer than 200 characters
	// is cut.
	Subject string
	// Date is the Date header. Required: the outbox never reads the clock
	// to build a message, so the same Message always gives the same bytes.
	Date time.Time

	// InReplyTo is the Message-ID of the mail this one answers, angle
	// brackets optional; "" for none. A message with InReplyTo is an
	// automatic answer (Auto-Submitted: auto-replied, Precedence: bulk);
	// without it, automatically generated (Auto-Submitted: auto-generated).
	InReplyTo string
	// References is the References list of the mail answered (or its
	// Message-ID alone); InReplyTo is appended if it is not last already,
	// and only the last 10 ids are kept. Ids that are not well-formed
	// (whitespace, missing '@') are left out of In-Reply-To and References
	// alike, so a malformed id in a player's mail never stops the answer.
	References []string

	// Text is the body, UTF-8 plain text; line ends may be LF or CRLF.
	// Invalid UTF-8 sequences become U+FFFD. It is sent quoted-printable.
	Text string
	// Attachments follow the text in a multipart/mixed body, in order.
	Attachments []Attachment
}

// Priority is a message's place in the send order when the outbox sends at
// a pace: every due answer before any due report, every due report before
// any due reminder or notice (doc.go, "Priority").
type Priority string

// The priorities.
const (
	// PriorityAnswer: the answer to a mail someone just sent (a sheet, the
	// referee's commands): its sender is waiting for it.
	PriorityAnswer Priority = "answer"
	// PriorityReport: a turn's reports; the default ("").
	PriorityReport Priority = "report"
	// PriorityNotice: reminders, notices, failure reports: mail nobody is
	// waiting for at this moment.
	PriorityNotice Priority = "notice"
)

// rank is the store's number for p (lower goes first).
func (p Priority) rank() int {
	switch p {
	case PriorityAnswer:
		return store.OutboxAnswer
	case PriorityNotice:
		return store.OutboxNotice
	}
	return store.OutboxReport
}

// Attachment is a file sent with a Message, base64 encoded.
type Attachment struct {
	// Filename is the name the recipient sees, such as "turn-12.pdf";
	// path separators and control characters become '_', and names over
	// 80 bytes are cut (keeping the extension). Required.
	Filename string
	// ContentType is the media type, such as "application/pdf". Default
	// "application/octet-stream".
	ContentType string
	// Data is the file's content; several megabytes are fine.
	Data []byte
}

// ID returns the message's Message-ID (see MessageID), or "" if From has
// no domain.
func (m *Message) ID() string {
	_, domain, ok := strings.Cut(m.From.Address, "@")
	if !ok || domain == "" {
		return ""
	}
	return MessageID(domain, m.Game, m.Turn, m.Nation, m.Kind, m.Key)
}

// MessageID returns the Message-ID header value (angle brackets included)
// for a mail about (game, turn, nation, kind, key) sent from domain. It is
// a pure function of its arguments, so composing a message again gives the
// same id, and a recipient who gets a resend sees one message.
//
// The id reads as game.tTURN.nation.kind[.key].HASH@domain: the readable
// parts are lower-cased, characters other than a–z, 0–9 and '-' become
// '-', each is cut to 24 characters, an empty part is '_', and the turn is
// left out when it is below 0. HASH is the first 16 hex digits of a SHA-256
// over all six arguments exactly, so ids differ whenever the arguments do,
// whatever the readable parts lost. A domain that is not a plain host name
// is replaced by "pbem.invalid".
func MessageID(domain, game string, turn int, nation, kind, key string) string {
	d := idDomain(domain)
	h := sha256.New()
	for _, s := range []string{d, game, strconv.Itoa(turn), nation, kind, key} {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	parts := []string{idAtom(game)}
	if turn >= 0 {
		parts = append(parts, "t"+strconv.Itoa(turn))
	}
	parts = append(parts, idAtom(nation), idAtom(kind))
	if key != "" {
		parts = append(parts, idAtom(key))
	}
	parts = append(parts, hex.EncodeToString(h.Sum(nil))[:16])
	return "<" + strings.Join(parts, ".") + "@" + d + ">"
}

// MessageIDTurn reads the turn back from a Message-ID MessageID made
// (angle brackets optional): the "tN" part after the game's. ok is false for
// an id without one (a mail that belongs to no turn, or not pbem's). A
// mail of no turn for a nation whose id is "t" and digits would read as one
// of that turn; pbem's nation ids are names.
func MessageIDTurn(id string) (turn int, ok bool) {
	id = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(id), "<"), ">")
	local, _, found := strings.Cut(id, "@")
	if !found {
		return 0, false
	}
	parts := strings.Split(local, ".")
	if len(parts) < 5 || len(parts[1]) < 2 || parts[1][0] != 't' {
		return 0, false
	}
	n, err := strconv.Atoi(parts[1][1:])
	if err != nil || n < 0 || strconv.Itoa(n) != parts[1][1:] {
		return 0, false
	}
	return n, true
}

// idAtom makes s a readable dot-atom part.
func idAtom(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if b.Len() >= 24 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// idDomain lower-cases a host name, or gives "pbem.invalid" (RFC 2606) for
// anything that is not one.
func idDomain(d string) string {
	d = strings.ToLower(strings.TrimSuffix(d, "."))
	if d == "" || len(d) > 253 || strings.HasPrefix(d, ".") || strings.Contains(d, "..") {
		return "pbem.invalid"
	}
	for _, r := range d {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return "pbem.invalid"
		}
	}
	return d
}

// Row composes m and returns the outbox row that carries it: pending, due
// at m.Date, with m's Message-ID, game, kind and recipients. It is what the
// daemon passes to store.CommitTurn so a turn and its reports commit
// together; Outbox.Enqueue stores one on its own.
func Row(m Message) (store.OutboxMessage, error) {
	raw, err := Compose(m)
	if err != nil {
		return store.OutboxMessage{}, err
	}
	rcpt := make([]string, 0, len(m.To))
	for _, a := range dedupe(m.To) {
		rcpt = append(rcpt, a.Address)
	}
	return store.OutboxMessage{
		MessageID:     m.ID(),
		GameID:        m.Game,
		Kind:          m.Kind,
		Priority:      m.Priority.rank(),
		Recipients:    rcpt,
		Raw:           raw,
		State:         store.OutboxPending,
		NextAttemptAt: m.Date,
		CreatedAt:     m.Date,
	}, nil
}

// Compose renders m to the exact bytes that go on the wire. The same m
// always gives the same bytes. An error says which field is wrong and how.
func Compose(m Message) ([]byte, error) {
	if err := check(&m); err != nil {
		return nil, err
	}
	id := m.ID()
	text := qpText(m.Text)

	size := len(text) + 2048
	for _, a := range m.Attachments {
		size += len(a.Data)/57*78 + 512
	}
	var buf bytes.Buffer
	buf.Grow(size)

	h := topHeader(&m, id)
	if len(m.Attachments) == 0 {
		h = append(h, field{k: "Content-Type", v: "text/plain; charset=utf-8"},
			field{k: "Content-Transfer-Encoding", v: "quoted-printable"})
		if err := textproto.WriteHeader(&buf, h.header()); err != nil {
			return nil, fmt.Errorf("outbox: composing %s: %w", id, err)
		}
		buf.Write(text)
	} else {
		boundary := pickBoundary(id, text)
		h = append(h, field{k: "Content-Type", v: mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": boundary})})
		if err := textproto.WriteHeader(&buf, h.header()); err != nil {
			return nil, fmt.Errorf("outbox: composing %s: %w", id, err)
		}
		mw := textproto.NewMultipartWriter(&buf)
		if err := mw.SetBoundary(boundary); err != nil {
			return nil, fmt.Errorf("outbox: composing %s: %w", id, err)
		}
		tw, err := mw.CreatePart(fieldList{
			{k: "Content-Type", v: "text/plain; charset=utf-8"},
			{k: "Content-Transfer-Encoding", v: "quoted-printable"},
		}.header())
		if err != nil {
			return nil, fmt.Errorf("outbox: composing %s: %w", id, err)
		}
		tw.Write(text)
		for _, a := range m.Attachments {
			aw, err := mw.CreatePart(attachmentHeader(a).header())
			if err != nil {
				return nil, fmt.Errorf("outbox: composing %s: attachment %q: %w", id, a.Filename, err)
			}
			writeBase64(aw, a.Data)
		}
		if err := mw.Close(); err != nil {
			return nil, fmt.Errorf("outbox: composing %s: %w", id, err)
		}
	}
	out := buf.Bytes()
	if err := wireSafe(out); err != nil {
		return nil, fmt.Errorf("outbox: composing %s: the result cannot be sent unchanged (a bug in pbem): %w", id, err)
	}
	return out, nil
}

// check validates m and normalises its free-text fields in place.
func check(m *Message) error {
	if strings.TrimSpace(m.Kind) == "" {
		return errors.New("outbox: the message has no Kind; say what it is, such as \"report\" or \"ack\"")
	}
	if m.Date.IsZero() {
		return errors.New("outbox: the message has no Date; pass the time it is composed (the outbox never reads the clock)")
	}
	if err := checkAddress("From", m.From.Address); err != nil {
		return err
	}
	if len(m.To) == 0 {
		return errors.New("outbox: the message has no recipient; give at least one To address")
	}
	for i, a := range m.To {
		if err := checkAddress(fmt.Sprintf("To[%d]", i), a.Address); err != nil {
			return err
		}
	}
	m.To = dedupe(m.To)
	m.From.Name = oneLine(m.From.Name)
	for i := range m.To {
		m.To[i].Name = oneLine(m.To[i].Name)
	}
	m.Subject = cutRunes(oneLine(m.Subject), maxSubjectRunes)
	m.Text = strings.ToValidUTF8(m.Text, "\uFFFD")
	atts := make([]Attachment, len(m.Attachments))
	for i, a := range m.Attachments {
		a.Filename = safeFilename(a.Filename)
		if a.Filename == "" {
			return fmt.Errorf("outbox: attachment %d has no file name; give one such as \"turn-12.pdf\"", i+1)
		}
		if a.ContentType == "" {
			a.ContentType = "application/octet-stream"
		}
		mt, params, err := mime.ParseMediaType(a.ContentType)
		if err != nil || len(params) > 0 || strings.HasPrefix(mt, "multipart/") || strings.HasPrefix(mt, "message/") {
			return fmt.Errorf("outbox: attachment %q: content type %q is not a plain media type such as application/pdf",
				a.Filename, a.ContentType)
		}
		a.ContentType = mt
		atts[i] = a
	}
	m.Attachments = atts
	return nil
}

// checkAddress accepts a plain ASCII addr-spec (local@domain), nothing
// more: no display name, no angle brackets, no comments.
func checkAddress(what, a string) error {
	bad := func(why string) error {
		return fmt.Errorf("outbox: %s address %q %s; give a plain address such as eisenmark@example.org", what, a, why)
	}
	if a == "" {
		return bad("is empty")
	}
	for _, r := range a {
		if r <= ' ' || r > '~' {
			return bad("has a space, a control character or a non-ASCII character")
		}
	}
	p, err := mail.ParseAddress(a)
	if err != nil || p.Name != "" || p.Address != a {
		return bad("is not a mail address")
	}
	local, domain, _ := strings.Cut(a, "@")
	if local == "" || domain == "" || strings.HasPrefix(domain, "[") {
		return bad("has no domain name")
	}
	return nil
}

func dedupe(as []mail.Address) []mail.Address {
	out := make([]mail.Address, 0, len(as))
	seen := make(map[string]bool, len(as))
	for _, a := range as {
		k := strings.ToLower(a.Address)
		if !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

// oneLine makes s fit in a header: valid UTF-8, control characters as
// spaces, outer spaces trimmed.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func safeFilename(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '"' {
			return '_'
		}
		return r
	}, oneLine(s))
	if len(s) <= maxFilenameBytes {
		return s
	}
	ext := ""
	if i := strings.LastIndexByte(s, '.'); i > 0 && len(s)-i <= 10 {
		ext = s[i:]
	}
	stem := s[:maxFilenameBytes-len(ext)]
	for !utf8.ValidString(stem) {
		stem = stem[:len(stem)-1]
	}
	return stem + ext
}

// field is one header field. raw fields are written exactly as given
// ("Key: value"), for short values whose spelling matters (Message-ID).
type field struct {
	k, v string
	raw  bool
}

type fieldList []field

// header builds a go-message header that writes the fields in list order
// (go-message writes the most recently added field first).
func (fl fieldList) header() textproto.Header {
	var h textproto.Header
	for i := len(fl) - 1; i >= 0; i-- {
		if fl[i].raw {
			h.AddRaw([]byte(fl[i].k + ": " + fl[i].v + "\r\n"))
		} else {
			h.Add(fl[i].k, fl[i].v)
		}
	}
	return h
}

const dateLayout = "Mon, 02 Jan 2006 15:04:05 -0700"

func topHeader(m *Message, id string) fieldList {
	to := make([]string, len(m.To))
	for i := range m.To {
		to[i] = m.To[i].String()
	}
	h := fieldList{
		{k: "From", v: m.From.String()},
		{k: "To", v: strings.Join(to, ", ")},
		{k: "Subject", v: mime.QEncoding.Encode("utf-8", m.Subject)},
		{k: "Date", v: m.Date.Format(dateLayout)},
		{k: "Message-ID", v: id, raw: true},
	}
	parent := msgID(m.InReplyTo)
	var refs []string
	for _, r := range m.References {
		for _, one := range strings.Fields(r) {
			if id := msgID(one); id != "" {
				refs = append(refs, id)
			}
		}
	}
	if parent != "" {
		h = append(h, field{k: "In-Reply-To", v: parent})
		if len(refs) == 0 || refs[len(refs)-1] != parent {
			refs = append(refs, parent)
		}
	}
	if len(refs) > maxReferences {
		refs = refs[len(refs)-maxReferences:]
	}
	if len(refs) > 0 {
		h = append(h, field{k: "References", v: strings.Join(refs, " ")})
	}
	if m.InReplyTo != "" {
		h = append(h, field{k: "Auto-Submitted", v: "auto-replied"}, field{k: "Precedence", v: "bulk"})
	} else {
		h = append(h, field{k: "Auto-Submitted", v: "auto-generated"})
	}
	h = append(h,
		field{k: "X-Auto-Response-Suppress", v: "All"},
		field{k: "X-Loop", v: strings.ToLower(m.From.Address)},
		field{k: "MIME-Version", v: "1.0", raw: true},
	)
	return h
}

// msgID returns id as "<...>" if it is a well-formed msg-id, else "".
func msgID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	if id == "" || len(id) > 250 || !strings.Contains(id, "@") {
		return ""
	}
	for _, r := range id {
		if r <= ' ' || r > '~' || r == '<' || r == '>' {
			return ""
		}
	}
	return "<" + id + ">"
}

func attachmentHeader(a Attachment) fieldList {
	return fieldList{
		{k: "Content-Type", v: mime.FormatMediaType(a.ContentType, map[string]string{"name": a.Filename})},
		{k: "Content-Disposition", v: mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename})},
		{k: "Content-Transfer-Encoding", v: "base64"},
	}
}

// qpText encodes the body as quoted-printable with CRLF line ends, ending
// with a line break.
func qpText(s string) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	var b bytes.Buffer
	b.Grow(len(s) + len(s)/8)
	w := quotedprintable.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.Bytes()
}

// pickBoundary derives the multipart boundary from the Message-ID, so the
// same message always has the same boundary. Base64 never contains '-'; the
// quoted-printable text could, if someone typed the boundary into an order
// sheet that is quoted back, so the next candidate is taken until it does
// not occur in the text.
func pickBoundary(id string, text []byte) string {
	for n := 0; ; n++ {
		sum := sha256.Sum256([]byte("pbem-boundary " + strconv.Itoa(n) + " " + id))
		b := "pbem-" + hex.EncodeToString(sum[:16])
		if !bytes.Contains(text, []byte("--"+b)) {
			return b
		}
	}
}

// wireSafe reports whether raw goes through SMTP DATA unchanged: CRLF line
// ends only, no line longer than 998 octets, no NUL, a final CRLF.
func wireSafe(raw []byte) error {
	line := 0
	for i, c := range raw {
		switch c {
		case '\r':
			if i+1 >= len(raw) || raw[i+1] != '\n' {
				return fmt.Errorf("a bare CR at byte %d", i)
			}
		case '\n':
			if i == 0 || raw[i-1] != '\r' {
				return fmt.Errorf("a bare LF at byte %d", i)
			}
			line = 0
			continue
		case 0:
			return fmt.Errorf("a NUL at byte %d", i)
		}
		if c != '\r' {
			line++
			if line > maxLine {
				return fmt.Errorf("a line longer than %d octets at byte %d", maxLine, i)
			}
		}
	}
	if !bytes.HasSuffix(raw, []byte("\r\n")) {
		return errors.New("no final CRLF")
	}
	return nil
}

// writeBase64 writes data base64 encoded in lines of 76 characters
// separated by CRLF (RFC 2045 §6.8); the multipart writer adds the CRLF
// that ends the last line.
func writeBase64(w io.Writer, data []byte) {
	const in, out = 57, 76
	line := make([]byte, out+2)
	for i := 0; i < len(data); i += in {
		chunk := data[i:min(i+in, len(data))]
		n := base64.StdEncoding.EncodedLen(len(chunk))
		base64.StdEncoding.Encode(line, chunk)
		if i+in < len(data) {
			line[n], line[n+1] = '\r', '\n'
			n += 2
		}
		w.Write(line[:n])
	}
}
