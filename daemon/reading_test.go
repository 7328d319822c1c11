package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// These tests hand HandleMail mail shaped as real clients write it and read
// the answer a player gets.

// answerTo handles raw (stored as the intake would) and returns the mail
// row and the answer queued to eisenmark.
func answerTo(t *testing.T, g *Game, uid uint32, raw string) (store.Mail, string) {
	t.Helper()
	before := map[string]bool{}
	for _, r := range queued(t, g) {
		before[r.MessageID] = true
	}
	m := storeMail(t, g, uid, "eisenmark@pbem.localhost", raw, time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC))
	if err := g.HandleMail(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	for _, r := range queued(t, g) {
		if !before[r.MessageID] && r.Recipients[0] == "eisenmark@pbem.localhost" {
			return mailRow(t, g, m.ID), body(string(r.Raw))
		}
	}
	t.Fatalf("no answer to eisenmark for mail %d", uid)
	return store.Mail{}, ""
}

// TestForwardedSheet: Thunderbird's "Forward As Attachment" of an earlier
// mail that holds the sheet, with a covering note of the forwarding mail's
// own: the sheet inside is read, and the answer says where it was found.
func TestForwardedSheet(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	inner := "From: Eisenmark <eisenmark@pbem.localhost>\nTo: orders@pbem.localhost\nSubject: orders\n" +
		"Message-ID: <first-try@pbem.localhost>\nDate: Tue, 31 Mar 2026 20:00:00 +0200\nMIME-Version: 1.0\n" +
		"Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + goodSheet
	raw := "From: Eisenmark <eisenmark@pbem.localhost>\nTo: orders@pbem.localhost\nSubject: Fwd: orders\n" +
		"Message-ID: <fwd-1@pbem.localhost>\nDate: Wed, 1 Apr 2026 14:00:00 +0200\nMIME-Version: 1.0\n" +
		"User-Agent: Mozilla Thunderbird\nContent-Type: multipart/mixed; boundary=\"------------fwd0123\"\n\n" +
		"This is a multi-part message in MIME format.\n--------------fwd0123\nContent-Type: text/plain; charset=UTF-8; format=flowed\n" +
		"Content-Transfer-Encoding: 7bit\n\nMy orders did not arrive, I think: here they are again.\n\n" +
		"--------------fwd0123\nContent-Type: message/rfc822; name=\"orders.eml\"\nContent-Disposition: attachment; filename=\"orders.eml\"\n\n" +
		inner + "\n--------------fwd0123--\n"
	row, ans := answerTo(t, d.Game, 1, raw)
	if row.Classification != ClassOrders {
		t.Fatalf("forwarded sheet classified %q, want %q:\n%s", row.Classification, ClassOrders, ans)
	}
	if !strings.Contains(ans, "found in a forwarded mail") || !strings.Contains(ans, "STANCE E1 ATTACK") {
		t.Errorf("the answer does not say the sheet came from a forwarded mail:\n%s", ans)
	}
}

// TestExtractionWarningUnderItsLine: a sheet whose quoted-printable is
// broken on one line (a client that wrote "=" without encoding it) is read,
// and the reply shows the warning under that line.
func TestExtractionWarningUnderItsLine(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\n# odds =3 to 1, =Z!", 1)
	raw := "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <qp-1@pbem.localhost>\n" +
		"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + sheet
	_, ans := answerTo(t, d.Game, 1, raw)
	line := 0
	for i, l := range strings.Split(sheet, "\n") {
		if strings.Contains(l, "odds") {
			line = i + 1
		}
	}
	if want := "line " + strconv.Itoa(line) + ": warning: reading your mail: broken quoted-printable"; !strings.Contains(ans, want) {
		t.Errorf("the reply does not carry %q:\n%s", want, ans)
	}

	// An unknown charset: the guess is told, for the text as a whole.
	raw = "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <cs-1@pbem.localhost>\n" +
		"MIME-Version: 1.0\nContent-Type: text/plain; charset=x-mac-klingon\nContent-Transfer-Encoding: 8bit\n\n" +
		strings.Replace(goodSheet, "my orders", "my orders \x8a", 1)
	_, ans = answerTo(t, d.Game, 2, raw)
	if !strings.Contains(strings.Join(strings.Fields(ans), " "), `warning: reading your mail: unknown charset "x-mac-klingon"; read as windows-1252`) {
		t.Errorf("the reply does not tell the charset guess:\n%s", ans)
	}
}

// TestReusedMessageIDNewText: a client that reuses a Message-ID for a new
// sheet (a draft sent twice) gets the new sheet read and answered; the same
// text again under that id (a relay's copy) is a duplicate.
func TestReusedMessageIDNewText(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g := d.Game
	first, _ := answerTo(t, g, 1, sheetMail("reused@pbem.localhost", ""))
	second, ans := answerTo(t, g, 2, strings.Replace(sheetMail("reused@pbem.localhost", ""), "ATTACK", "DEFEND", 1))
	if first.Classification != ClassOrders || second.Classification != ClassOrders {
		t.Fatalf("classified %q and %q, want both %q", first.Classification, second.Classification, ClassOrders)
	}
	if !strings.Contains(ans, "STANCE E1 DEFEND") {
		t.Errorf("the second sheet's answer:\n%s", ans)
	}
	sub, err := g.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders)
	if err != nil || !strings.Contains(sub.CanonicalText, "DEFEND") {
		t.Errorf("the sheet in force is not the second: %v\n%s", err, sub.CanonicalText)
	}
	copyMail := storeMail(t, g, 3, "eisenmark@pbem.localhost", strings.Replace(sheetMail("reused@pbem.localhost", "X-Relay: copy\n"), "ATTACK", "DEFEND", 1),
		time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC))
	if err := g.HandleMail(context.Background(), copyMail); err != nil {
		t.Fatal(err)
	}
	if c := mailRow(t, g, copyMail.ID).Classification; c != ClassDuplicate {
		t.Errorf("the same text under the same Message-ID classified %q, want %q", c, ClassDuplicate)
	}
}

// TestOutlookBlankLines: Outlook's HTML-only mail writes each line as a
// paragraph and an empty line as <p>&nbsp;</p>; the reply's line numbers are
// those of the lines the player typed.
func TestOutlookBlankLines(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	typed := "Dear referee,\n\nmy orders for this month:\n\nGAME syw\nNATION eisenmark\nPASSWORD demo-eisenmark\nTURN 1\n" +
		"STANCE E1 ATTACK\nMARCH E1 TO 9999\nEND\n\nFrederick"
	var h strings.Builder
	h.WriteString(`<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta http-equiv=Content-Type content="text/html; charset=us-ascii">` +
		`<style><!-- p.MsoNormal {margin:0cm;} --></style></head><body lang=EN-GB link="#0563C1"><div class=WordSection1>`)
	for _, l := range strings.Split(typed, "\n") {
		if l == "" {
			h.WriteString("<p class=MsoNormal><o:p>&nbsp;</o:p></p>\r\n")
		} else {
			h.WriteString("<p class=MsoNormal>" + l + "<o:p></o:p></p>\r\n")
		}
	}
	h.WriteString("</div></body></html>")
	raw := "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <outlook-1@pbem.localhost>\n" +
		"MIME-Version: 1.0\nX-Mailer: Microsoft Outlook 16.0\nContent-Type: text/html; charset=\"us-ascii\"\nContent-Transfer-Encoding: 7bit\n\n" + h.String()
	_, ans := answerTo(t, d.Game, 1, raw)
	if !strings.Contains(ans, "line 10: error") {
		t.Errorf("the error on the 10th typed line is not reported as line 10:\n%s", ans)
	}
}
