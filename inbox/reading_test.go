package inbox

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestForwardedMessages: a sheet forwarded as an attachment (message/rfc822,
// even base64-encoded as some clients do), forwarded again: the innermost
// text comes first, marked with its depth; the mail's own text stays Text.
func TestForwardedMessages(t *testing.T) {
	t.Parallel()
	inner := "From: a@example.org\r\nSubject: orders\r\nContent-Type: text/plain\r\n\r\n" + strings.ReplaceAll(sheet, "\n", "\r\n")
	middle := "From: a@example.org\r\nSubject: Fwd: orders\r\nContent-Type: multipart/mixed; boundary=m\r\n\r\n" +
		"--m\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--m\r\nContent-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte(inner)) + "\r\n--m--\r\n"
	raw := "From: a@example.org\r\nSubject: Fwd: Fwd: orders\r\nContent-Type: multipart/mixed; boundary=o\r\n\r\n" +
		"--o\r\nContent-Type: text/plain\r\n\r\nagain\r\n--o\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment; filename=fwd.eml\r\n\r\n" +
		middle + "\r\n--o--\r\n"
	ex, err := Extract([]byte(raw), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Texts) != 3 || ex.Texts[0].Text != sheet || ex.Texts[0].Forwarded != 2 || ex.Texts[1].Forwarded != 1 || ex.Texts[2].Forwarded != 0 {
		for _, x := range ex.Texts {
			t.Logf("%d %q", x.Forwarded, x.Text)
		}
		t.Fatal("want the sheet (forwarded twice) first, then each forwarding mail's note")
	}
	if ex.Text != "again" {
		t.Errorf("Text = %q, want the mail's own text", ex.Text)
	}
	// A forwarded message counts as a level of nesting.
	if _, err := Extract([]byte(raw), Limits{MaxDepth: 2}); err == nil {
		t.Error("three levels read under MaxDepth 2")
	}
}

// TestOutlookEmptyParagraphs: Outlook's empty line, <p><o:p>&nbsp;</o:p></p>,
// and Gmail's, <div><br></div>, are empty lines of the text.
func TestOutlookEmptyParagraphs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ html, want string }{
		{"<p class=MsoNormal>A<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>B<o:p></o:p></p>", "A\n\nB\n"},
		{"<div dir=ltr><div>A</div><div><br></div><div>B</div></div>", "A\n\nB\n"},
		{"<p>A</p><p></p><p>B</p>", "A\nB\n"},
		{"A<br>B<br><br>C", "A\nB\n\nC"},
	} {
		if got := htmlToText(c.html); got != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.html, got, c.want)
		}
	}
}

// TestWarningLines: broken quoted-printable is reported at the line it is
// on, and a cut text at its last line.
func TestWarningLines(t *testing.T) {
	t.Parallel()
	raw := crlf("From: a@example.org\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\none\ntwo\nthree =ZZ\nfour\n")
	ex, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if w := ex.Texts[0].Warnings; len(w) != 1 || w[0].Line != 3 {
		t.Errorf("warnings %+v, want one at line 3", w)
	}
	long := crlf("From: a@example.org\n\n" + strings.Repeat("MOVE E1 TO 0101\n", 100))
	ex, err = Extract(long, Limits{MaxTextBytes: 800})
	if err != nil {
		t.Fatal(err)
	}
	if w := ex.Texts[0].Warnings; len(w) != 1 || w[0].Line != strings.Count(ex.Texts[0].Text, "\n") || !strings.Contains(w[0].Message, "cut") {
		t.Errorf("warnings %+v, want the cut at the last line kept", w)
	}
}
