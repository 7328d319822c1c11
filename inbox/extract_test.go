package inbox

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

// crlf turns a readable test mail (LF line ends) into wire form.
func crlf(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }

const sheet = "GAME syw TURN 3 NATION prussia\nPASSWORD sesame\nA1 MOVE TO 0412\nEND\n"

func TestExtractPlainMail(t *testing.T) {
	t.Parallel()
	raw := crlf(`Return-Path: <Fritz@Example.ORG>
From: "Friedrich II" <Fritz@Example.ORG>
To: orders@pbem.example
Subject: =?utf-8?q?Befehle_f=C3=BCr_Zug_3?=
Date: Mon, 3 Mar 1757 10:00:00 +0100
Message-ID: <turn3.prussia@example.org>
In-Reply-To: <report2@pbem.example>
References: <report1@pbem.example> <report2@pbem.example>
Content-Type: text/plain; charset=utf-8

` + sheet)
	ex, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"From": ex.From, "FromName": ex.FromName, "Subject": ex.Subject, "MessageID": ex.MessageID,
		"ReturnPath": ex.ReturnPath, "ContentType": ex.ContentType,
	}
	for k, v := range map[string]string{
		"From": "fritz@example.org", "FromName": "Friedrich II", "Subject": "Befehle für Zug 3",
		"MessageID": "turn3.prussia@example.org", "ReturnPath": "<Fritz@Example.ORG>", "ContentType": "text/plain",
	} {
		if want[k] != v {
			t.Errorf("%s = %q, want %q", k, want[k], v)
		}
	}
	if ex.Text != sheet {
		t.Errorf("Text = %q, want %q", ex.Text, sheet)
	}
	if ex.FromHeaders != 1 || len(ex.FromAddresses) != 1 {
		t.Errorf("FromHeaders %d, FromAddresses %v", ex.FromHeaders, ex.FromAddresses)
	}
	if got := strings.Join(ex.References, " "); got != "report1@pbem.example report2@pbem.example" {
		t.Errorf("References = %q", got)
	}
	if len(ex.InReplyTo) != 1 || ex.InReplyTo[0] != "report2@pbem.example" {
		t.Errorf("InReplyTo = %v", ex.InReplyTo)
	}
	if ex.Date.IsZero() || ex.Date.Year() != 1757 {
		t.Errorf("Date = %v", ex.Date)
	}
	if auto, why := ex.IsAutomatic(); auto {
		t.Errorf("a player's mail is automatic: %s", why)
	}
	if len(ex.Warnings) != 0 {
		t.Errorf("warnings: %v", ex.Warnings)
	}
}

