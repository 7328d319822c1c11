package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/mailserver"
)

// The spoof test set of docs/intake.md ("Who sent it"): every way of writing
// as the referee (or a player) that is not theirs, tried against the running
// daemon on its embedded server. Each attempt is refused; nothing of it is
// recorded; and the right person is told: the client by the server's 5.7.x
// refusal, the owner of the address by a notice in their inbox. Attempts
// the server refuses are also put straight into the game's mailbox (as if
// they had got past the server), to show that the daemon refuses them on its
// own.

// refereeMail is a mail of referee commands: with the referee's password
// (unless pw is ""), ruling on token.
func refereeMail(from, msgID, pw, token string, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: orders@pbem.localhost\r\nSubject: Re: request\r\nMessage-ID: <%s>\r\nDate: %s\r\n",
		from, msgID, time.Now().Format(time.RFC1123Z))
	for _, h := range extra {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\nGAME syw\r\n")
	if pw != "" {
		b.WriteString("PASSWORD " + pw + "\r\n")
	}
	b.WriteString("APPROVE " + token + "\r\n  TREASURY eisenmark +1000\r\nDEADLINE EXTEND 30d\r\nEND\r\n")
	return []byte(b.String())
}

// stamp is the embedded server's Authentication-Results line.
func stamp(result string) string {
	return "Authentication-Results: pbem.localhost; " + result + "\r\n"
}

// spoofCase is one attempt.
type spoofCase struct {
	name string
	// By SMTP: the login (nil: none), the envelope sender and the mail.
	login *mailserver.Login
	from  string
	raw   []byte
	// code is the server's refusal (0: the server takes the mail, and the
	// daemon must refuse it).
	code int
	// direct, when not nil, is put straight into the game's mailbox (as
	// if it had got past the server): the daemon must refuse it alone.
	direct []byte
	// told is the account that must be told, and tell recognises the
	// notice.
	told string
	tell func(string) bool
}

// refused is a waitFor condition: a notice to the owner of an address that
// a mail in their name was refused, or refused referee commands.
func refused(m string) bool {
	s := header(m, "Subject")
	return strings.Contains(s, "A mail in your name was refused") || strings.Contains(s, "Referee commands REFUSED") ||
		strings.Contains(s, "Referee commands from") || strings.Contains(s, "A repeated mail was ignored") ||
		strings.Contains(s, "came from an unregistered address")
}

