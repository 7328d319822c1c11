package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/mailserver"
)

// testRouter knows two games: eisenmark@ plays in both, carl@ in bravo
// only; bravo takes mail up to 1 KiB, at most 3 an hour from one sender.
func testRouter(now func() time.Time) *router {
	r := newRouter("orders@pbem.localhost", now)
	r.set([]*routeGame{
		{name: "alpha", address: "orders+alpha@pbem.localhost", referee: "ref@pbem.localhost",
			members:  []string{"ref@pbem.localhost", "eisenmark@pbem.localhost"},
			nationOf: map[string][]string{"eisenmark@pbem.localhost": {"eisenmark"}}, limits: Limits{MaxMailKB: 512, MailsPerHour: 60}},
		{name: "bravo", address: "orders+bravo@pbem.localhost", referee: "ref@pbem.localhost",
			members:  []string{"ref@pbem.localhost", "eisenmark@pbem.localhost", "carl@pbem.localhost"},
			nationOf: map[string][]string{"eisenmark@pbem.localhost": {"fromande"}, "carl@pbem.localhost": {"eisenmark"}}, limits: Limits{MaxMailKB: 1, MailsPerHour: 3}},
	})
	return r
}

func mailFrom(from, body string) []byte {
	return []byte("From: " + from + "\r\nTo: orders@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <m1@x>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
}

func TestRoute(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := testRouter(func() time.Time { return now })
	req := func(user, sender, body string) mailserver.RouteRequest {
		m := mailFrom(sender, body)
		return mailserver.RouteRequest{User: user, Sender: sender, Size: int64(len(m)), Message: m}
	}
	for _, tc := range []struct {
		name, user, sender, body string
		to                       string // the account it is filed for ("" as addressed)
		reply                    string // a phrase of the reply ("" none)
		refused                  string
	}{
		{"the GAME line", "orders", "eisenmark@pbem.localhost", "GAME bravo\nNATION fromande\nEND\n", "orders+bravo", "", ""},
		{"the GAME line in another case", "orders", "eisenmark@pbem.localhost", "game ALPHA\nNATION eisenmark\nEND\n", "orders+alpha", "", ""},
		{"a game the sender is not in", "orders", "carl@pbem.localhost", "GAME alpha\nNATION eisenmark\nEND\n", "", "no nation in it", ""},
		{"no such game", "orders", "carl@pbem.localhost", "GAME zulu\nEND\n", "", "no such game", ""},
		{"no GAME line, one game", "orders", "carl@pbem.localhost", "RESOLVE NOW\n", "orders+bravo", "", ""},
		{"no GAME line, two games", "orders", "eisenmark@pbem.localhost", "hello\n", "", "more than one game", ""},
		{"a stranger naming a game", "orders", "", "GAME alpha\nEND\n", "orders+alpha", "", ""},
		{"the game's own address", "orders+alpha", "carl@pbem.localhost", "anything", "orders+alpha", "", ""},
		{"a person's mailbox", "carl", "eisenmark@pbem.localhost", "hi", "", "", ""},
		{"over bravo's size limit", "orders+bravo", "carl@pbem.localhost", strings.Repeat("x", 2000), "", "", "up to 1 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := r.Route(req(tc.user, tc.sender, tc.body))
			if d.User != tc.to {
				t.Errorf("filed for %q, want %q", d.User, tc.to)
			}
			if got := string(d.Reply); tc.reply == "" && got != "" || !strings.Contains(got, tc.reply) {
				t.Errorf("reply %q, want one saying %q", got, tc.reply)
			}
			switch {
			case tc.refused == "" && d.Refuse != nil:
				t.Errorf("refused: %s", d.Refuse.Message)
			case tc.refused != "" && (d.Refuse == nil || !strings.Contains(d.Refuse.Message, tc.refused)):
				t.Errorf("refusal %+v, want one saying %q", d.Refuse, tc.refused)
			}
		})
	}
	// The answer to a player of two games lists both, with their addresses.
	d := r.Route(req("orders", "eisenmark@pbem.localhost", "hello\n"))
	for _, want := range []string{"alpha", "orders+alpha@pbem.localhost", "bravo", "orders+bravo@pbem.localhost", "fromande", "In-Reply-To: <m1@x>", "Auto-Submitted: auto-replied"} {
		if !strings.Contains(string(d.Reply), want) {
			t.Errorf("the answer lacks %q:\n%s", want, d.Reply)
		}
	}
}