// TestExtractClientQuirks reads the texts real mail clients produce; each
// must come out as the sheet the player typed.
func TestExtractClientQuirks(t *testing.T) {
	t.Parallel()
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := []struct {
		name     string
		raw      string
		want     string     // Text
		attach   string     // a Texts entry from this attachment must equal want
		source   TextSource // Source of Texts[0]
		warnings int        // at least this many warnings
	}{
		{name: "format=flowed", raw: `From: a@example.org
Content-Type: text/plain; charset=utf-8; format=flowed

GAME syw TURN 3 NATION prussia 
PASSWORD sesame
A1 MOVE TO 0412
 From the stuffed line
-- 
sig
`, want: "GAME syw TURN 3 NATION prussia PASSWORD sesame\nA1 MOVE TO 0412\nFrom the stuffed line\n-- \nsig\n", source: SourceBody},
		{name: "format=flowed delsp=yes", raw: `From: a@example.org
Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes

A1 MOVE TO 04 
12
> quoted  
> flowed
`, want: "A1 MOVE TO 0412\n> quoted flowed\n", source: SourceBody},
		{name: "windows-1252", raw: "From: a@example.org\nContent-Type: text/plain; charset=windows-1252\nContent-Transfer-Encoding: 8bit\n\n\x93Sch\xf6n\x94 \x96 A1\n",
			want: "“Schön” – A1\n", source: SourceBody},
		{name: "latin-1 label with windows-1252 bytes", raw: "From: a@example.org\nContent-Type: text/plain; charset=iso-8859-1\n\n\x93x\x94 \xe9\n",
			want: "“x” é\n", source: SourceBody},
		{name: "utf-8 label on latin-1 bytes", raw: "From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\nM\xfcnster\n",
			want: "Münster\n", source: SourceBody, warnings: 1},
		{name: "koi8-r", raw: "From: a@example.org\nContent-Type: text/plain; charset=koi8-r\n\n\xf0\xd2\xc9\xd7\xc5\xd4\n",
			want: "Привет\n", source: SourceBody},
		{name: "CRLF and BOM", raw: "From: a@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\ufeffA1 MOVE\r\nA2 HOLD\r\n",
			want: "A1 MOVE\nA2 HOLD\n", source: SourceBody},
		{name: "quoted-printable", raw: "From: a@example.org\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nM=C3=BCnster =\nand on=3D\n",
			want: "Münster and on=\n", source: SourceBody},
		{name: "broken quoted-printable", raw: "From: a@example.org\nContent-Transfer-Encoding: quoted-printable\n\nA1 =ZZ MOVE =4\n",
			want: "A1 =ZZ MOVE =4\n", source: SourceBody, warnings: 1},
		{name: "broken base64", raw: "From: a@example.org\nContent-Transfer-Encoding: base64\n\n" + b64("A1 MOVE TO 0412\n") + "!!*\n",
			want: "A1 MOVE TO 0412\n", source: SourceBody, warnings: 1},
		{name: "base64 in blocks", raw: "From: a@example.org\nContent-Transfer-Encoding: base64\n\n" + b64("A1 ") + "\n" + b64("MOVE\n") + "\n",
			want: "A1 MOVE\n", source: SourceBody},
		{name: "unknown charset", raw: "From: a@example.org\nContent-Type: text/plain; charset=x-klingon\n\nA1 MOVE\n",
			want: "A1 MOVE\n", source: SourceBody, warnings: 1},
		{name: "unknown charset, 8-bit", raw: "From: a@example.org\nContent-Type: text/plain; charset=x-klingon\n\nM\xfcnster\n",
			want: "Münster\n", source: SourceBody, warnings: 1},
		{name: "unknown transfer encoding", raw: "From: a@example.org\nContent-Transfer-Encoding: x-rot13\n\nA1 MOVE\n",
			want: "A1 MOVE\n", source: SourceBody, warnings: 1},
		{name: "no Content-Type", raw: "From: a@example.org\n\nA1 MOVE\n", want: "A1 MOVE\n", source: SourceBody},
		{name: "HTML only (Gmail)", raw: `From: a@example.org
Content-Type: text/html; charset=utf-8

<html><head><style>div{color:red}</style><title>t</title></head><body><div dir="ltr"><div>GAME syw TURN 3</div><div>A1&nbsp;MOVE&nbsp;TO 0412</div><div><br></div><div>Fish &amp; chips &lt;3 &#8211; &eacute;</div><script>alert("x>y")</script></div></body></html>`,
			want: "GAME syw TURN 3\nA1 MOVE TO 0412\n\nFish & chips <3 – é\n", source: SourceHTML},
		{name: "HTML only (Outlook)", raw: `From: a@example.org
Content-Type: text/html; charset=windows-1252
Content-Transfer-Encoding: quoted-printable

<html><body lang=3D"EN-GB"><!-- comment <p> --><p class=3DMsoNormal>A1 MOVE<o:p></o:p></p>
<p class=3DMsoNormal>A2    HOLD<o:p></o:p></p><pre>  keep
   this</pre>a < b</body></html>`,
			want: "A1 MOVE\nA2 HOLD\n  keep\n   this\na < b\n", source: SourceHTML},
		{name: "plain and HTML alternative", raw: `From: a@example.org
Content-Type: multipart/alternative; boundary="alt"

--alt
Content-Type: text/plain; charset=utf-8

A1 MOVE
--alt
Content-Type: text/html; charset=utf-8

<div>A1 MOVE</div>
--alt--
`, want: "A1 MOVE", source: SourceBody},
		{name: "orders in a .txt attachment", raw: `From: a@example.org
Content-Type: multipart/mixed; boundary="mix"

preamble
--mix
Content-Type: text/plain; charset=utf-8

Orders attached.
--mix
Content-Type: text/plain; charset=windows-1252; name="orders.txt"
Content-Disposition: attachment; filename="orders.txt"
Content-Transfer-Encoding: base64

` + b64(sheet) + `
--mix
Content-Type: image/png; name="map.png"
Content-Disposition: attachment; filename="map.png"
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--mix--
epilogue
`, want: "Orders attached.", attach: "orders.txt", source: SourceBody},
		{name: "octet-stream .txt only", raw: `From: a@example.org
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: application/octet-stream
Content-Disposition: attachment; filename*=utf-8''Befehle%20Zug%203.txt

` + sheet + `
--b--
`, want: sheet, attach: "Befehle Zug 3.txt", source: SourceAttachment},
		{name: "nested multipart with inline parts", raw: `From: a@example.org
Content-Type: multipart/mixed; boundary=outer

--outer
Content-Type: multipart/alternative; boundary=inner

--inner
Content-Type: text/plain

part one
--inner
Content-Type: text/html

<p>part one</p>
--inner--
--outer
Content-Type: text/plain
Content-Disposition: inline

part two
--outer--
`, want: "part one\npart two", source: SourceBody},
		{name: "missing closing boundary", raw: `From: a@example.org
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

A1 MOVE
`, want: "A1 MOVE\n", source: SourceBody, warnings: 1},
		{name: "headerless part", raw: "From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b\nA1 MOVE\n--b--\n",
			want: "A1 MOVE", source: SourceBody},
		{name: "boundary with transport padding", raw: "From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b  \n\nA1 MOVE\n--b-- \n",
			want: "A1 MOVE", source: SourceBody},
		{name: "broken Content-Type", raw: "From: a@example.org\nContent-Type: text/plain; charset\n\nA1 MOVE\n",
			want: "A1 MOVE\n", source: SourceBody, warnings: 1},
		{name: "malformed header line", raw: "From: a@example.org\nthis is not a header\nSubject: x\n\nA1 MOVE\n",
			want: "A1 MOVE\n", source: SourceBody, warnings: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex, err := Extract(crlfIfLF(c.raw), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if ex.Text != c.want {
				t.Errorf("Text = %q\nwant   %q", ex.Text, c.want)
			}
			if len(ex.Texts) == 0 || ex.Texts[0].Source != c.source {
				t.Errorf("Texts = %+v, want the first from %s", ex.Texts, c.source)
			}
			if c.attach != "" {
				found := false
				for _, tx := range ex.Texts {
					if tx.Source == SourceAttachment && tx.Name == c.attach && tx.Text == sheet {
						found = true
					}
				}
				if !found {
					t.Errorf("no attachment %q holding the sheet in %+v", c.attach, ex.Texts)
				}
			}
			if len(ex.Warnings) < c.warnings {
				t.Errorf("warnings %v, want at least %d", ex.Warnings, c.warnings)
			}
			if c.warnings == 0 && len(ex.Warnings) > 0 {
				t.Errorf("unexpected warnings %v", ex.Warnings)
			}
			if ex.From != "a@example.org" {
				t.Errorf("From = %q", ex.From)
			}
		})
	}
}

