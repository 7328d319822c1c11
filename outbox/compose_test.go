package outbox

import (
	"bytes"
	"flag"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var gameAddress = mail.Address{Name: "Siebenjähriger Krieg — Spielleitung", Address: "orders@pbem.localhost"}

var vienna = time.FixedZone("CET", 3600)

// goldenReport is a turn report with a PDF, in German: non-ASCII in the
// subject, display names, body and file name.
func goldenReport() Message {
	return Message{
		Game: "syw", Turn: 12, Nation: "oesterreich", Kind: "report",
		From:    gameAddress,
		To:      []mail.Address{{Name: "Maria Theresia", Address: "vienna@example.org"}},
		Subject: "Zug 12: Bericht für Österreich",
		Date:    time.Date(1757, time.May, 6, 10, 0, 0, 0, vienna),
		Text: "Eure Armee steht vor Prag.\n" +
			"Eine sehr lange Zeile, die länger ist als sechsundsiebzig Zeichen, damit quoted-printable sie umbrechen muss.\n" +
			".Ein Punkt am Zeilenanfang, ein Gleichheitszeichen = und Leerzeichen am Ende   \n" +
			"-- \nDie Spielleitung\n",
		Attachments: []Attachment{{
			Filename:    "Österreich-Zug-12.pdf",
			ContentType: "application/pdf",
			Data:        []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
		}},
	}
}

// goldenAck answers a player's order mail.
func goldenAck() Message {
	return Message{
		Game: "syw", Turn: 12, Nation: "prussia", Kind: "ack", Key: "<CAF+x1@mail.gmail.com>",
		From:       mail.Address{Name: "SYW Campaign", Address: "orders@pbem.localhost"},
		To:         []mail.Address{{Address: "fritz@example.org"}},
		Subject:    "Re: Orders for turn 12",
		Date:       time.Date(1757, time.May, 6, 9, 30, 0, 0, time.UTC),
		InReplyTo:  "CAF+x1@mail.gmail.com",
		References: []string{"<first@example.org> <second@example.org>", "not an id", "<CAF+x1@mail.gmail.com>"},
		Text:       "Your orders for turn 12 were read: 3 orders, no errors.\r\n\r\nPassword accepted.",
	}
}

// TestComposeGolden compares composed messages with testdata/*.eml, byte
// for byte; run with -update to rewrite them after a deliberate change.
func TestComposeGolden(t *testing.T) {
	t.Parallel()
	for name, m := range map[string]Message{"report": goldenReport(), "ack": goldenAck()} {
		t.Run(name, func(t *testing.T) {
			got, err := Compose(m)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".eml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./outbox/ -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Compose differs from %s (run with -update if the change is meant):\n--- got ---\n%s", path, got)
			}
			again, _ := Compose(m)
			if !bytes.Equal(got, again) {
				t.Error("composing the same message twice gave different bytes")
			}
		})
	}
}

// TestComposeReadsBack parses the composed report with go-message as a mail
// client would, and finds every field and the attachment intact.
func TestComposeReadsBack(t *testing.T) {
	t.Parallel()
	m := goldenReport()
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Header.Subject(); s != m.Subject {
		t.Errorf("Subject = %q, want %q", s, m.Subject)
	}
	if from, _ := r.Header.AddressList("From"); len(from) != 1 || from[0].Name != m.From.Name || from[0].Address != m.From.Address {
		t.Errorf("From = %v", from)
	}
	if d, _ := r.Header.Date(); !d.Equal(m.Date) {
		t.Errorf("Date = %v, want %v", d, m.Date)
	}
	if id, _ := r.Header.MessageID(); "<"+id+">" != m.ID() {
		t.Errorf("Message-ID = %q, want %q", id, m.ID())
	}
	if got := r.Header.Get("Auto-Submitted"); got != "auto-generated" {
		t.Errorf("Auto-Submitted = %q", got)
	}
	if r.Header.Has("Reply-To") || r.Header.Has("Precedence") {
		t.Error("a report has Reply-To or Precedence")
	}
	var text string
	var pdf []byte
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			text = string(body)
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			ct, _, _ := h.ContentType()
			if name != m.Attachments[0].Filename || ct != "application/pdf" {
				t.Errorf("attachment %q %q", name, ct)
			}
			pdf = body
		}
	}
	if want := strings.ReplaceAll(m.Text, "\n", "\r\n"); text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
	if !bytes.Equal(pdf, m.Attachments[0].Data) {
		t.Errorf("attachment = %q", pdf)
	}
}