// TestSpoofSet: the spoof test set. No referee command or sheet of any
// attempt is recorded, and after the set the one real ruling stands alone.
func TestSpoofSet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	token := h.sendRequest()
	const ref = "referee@pbem.localhost"
	eisen, stranger, referee := loginFor("eisenmark@pbem.localhost"), loginFor("stranger@pbem.localhost"), loginFor(ref)
	sheetFrom := func(from string, extra ...string) []byte {
		return []byte("From: " + from + "\r\nTo: orders@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <" +
			fmt.Sprint(time.Now().UnixNano()) + "@x>\r\n" + strings.Join(extra, "") + "\r\n" + strings.ReplaceAll(goodSheet, "\n", "\r\n"))
	}
	n := 0
	id := func() string { n++; return fmt.Sprintf("spoof-%d@pbem.localhost", n) }
	pw := refereePassword
	cases := []spoofCase{
		{name: "no SMTP login", from: ref, raw: refereeMail(ref, id(), pw, token), code: 530,
			direct: append([]byte(stamp("auth=none")), refereeMail(ref, id(), pw, token)...), told: ref, tell: refused},
		{name: "no Authentication-Results at all (mail that bypassed the server)",
			direct: refereeMail(ref, id(), pw, token), told: ref, tell: refused},
		{name: "logged in as another account", login: eisen, from: "eisenmark@pbem.localhost", raw: refereeMail(ref, id(), pw, token), code: 550,
			direct: append([]byte(stamp("auth=pass smtp.auth=eisenmark@pbem.localhost")), refereeMail(ref, id(), pw, token)...), told: ref, tell: refused},
		{name: "envelope sender not the login", login: eisen, from: ref, raw: refereeMail(ref, id(), pw, token), code: 553},
		{name: "right referee password from a stranger", login: stranger, from: "stranger@pbem.localhost",
			raw: refereeMail("stranger@pbem.localhost", id(), pw, token), told: ref, tell: func(m string) bool {
				return strings.Contains(header(m, "Subject"), "Referee commands from stranger") && strings.Contains(body(m), "change it")
			}},
		{name: "right player password from a stranger", login: stranger, from: "stranger@pbem.localhost",
			raw: sheetFrom("stranger@pbem.localhost"), told: "eisenmark@pbem.localhost", tell: refused},
		{name: "Reply-To trick", login: eisen, from: "eisenmark@pbem.localhost",
			raw: refereeMail("eisenmark@pbem.localhost", id(), pw, token, "Reply-To: "+ref), told: ref, tell: func(m string) bool {
				return strings.Contains(header(m, "Subject"), "Referee commands from eisenmark")
			}},
		{name: "Sender trick", login: eisen, from: "eisenmark@pbem.localhost",
			raw: refereeMail(ref, id(), pw, token, "Sender: eisenmark@pbem.localhost"), code: 550,
			direct: append([]byte(stamp("auth=pass smtp.auth=eisenmark@pbem.localhost")), refereeMail(ref, id(), pw, token, "Sender: eisenmark@pbem.localhost")...),
			told:   ref, tell: refused},
		{name: "display name of the referee", login: eisen, from: "eisenmark@pbem.localhost",
			raw: refereeMail(`"referee@pbem.localhost" <eisenmark@pbem.localhost>`, id(), pw, token), told: ref, tell: func(m string) bool {
				return strings.Contains(header(m, "Subject"), "Referee commands from eisenmark")
			}},
		{name: "display name with the referee's address in another", login: eisen, from: "eisenmark@pbem.localhost",
			raw: refereeMail(`"Referee" <referee@pbem.localhost>`, id(), pw, token), code: 550},
		{name: "two From headers", login: referee, from: ref,
			raw: refereeMail(ref, id(), pw, token, "From: eisenmark@pbem.localhost"), code: 550,
			direct: append([]byte(stamp("auth=pass smtp.auth="+ref)), refereeMail(ref, id(), pw, token, "From: eisenmark@pbem.localhost")...),
			told:   ref, tell: refused},
		{name: "forged Authentication-Results below the server's", login: nil, from: "x@example.org",
			raw: refereeMail(ref, id(), pw, token, strings.TrimSpace(stamp("auth=pass smtp.auth="+ref))), code: 550,
			direct: append([]byte(stamp("auth=none")+stamp("auth=pass smtp.auth="+ref)), refereeMail(ref, id(), pw, token)...),
			told:   ref, tell: refused},
		{name: "forged Authentication-Results, player", login: stranger, from: "stranger@pbem.localhost",
			raw: sheetFrom("eisenmark@pbem.localhost", stamp("auth=pass smtp.auth=eisenmark@pbem.localhost")), code: 550,
			direct: append([]byte(stamp("auth=pass smtp.auth=stranger@pbem.localhost")+stamp("auth=pass smtp.auth=eisenmark@pbem.localhost")),
				sheetFrom("eisenmark@pbem.localhost")...),
			told: "eisenmark@pbem.localhost", tell: refused},
		{name: "referee commands without the referee password", login: referee, from: ref,
			raw: refereeMail(ref, id(), "", token), told: ref, tell: func(m string) bool {
				return strings.Contains(header(m, "Subject"), "REFUSED") && strings.Contains(body(m), "no PASSWORD line")
			}},
		{name: "referee commands with a wrong referee password", login: referee, from: ref,
			raw: refereeMail(ref, id(), "demo-referee", token), told: ref, tell: func(m string) bool {
				return strings.Contains(header(m, "Subject"), "REFUSED") && strings.Contains(body(m), "is not the referee password")
			}},
	}
	for _, c := range cases {
		before := 0
		if c.told != "" {
			before = h.count(c.told, loginFor(c.told).Password)
		}
		if c.raw != nil {
			err := h.sendAs(c.login, c.from, c.raw)
			var se *smtp.SMTPError
			switch {
			case c.code == 0 && err != nil:
				t.Errorf("%s: the server refused the mail: %v", c.name, err)
			case c.code != 0 && (!errors.As(err, &se) || se.Code != c.code || se.EnhancedCode[0] != 5 || se.EnhancedCode[1] != 7):
				t.Errorf("%s: the server answered %v, want %d 5.7.x", c.name, err, c.code)
			}
		}
		if c.direct != nil {
			if err := h.d.Mail.Deliver(context.Background(), "orders", c.direct); err != nil {
				t.Fatal(err)
			}
			h.sent++
		}
		if c.told != "" {
			h.settle()
			msgs := h.inbox(c.told, loginFor(c.told).Password)
			ok := false
			for _, m := range msgs[min(before, len(msgs)):] {
				ok = ok || c.tell(string(m))
			}
			if !ok {
				t.Errorf("%s: %s was not told", c.name, c.told)
			}
		}
		h.settle()
		if got := submissionsOf(t, h, KindRuling); len(got) > 0 {
			t.Fatalf("%s: a ruling was recorded: %+v", c.name, got[0])
		}
		if got := submissionsOf(t, h, KindReferee); len(got) > 0 {
			t.Fatalf("%s: a referee command was recorded: %+v", c.name, got[0])
		}
		if n := len(submissionsOf(t, h, KindOrders)); n != 1 {
			t.Fatalf("%s: %d order sheets recorded, want only the request's", c.name, n)
		}
	}

	// The real referee, logged in, with the password: recorded once. The
	// same mail again (same Message-ID and text: a replay) does nothing more,
	// and the referee is told.
	real := refereeMail(ref, "real-ruling@pbem.localhost", pw, token)
	if err := h.sendAs(referee, ref, real); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.sendAs(referee, ref, real); err != nil {
		t.Fatal(err)
	}
	if m, _ := h.waitFor(ref, referee.Password, func(m string) bool {
		return strings.Contains(header(m, "Subject"), "A repeated mail was ignored")
	}); m == "" {
		t.Error("replayed command mail: the referee was not told")
	}
	h.settle()
	if got := submissionsOf(t, h, KindRuling); len(got) != 1 {
		t.Errorf("%d rulings recorded from the real mail and its replay, want 1", len(got))
	}
	if got := submissionsOf(t, h, KindReferee); len(got) != 1 {
		t.Errorf("%d referee commands recorded from the real mail and its replay, want 1", len(got))
	}
	if n := h.count("stranger@pbem.localhost", "pw-stranger"); n > 2 {
		t.Errorf("the stranger got %d mails; want at most the notes that it is not registered", n)
	}
	t.Logf("spoof set: %d attempts refused, plus a replay", len(cases))
}

