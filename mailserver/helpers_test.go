package mailserver

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/wneessen/go-mail"
)

const testDomain = "pbem.test"

var testAccounts = []Account{
	{User: "referee", Password: "ref-secret"},
	{User: "prussia", Password: "fritz"},
}

// startServer starts a server on loopback port 0 storing in dir, and closes
// it when the test ends (closing twice is harmless).
func startServer(t testing.TB, dir string, tweak ...func(*Options)) *Server {
	t.Helper()
	opts := &Options{
		Dir:      dir,
		Domain:   testDomain,
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: ":0",
		Accounts: testAccounts,
		Logger:   slog.New(slog.DiscardHandler),
	}
	for _, f := range tweak {
		f(opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dialIMAP logs in as user with a real go-imap client.
func dialIMAP(t testing.TB, s *Server, user, password string, h *imapclient.UnilateralDataHandler) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), &imapclient.Options{UnilateralDataHandler: h})
	if err != nil {
		t.Fatalf("dial IMAP: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatalf("LOGIN %s: %v", user, err)
	}
	return c
}

// sendWithGoMail sends a text mail through the server's SMTP port with the
// go-mail client, as pbem's outbox does.
func sendWithGoMail(t testing.TB, s *Server, from, to, subject, body string, auth ...string) error {
	t.Helper()
	host, portStr, _ := net.SplitHostPort(s.SMTPAddr())
	port, _ := strconv.Atoi(portStr)
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTLSPolicy(gomail.NoTLS), gomail.WithTimeout(10 * time.Second)}
	if len(auth) == 2 {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlainNoEnc), gomail.WithUsername(auth[0]), gomail.WithPassword(auth[1]))
	}
	c, err := gomail.NewClient(host, opts...)
	if err != nil {
		t.Fatalf("go-mail client: %v", err)
	}
	m := gomail.NewMsg()
	if err := m.From(from); err != nil {
		t.Fatal(err)
	}
	if err := m.To(to); err != nil {
		t.Fatal(err)
	}
	m.Subject(subject)
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(gomail.TypeTextPlain, body)
	return c.DialAndSend(m)
}

func mustSend(t testing.TB, s *Server, to, subject, body string) {
	t.Helper()
	if err := sendWithGoMail(t, s, "player@example.org", to, subject, body); err != nil {
		t.Fatalf("sending %q to %s: %v", subject, to, err)
	}
}

func selectBox(t testing.TB, c *imapclient.Client, name string) *imap.SelectData {
	t.Helper()
	data, err := c.Select(name, nil).Wait()
	if err != nil {
		t.Fatalf("SELECT %s: %v", name, err)
	}
	return data
}

func uidSearchAll(t testing.TB, c *imapclient.Client) []imap.UID {
	t.Helper()
	data, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		t.Fatalf("UID SEARCH ALL: %v", err)
	}
	return data.AllUIDs()
}

func fetchOne(t testing.TB, c *imapclient.Client, uid imap.UID, opts *imap.FetchOptions) *imapclient.FetchMessageBuffer {
	t.Helper()
	msgs, err := c.Fetch(imap.UIDSetNum(uid), opts).Collect()
	if err != nil {
		t.Fatalf("UID FETCH %d: %v", uid, err)
	}
	if len(msgs) != 1 {
		t.Fatalf("UID FETCH %d: got %d messages, want 1", uid, len(msgs))
	}
	return msgs[0]
}

func flagSet(flags []imap.Flag) string {
	s := make([]string, len(flags))
	for i, f := range flags {
		s[i] = string(f)
	}
	return strings.Join(s, " ")
}

func imapCode(err error) imap.ResponseCode {
	var e *imap.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// existsWatcher returns a handler that passes every EXISTS count the server
// announces (without blocking the reader) to the channel.
func existsWatcher() (chan uint32, *imapclient.UnilateralDataHandler) {
	exists := make(chan uint32, 10)
	return exists, &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case exists <- *d.NumMessages:
				default:
				}
			}
		},
	}
}
