//go:build unix

package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/inbox"
)

// TestWrongCredentialsAreLoud (issue 28, case 4): with a wrong SMTP
// password the login check at start says the server refused it, every
// answer fails with 535 and "pbem status" says the outbox is FAILING with
// that error — never "flowing"; with a wrong IMAP password (and SMTP
// right) the check says so, the status shows the intake down with the
// refusal, and the referee is mailed.
func TestWrongCredentialsAreLoud(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("smtp", func(t *testing.T) {
		t.Parallel()
		pg := newProvGame(t, nil, nil)
		pg.stop()
		if err := os.WriteFile(filepath.Join(pg.dir, "smtp-password.txt"), []byte("wrong\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		pg.start()
		l := pg.d.CheckLogins(ctx)
		if l.SMTP == nil || !l.SMTPRefused || l.IMAP != nil || l.Fatal() {
			t.Fatalf("the login check: %+v", l)
		}
		g := pg.d.Game
		pg.send("eisenmark@provider.test", "orders", marchSheet)
		waitUntil(t, "the answer tried and failed", func() bool {
			for _, r := range allRows(t, g) {
				if r.Kind == MailAck && strings.Contains(r.LastError, "535") {
					return true
				}
			}
			return false
		})
		s, err := g.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		text := s.Text(time.Now())
		if strings.Contains(text, "Outbox: flowing") || !strings.Contains(text, "Outbox: FAILING since") || !strings.Contains(text, "535") ||
			!strings.Contains(text, "pbem run: running since") || !strings.Contains(text, "Intake: connected since") {
			t.Errorf("the status while every send fails with 535:\n%s", text)
		}
	})
	t.Run("imap", func(t *testing.T) {
		t.Parallel()
		pg := newProvGame(t, nil, nil)
		pg.stop()
		if err := os.WriteFile(filepath.Join(pg.dir, "imap-password.txt"), []byte("wrong\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		pg.start()
		l := pg.d.CheckLogins(ctx)
		if l.IMAP == nil || !l.IMAPRefused || !errors.Is(l.IMAP, inbox.ErrLoginRefused) || l.SMTP != nil || l.Fatal() {
			t.Fatalf("the login check: %+v", l)
		}
		// (Read from the outbox, sent: Dovecot slows every login from this
		// address after the daemon's failed ones.)
		var notice string
		waitUntil(t, "the referee's notice sent", func() bool {
			for _, r := range allRows(t, pg.d.Game) {
				if r.Kind == MailNotice && !r.SentAt.IsZero() && strings.Contains(header(string(r.Raw), "Subject"), "pbem cannot read the game's mailbox") {
					notice = string(r.Raw)
					return true
				}
			}
			return false
		})
		if !strings.Contains(body(notice), "refused the login") {
			t.Errorf("the referee's notice:\n%s", body(notice))
		}
		s, err := pg.d.Game.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if text := s.Text(time.Now()); !strings.Contains(text, "Intake: DOWN since") || !strings.Contains(text, "refused the login") {
			t.Errorf("the status with a wrong IMAP password:\n%s", text)
		}
	})
}