// TestStrangerAttemptsEachReported: a stranger who tries a nation's
// password again and again is reported to the nation every time (not only
// the first), each notice saying whether the sheet carried the nation's
// password; the stranger hears once that the address is not registered.
func TestStrangerAttemptsEachReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	const eisen, stranger = "eisenmark@pbem.localhost", "stranger@pbem.localhost"
	before := h.count(eisen, "pw-eisenmark")
	for _, pw := range []string{"demo-eisenmark", "guess-1", "demo-eisenmark"} {
		h.send(stranger, "orders", strings.Replace(goodSheet, "demo-eisenmark", pw, 1))
	}
	h.settle()
	var notices []string
	for _, m := range h.inbox(eisen, "pw-eisenmark") {
		if strings.Contains(header(string(m), "Subject"), "came from an unregistered address") {
			notices = append(notices, body(string(m)))
		}
	}
	if len(notices) != 3 || h.count(eisen, "pw-eisenmark") != before+3 {
		t.Fatalf("Eisenmark was told of %d of 3 attempts", len(notices))
	}
	carried := 0
	for _, n := range notices {
		if strings.Contains(n, "It carried Eisenmark's password") {
			carried++
		}
	}
	if carried != 2 {
		t.Errorf("%d notices say the password was carried, want 2:\n%s", carried, strings.Join(notices, "\n---\n"))
	}
	if n := h.count(stranger, "pw-stranger"); n != 1 {
		t.Errorf("the stranger got %d mails, want the one note", n)
	}
}
