package daemon

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// The daemon's side of the SIGKILL harness (internal/killtest) shared by
// the crash tests (kill_test.go: a turn; rollback_kill_test.go: ROLLBACK
// and RERUN; archive_kill_test.go: the export; exactlyonce_kill_test.go):
// a child process (this test binary, running one of the helper "tests")
// started on a copy of a template game directory, killed with SIGKILL at a
// random instant, and started again.

// child is a running child process: a daemon, or the export helper.
type child struct {
	*killtest.Child
	imap, smtp string
}

// startChild starts the daemon (TestKillHelperProcess) on the game in dir.
func startChild(t *testing.T, dir string) *child {
	t.Helper()
	os.Remove(filepath.Join(dir, "addr.txt"))
	return startHelper(t, "TestKillHelperProcess", killHelperEnv, dir)
}

// startHelper starts this test binary running only the helper test name,
// with $env set to dir (where the helper finds its game).
func startHelper(t *testing.T, name, env, dir string) *child {
	t.Helper()
	// A helper's failure shows on the parent's standard error.
	return &child{Child: killtest.Start(t, name, killtest.Options{PassStderr: true}, env+"="+dir)}
}

// addrs waits for the child's mail server addresses.
func (c *child) addrs(t *testing.T, dir string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, "addr.txt")); err == nil {
			f := strings.Fields(string(b))
			c.imap, c.smtp = f[0], f[1]
			return
		}
	}
	t.Fatal("the child daemon did not start")
}

func (c *child) kill() { c.Kill() }

func (c *child) stop(t *testing.T) { c.Stop(t, waitLimit) }

// killConfig gives every nation a mailbox, so that every report is delivered.
// (testConfig now has them: this adds each a second time, which config.Parse
// lets pass; the crash tests use testConfig as it is, turn_bench_test.go
// still calls this.)
func killConfig(s string) string {
	return strings.Replace(s, "      - {user: stranger@pbem.localhost, password: pw-stranger}",
		"      - {user: unterreich@pbem.localhost, password: pw-unterreich}\n"+
			"      - {user: fromande@pbem.localhost, password: pw-fromande}\n"+
			"      - {user: hispardia@pbem.localhost, password: pw-hispardia}", 1)
}

// killAccounts are the mailboxes the crash tests read: every nation's (the
// test config gives each one) and the referee's.
var killAccounts = []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia", "referee"}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o750)
		}
		if !e.Type().IsRegular() {
			return nil // the store's doorbell, a named pipe: made again by the next run
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sendMail delivers raw (LF line ends) from from to the game's address
// through the child's SMTP server, and returns once the server took it.
func sendMail(t *testing.T, smtpAddr, from, raw string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	err := mailserver.SendAs(ctx, smtpAddr, loginFor(from), from, []string{"orders@pbem.localhost"},
		[]byte(strings.ReplaceAll(raw, "\n", "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
}

// waitReply waits until acct's INBOX holds the answer to the mail whose
// Message-ID is id, and returns its body.
func waitReply(t *testing.T, imapAddr, acct, id string) string {
	t.Helper()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		msgs, _ := imaptest.Messages(imapAddr, acct+"@pbem.localhost", "pw-"+acct, "INBOX")
		for _, m := range msgs {
			if header(string(m), "In-Reply-To") == id {
				return body(string(m))
			}
		}
		if time.Since(start) > waitLimit {
			t.Fatalf("%s got no answer to %s within %v", acct, id, waitLimit)
		}
	}
}

// newKillTemplate returns a copy of the template game directory of the
// crash tests: a game whose every nation has a mailbox, Eisenmark's sheet
// for turn 1 acknowledged, and turn 1 due (its deadline past). It is built
// once per test binary (killFixtures).
func newKillTemplate(t *testing.T) string {
	t.Helper()
	return killFixtures.base.copyOf(t, buildKillTemplate)
}

// killFixtures are the crash tests' templates, each built once: base
// (newKillTemplate), turn1 (base with turn 1 resolved and its reports sent)
// and resolved (resolvedTemplate).
var killFixtures struct {
	base, turn1, resolved fixture
}

// turn1Template returns a copy of the base template with turn 1 resolved
// and every report sent.
func turn1Template(t *testing.T) string {
	t.Helper()
	return killFixtures.turn1.copyOf(t, func(t *testing.T, dir string) {
		copyTree(t, newKillTemplate(t), dir)
		resolveTurns(t, dir, 1)
	})
}

// buildKillTemplate makes the base template in the folder template.
func buildKillTemplate(t *testing.T, template string) {
	t.Helper()
	scen, _ := filepath.Abs("../scenarios/default")
	text := fmt.Sprintf(testConfig, scen, imapWait)
	if err := os.WriteFile(filepath.Join(template, "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, template)
	c.addrs(t, template)
	sendMail(t, c.smtp, "eisenmark@pbem.localhost",
		"From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <kill@x>\n\n"+marchSheet)
	// (Not any mail: the starting report is there before the answer.)
	if ack := waitReply(t, c.imap, "eisenmark", "<kill@x>"); !strings.Contains(ack, "MOVE E1") {
		t.Fatalf("Eisenmark's sheet was not accepted:\n%s", ack)
	}
	c.stop(t)
	setDeadlinePast(t, template, 1)
}

// setDeadlinePast makes turn's deadline a minute ago in dir's store, so that
// the turn is due when the daemon starts.
func setDeadlinePast(t *testing.T, dir string, turn int) {
	t.Helper()
	db := openKillStore(t, dir)
	defer db.Close()
	if err := db.SetDeadline(context.Background(), "syw", turn, time.Now().Add(-time.Minute), 0); err != nil {
		t.Fatal(err)
	}
}

// openKillStore opens the store of the game in dir.
func openKillStore(t *testing.T, dir string) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "data", "pbem.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// killSoon kills the child c (started on dir) at a random instant: kill i
// of a series, one in ten while it starts (before its mail server listens),
// the others within 3×span after it listens (span: how long the work takes
// in a run never killed; a killed run may be slower). begin, if not nil,
// is called once the mail server listens, before the wait: it mails what
// the daemon is to work on.
func killSoon(t *testing.T, rng *rand.Rand, c *child, dir string, i int, span time.Duration, begin func(*child)) {
	t.Helper()
	if i%10 == 0 {
		time.Sleep(time.Duration(rng.Int64N(int64(300 * time.Millisecond))))
	} else {
		c.addrs(t, dir)
		if begin != nil {
			begin(c)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(3*span) + 1)))
	}
	c.kill()
}
