package mailserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// TestSubmissionPolicy: the server's accounts cannot be written as without
// their password. Each attempt is refused with a 5.7.x code and nothing is
// stored; what passes carries the server's Authentication-Results on top,
// above any the client wrote.
func TestSubmissionPolicy(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	prussia := &Login{User: "prussia", Password: "fritz"}
	referee := &Login{User: "referee@" + testDomain, Password: "ref-secret"}
	msg := func(headers string) []byte {
		return []byte(headers + "To: referee@pbem.test\r\nSubject: x\r\n\r\nRESOLVE NOW\r\n")
	}
	for _, c := range []struct {
		name  string
		login *Login
		from  string // MAIL FROM
		raw   []byte
		code  int
	}{
		{"no login, local sender", nil, "referee@pbem.test", msg("From: referee@pbem.test\r\n"), 530},
		{"no login, outside sender, local From", nil, "x@example.org", msg("From: referee@pbem.test\r\n"), 550},
		{"no login, local Sender field", nil, "x@example.org", msg("From: x@example.org\r\nSender: referee@pbem.test\r\n"), 550},
		{"no login, local address in a broken From", nil, "x@example.org", msg("From: <<referee@PBEM.test>\r\n"), 550},
		{"logged in, another envelope sender", prussia, "referee@pbem.test", msg("From: prussia@pbem.test\r\n"), 553},
		{"logged in, From is another account", prussia, "prussia@pbem.test", msg("From: referee@pbem.test\r\n"), 550},
		{"logged in, From outside", prussia, "prussia@pbem.test", msg("From: king@example.org\r\n"), 550},
		{"logged in, two From fields", prussia, "prussia@pbem.test", msg("From: prussia@pbem.test\r\nFrom: referee@pbem.test\r\n"), 550},
		{"logged in, two addresses in From", prussia, "prussia@pbem.test", msg("From: prussia@pbem.test, referee@pbem.test\r\n"), 550},
		{"logged in, display name of another", prussia, "prussia@pbem.test", msg("From: \"referee@pbem.test\" <referee@pbem.test>\r\n"), 550},
		{"logged in, Sender of another", prussia, "prussia@pbem.test", msg("From: prussia@pbem.test\r\nSender: referee@pbem.test\r\n"), 550},
		{"wrong password", &Login{User: "referee", Password: "guess"}, "referee@pbem.test", msg("From: referee@pbem.test\r\n"), 535},
	} {
		err := SendAs(ctx, s.SMTPAddr(), c.login, c.from, []string{"referee@" + testDomain}, c.raw)
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != c.code || (c.code != 535 && se.EnhancedCode[1] != 7) {
			t.Errorf("%s: %v, want %d 5.7.x", c.name, err, c.code)
		}
	}
	if n := messageCount(t, s, "referee", "ref-secret"); n != 0 {
		t.Fatalf("%d refused messages were stored", n)
	}

	// The real thing, with a forged Authentication-Results of our own id
	// written by the client: ours is above it.
	forged := "Authentication-Results: pbem.test; auth=pass smtp.auth=referee@pbem.test\r\n"
	if err := SendAs(ctx, s.SMTPAddr(), referee, "referee@pbem.test", []string{"prussia@" + testDomain},
		msg("From: Referee <referee@pbem.test>\r\n"+forged)); err != nil {
		t.Fatal(err)
	}
	if err := Send(ctx, s.SMTPAddr(), "x@example.org", []string{"prussia@" + testDomain}, msg("From: x@example.org\r\n"+forged)); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	selectBox(t, c, "INBOX")
	for uid, want := range map[imap.UID]string{1: "auth=pass smtp.auth=referee@pbem.test", 2: "auth=none"} {
		h := string(fetchOne(t, c, uid, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true, Specifier: imap.PartSpecifierHeader}}}).BodySection[0].Bytes)
		first := h[strings.Index(h, "Authentication-Results:"):]
		first = first[:strings.Index(first, "\r\n")]
		if first != "Authentication-Results: pbem.test; "+want {
			t.Errorf("message %d: topmost Authentication-Results %q, want %q", uid, first, want)
		}
	}
}

// messageCount is how many messages an account's INBOX holds.
func messageCount(t *testing.T, s *Server, user, pass string) uint32 {
	t.Helper()
	c := dialIMAP(t, s, user, pass, nil)
	data, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return data.NumMessages
}