// TestComposeAnswerThreads: an answer carries In-Reply-To and References
// (malformed ids left out) and says it is an automatic reply.
func TestComposeAnswerThreads(t *testing.T) {
	t.Parallel()
	raw, err := Compose(goldenAck())
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"In-Reply-To":               "<CAF+x1@mail.gmail.com>",
		"References":                "<first@example.org> <second@example.org> <CAF+x1@mail.gmail.com>",
		"Auto-Submitted":            "auto-replied",
		"Precedence":                "bulk",
		"X-Loop":                    "orders@pbem.localhost",
		"X-Auto-Response-Suppress":  "All",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := msg.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestComposeRefusesOrCleans: required fields are checked, and header
// injection through addresses, names or the subject is impossible.
func TestComposeRefusesOrCleans(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(*Message){
		"no date":            func(m *Message) { m.Date = time.Time{} },
		"no kind":            func(m *Message) { m.Kind = "" },
		"no recipient":       func(m *Message) { m.To = nil },
		"bad from":           func(m *Message) { m.From.Address = "orders" },
		"address with CRLF":  func(m *Message) { m.To[0].Address = "a@example.org\r\nBcc: spy@example.org" },
		"address with name":  func(m *Message) { m.To[0].Address = "Fritz <fritz@example.org>" },
		"non-ASCII address":  func(m *Message) { m.To[0].Address = "fräulein@example.org" },
		"attachment no name": func(m *Message) { m.Attachments = []Attachment{{Data: []byte("x")}} },
		"multipart attachment": func(m *Message) {
			m.Attachments = []Attachment{{Filename: "x", ContentType: "multipart/mixed"}}
		},
	} {
		m := goldenAck()
		edit(&m)
		if _, err := Compose(m); err == nil {
			t.Errorf("%s: Compose accepted it", name)
		} else if !strings.HasPrefix(err.Error(), "outbox: ") {
			t.Errorf("%s: error %q", name, err)
		}
	}

	m := goldenAck()
	m.Subject = "Re: hello\r\nBcc: spy@example.org"
	m.To[0].Name = "Fritz\nCc: spy@example.org"
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("Bcc") != "" || msg.Header.Get("Cc") != "" {
		t.Errorf("header injection got through:\n%s", raw)
	}
}

// TestComposeBoundaryAvoidsText: text that contains the boundary the
// Message-ID would give makes Compose pick another, still deterministic.
func TestComposeBoundaryAvoidsText(t *testing.T) {
	t.Parallel()
	m := goldenReport()
	first := pickBoundary(m.ID(), nil)
	m.Text = "--" + first + "\n"
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("boundary="+first)) {
		t.Fatal("the boundary occurs in the text")
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	parts := 0
	for {
		if _, err := r.NextPart(); err != nil {
			break
		}
		parts++
	}
	if parts != 2 {
		t.Errorf("%d parts, want 2", parts)
	}
}

// TestMessageID: ids read well, are valid msg-ids, and differ whenever an
// argument differs, even where the readable parts are the same.
func TestMessageID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		domain, game      string
		turn              int
		nation, kind, key string
		want              string
	}{
		{"pbem.localhost", "syw", 12, "prussia", "report", "", "<syw.t12.prussia.report.391460278619f0af@pbem.localhost>"},
		{"PBEM.localhost.", "syw", 12, "prussia", "report", "", "<syw.t12.prussia.report.391460278619f0af@pbem.localhost>"},
		{"pbem.localhost", "syw", -1, "", "delivery-failure", "<x@y> 2026", "<syw._.delivery-failure.-x-y--2026.573d5b555e097137@pbem.localhost>"},
		{"", "syw", 0, "Österreich", "ack", "", "<syw.t0.-sterreich.ack.be891c19fc8ce88a@pbem.invalid>"},
	} {
		got := MessageID(c.domain, c.game, c.turn, c.nation, c.kind, c.key)
		if got != c.want {
			t.Errorf("MessageID(%q, %q, %d, %q, %q, %q) = %q, want %q", c.domain, c.game, c.turn, c.nation, c.kind, c.key, got, c.want)
		}
		var h gomail.Header
		h.Set("Message-Id", got)
		if id, err := h.MessageID(); err != nil || "<"+id+">" != got {
			t.Errorf("%q does not parse as a msg-id: %v", got, err)
		}
	}
	seen := map[string]string{}
	for _, args := range [][]string{
		{"syw", "prussia", "report", ""}, {"syw", "prussia", "report", "a"}, {"syw", "prussia", "report", "A"},
		{"syw", "prussia", "report", "a b"}, {"syw", "prussia", "report", "a-b"}, {"syw", "prussia", "ack", ""},
		{"syw", "prussia ", "report", ""}, {"sy", "wprussia", "report", ""}, {"", "prussia", "report", ""},
	} {
		id := MessageID("pbem.localhost", args[0], 1, args[1], args[2], args[3])
		if prev, ok := seen[id]; ok {
			t.Errorf("%q and %q share the id %s", prev, args, id)
		}
		seen[id] = strings.Join(args, "|")
	}
}

// TestMessageIDTurn: the turn comes back out of every id MessageID makes
// for a turn, and out of none made for no turn.
func TestMessageIDTurn(t *testing.T) {
	t.Parallel()
	for _, turn := range []int{0, 1, 3, 120} {
		id := MessageID("pbem.localhost", "syw", turn, "referee", "outage", "k.ey")
		if got, ok := MessageIDTurn(id); !ok || got != turn {
			t.Errorf("MessageIDTurn(%s) = %d, %v; want %d", id, got, ok, turn)
		}
	}
	for _, id := range []string{MessageID("pbem.localhost", "syw", -1, "referee", "notice", ""), "<abc@x>", "t3", "<syw.t3x.a.b@x>"} {
		if got, ok := MessageIDTurn(id); ok {
			t.Errorf("MessageIDTurn(%s) = %d, want none", id, got)
		}
	}
}