// crlfIfLF gives a test mail CRLF line ends unless it has them already.
func crlfIfLF(s string) []byte {
	if strings.Contains(s, "\r\n") {
		return []byte(s)
	}
	return crlf(s)
}

func TestExtractAttachmentNames(t *testing.T) {
	t.Parallel()
	raw := crlf(`From: a@example.org
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

hi
--b
Content-Type: application/pdf; name="=?utf-8?q?Z=C3=BCge.pdf?="
Content-Disposition: attachment

%PDF
--b
Content-Type: image/png
Content-Disposition: attachment

x
--b--
`)
	ex, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ex.Attachments, "|"); got != "Züge.pdf|" {
		t.Errorf("Attachments = %q", got)
	}
	if ex.Parts != 3 || ex.Depth != 1 {
		t.Errorf("Parts %d Depth %d, want 3 and 1", ex.Parts, ex.Depth)
	}
}

func TestExtractTextLimit(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("A1 MOVE TO 0412 ", 4) + "\n"
	raw := crlf("From: a@example.org\n\n" + strings.Repeat(line, 2000))
	ex, err := Extract(raw, Limits{MaxTextBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Text) > 1000 || len(ex.Text) < 900 || !strings.HasSuffix(ex.Text, "\n") {
		t.Errorf("text of %d bytes, want just under 1000 ending at a line end", len(ex.Text))
	}
	if !ex.Texts[0].Truncated || len(ex.Warnings) == 0 {
		t.Errorf("cut text not reported: %+v %v", ex.Texts[0].Truncated, ex.Warnings)
	}
}

func TestExtractTooLargeKeepsHeader(t *testing.T) {
	t.Parallel()
	raw := crlf("From: Big <big@example.org>\nSubject: map\n\n" + strings.Repeat("x", 3000))
	ex, err := Extract(raw, Limits{MaxRawBytes: 1000})
	var le *LimitError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &le) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if ex == nil || ex.From != "big@example.org" || ex.Subject != "map" || ex.Text != "" {
		t.Fatalf("Extracted = %+v, want the header only", ex)
	}
	if !strings.Contains(le.Reason(), "too large") {
		t.Errorf("Reason() = %q", le.Reason())
	}
}