// TestRouteRateLimit: a fourth mail in an hour from one sender to bravo is
// refused as temporary; an hour later it is taken; another sender and
// another game are not counted against it.
func TestRouteRateLimit(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := testRouter(func() time.Time { return now })
	send := func(user, sender string) *mailserver.Refusal {
		m := mailFrom(sender, "GAME bravo\nEND\n")
		return r.Route(mailserver.RouteRequest{User: user, Sender: sender, Size: int64(len(m)), Message: m}).Refuse
	}
	for i := range 3 {
		if rf := send("orders", "carl@pbem.localhost"); rf != nil {
			t.Fatalf("mail %d refused: %s", i+1, rf.Message)
		}
	}
	rf := send("orders+bravo", "carl@pbem.localhost")
	if rf == nil || !rf.Temporary || !strings.Contains(rf.Message, "3 an hour") {
		t.Fatalf("the fourth mail in an hour: %+v", rf)
	}
	if rf := send("orders", "eisenmark@pbem.localhost"); rf != nil {
		t.Errorf("another sender refused: %s", rf.Message)
	}
	if rf := send("orders+alpha", "carl@pbem.localhost"); rf != nil {
		t.Errorf("another game refused: %s", rf.Message)
	}
	now = now.Add(61 * time.Minute)
	if rf := send("orders", "carl@pbem.localhost"); rf != nil {
		t.Errorf("an hour later: %s", rf.Message)
	}
}

// FuzzRoute: whatever a mail holds, the router answers without panicking,
// files it for a known game or leaves it where it was addressed, and only
// replies to a logged-in sender.
func FuzzRoute(f *testing.F) {
	f.Add([]byte("From: a@b\r\n\r\nGAME alpha\r\nEND\r\n"), true)
	f.Add([]byte("GAME"), false)
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n\r\nGAME bravo\r\n--x--"), true)
	f.Fuzz(func(t *testing.T, raw []byte, loggedIn bool) {
		r := testRouter(time.Now)
		sender := ""
		if loggedIn {
			sender = "eisenmark@pbem.localhost"
		}
		d := r.Route(mailserver.RouteRequest{User: "orders", Sender: sender, Size: int64(len(raw)), Message: raw})
		if d.User != "" && d.User != "orders+alpha" && d.User != "orders+bravo" {
			t.Fatalf("filed for %q", d.User)
		}
		if d.Reply != nil && !loggedIn {
			t.Fatal("replied to a sender nobody vouches for")
		}
	})
}

// TestSettingsAreStrict: host.yaml with an unknown key or a bad state is
// refused with the key named.
func TestSettingsAreStrict(t *testing.T) {
	dir := t.TempDir()
	if err := Init(dir, "club.example"); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mail.Address != "orders@club.example" {
		t.Errorf("the host's address: %s", s.Mail.Address)
	}
	for _, tc := range []struct{ text, want string }{
		{"mail:\n  domian: x\n", "domian"},
		{"games:\n  ypres: {state: paused}\n", "running, stopped or archived"},
		{"games:\n  Ypres: {state: running}\n", "lower-case"},
		{"mail:\n  domain: club.example\n  address: orders@elsewhere.example\n", "not an address of mail.domain"},
	} {
		if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSettings(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error saying %q", tc.text, err, tc.want)
		}
	}
}