func TestIsAutomatic(t *testing.T) {
	t.Parallel()
	own := Limits{OwnAddresses: []string{"Orders@pbem.example"}}
	cases := []struct {
		name   string
		header string
		lim    Limits
		auto   bool
	}{
		{"person", "From: a@example.org\n", own, false},
		{"Auto-Submitted: no", "From: a@example.org\nAuto-Submitted: no\n", own, false},
		{"vacation", "From: a@example.org\nAuto-Submitted: auto-replied (vacation)\n", own, true},
		{"auto-generated", "From: a@example.org\nAuto-Submitted: auto-generated\n", own, true},
		{"our X-Loop", "From: a@example.org\nX-Loop: orders@pbem.example\n", own, true},
		{"other X-Loop", "From: a@example.org\nX-Loop: list@lists.example\n", own, false},
		{"any X-Loop without own addresses", "From: a@example.org\nX-Loop: list@lists.example\n", Limits{}, true},
		{"Precedence bulk", "From: a@example.org\nPrecedence: bulk\n", own, true},
		{"Precedence junk", "From: a@example.org\nPrecedence: Junk\n", own, true},
		{"Precedence list", "From: a@example.org\nPrecedence: list\n", own, true},
		{"X-Autoreply", "From: a@example.org\nX-Autoreply: yes\n", own, true},
		{"null Return-Path", "From: a@example.org\nReturn-Path: <>\n", own, true},
		{"Return-Path", "From: a@example.org\nReturn-Path: <a@example.org>\n", own, false},
		{"MAILER-DAEMON", "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n", own, true},
		{"postmaster", "From: postmaster@example.org\n", own, true},
		{"DSN", "From: a@example.org\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\n", own, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex, err := Extract(crlf(c.header+"\nbody\n"), c.lim)
			if err != nil {
				t.Fatal(err)
			}
			auto, why := ex.IsAutomatic()
			if auto != c.auto {
				t.Errorf("IsAutomatic() = %v (%q), want %v", auto, why, c.auto)
			}
			if auto && why == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestExtractDeadline(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector slows parsing several times over: the deadline's promptness is checked by the ordinary run")
	}
	// A deadline too short for anything: Extract returns on time anyway.
	raw := crlf("From: a@example.org\n\n" + strings.Repeat("A1 MOVE\n", 100000))
	start := time.Now()
	_, err := Extract(raw, Limits{Deadline: time.Nanosecond})
	if !errors.Is(err, ErrDeadline) {
		t.Fatalf("err = %v, want ErrDeadline", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("took %v past a 1ns deadline", d)
	}
}
