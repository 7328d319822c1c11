//go:build unix

package inbox

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/store"
)

// Tests against a real Dovecot 2.3, started by the test on loopback ports
// with a configuration in a temporary folder, as libraries.md describes.

const (
	dovecotMailUser = "orders@pbem.example"
	dovecotRunUser  = "pbemtest" // throwaway user Dovecot runs as when the test runs as root
)

type dovecot struct {
	t                 testing.TB
	bin               string
	dir               string
	conf              string
	runAs             string // the user Dovecot runs as
	imap, imaps, lmtp int
	cmd               *exec.Cmd
	exited            chan struct{}
	roots             *x509.CertPool // trusts the server's certificate (with TLS)
}

// dovecotSetup varies the configuration.
type dovecotSetup struct {
	trimCaps bool // advertise neither MOVE nor UIDPLUS
	tls      bool // a self-signed certificate, implicit TLS on imaps and STARTTLS on imap
}

// startDovecot starts Dovecot, or skips the test when it is not installed.
func startDovecot(t testing.TB, setup dovecotSetup) *dovecot {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/dovecot"); serr != nil {
			t.Skip("dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd); skipping the real-server test")
		}
		bin = "/usr/sbin/dovecot"
	}
	d := &dovecot{t: t, bin: bin}
	if os.Geteuid() == 0 {
		if _, err := user.Lookup(dovecotRunUser); err != nil {
			out, err := exec.Command("useradd", "-r", "-M", "-s", "/usr/sbin/nologin", dovecotRunUser).CombinedOutput()
			if err != nil {
				t.Skipf("running as root and cannot create the user %s for Dovecot: %v %s", dovecotRunUser, err, out)
			}
		}
		d.runAs = dovecotRunUser
	} else {
		u, err := user.Current()
		if err != nil {
			t.Skipf("cannot tell the current user: %v", err)
		}
		d.runAs = u.Username
	}
	// Not t.TempDir: its parent is private to root, and Dovecot runs as
	// another user.
	d.dir, err = os.MkdirTemp("", "pbem-dovecot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d.dir) })
	if err := os.Chmod(d.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d.imap, d.lmtp = freePort(t), freePort(t)
	extra := ""
	if setup.trimCaps {
		extra += "imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ NAMESPACE CHILDREN UNSELECT\n"
	}
	ssl := "ssl = no"
	if setup.tls {
		d.imaps = freePort(t)
		d.roots = writeSelfSigned(t, d.dir)
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", d.dir)
	}
	conf := fmt.Sprintf(`protocols = imap lmtp
listen = 127.0.0.1
%[8]s
disable_plaintext_auth = no
auth_mechanisms = plain login
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
info_log_path = %[1]s/dovecot.log
default_internal_user = %[2]s
default_internal_group = %[3]s
default_login_user = %[2]s
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[2]s gid=%[3]s home=%[1]s/home/%%u allow_all_users=yes
}
mail_location = maildir:~/Maildir
%[6]s
service imap-login {
  chroot =
  inet_listener imap {
    port = %[4]d
  }
  inet_listener imaps {
    port = %[7]d
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = %[5]d
  }
}
service anvil {
  chroot =
}
`, d.dir, d.runAs, groupOf(t, d.runAs), d.imap, d.lmtp, extra, d.imaps, ssl)
	d.conf = filepath.Join(d.dir, "dovecot.conf")
	for name, content := range map[string]string{
		"dovecot.conf": conf,
		"passwd":       dovecotMailUser + ":{PLAIN}" + testPass + "::::::\n",
	} {
		if err := os.WriteFile(filepath.Join(d.dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"run", "state", "home"} {
		if err := os.MkdirAll(filepath.Join(d.dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d.chown()
	d.start()
	t.Cleanup(func() { d.stop(syscall.SIGTERM) })
	return d
}

// writeSelfSigned writes cert.pem and key.pem for 127.0.0.1 and localhost
// into dir and returns a pool that trusts the certificate.
func writeSelfSigned(t testing.TB, dir string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "pbem test IMAP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	return pool
}

func groupOf(t testing.TB, name string) string {
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		return u.Gid
	}
	return g.Name
}

// chown gives the folder to the user Dovecot runs as.
func (d *dovecot) chown() {
	if os.Geteuid() != 0 {
		return
	}
	if out, err := exec.Command("chown", "-R", d.runAs+":", d.dir).CombinedOutput(); err != nil {
		d.t.Fatalf("chown: %v %s", err, out)
	}
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func (d *dovecot) imapAddr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.imap)) }

// start runs Dovecot in the foreground (-F) and waits until IMAP answers.
func (d *dovecot) start() {
	d.t.Helper()
	args := []string{d.bin, "-F", "-c", d.conf}
	if os.Geteuid() == 0 {
		args = append([]string{"runuser", "-u", d.runAs, "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	// A file, not a pipe: Wait must not wait for Dovecot's children, which
	// inherit the descriptor and may outlive the master by a moment.
	out, err := os.OpenFile(filepath.Join(d.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		d.t.Fatalf("starting dovecot: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	d.cmd, d.exited = cmd, exited
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", d.imapAddr(), time.Second)
		if err == nil {
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 512)
			n, _ := c.Read(buf)
			c.Close()
			if bytes.Contains(buf[:n], []byte("* OK")) && !bytes.Contains(buf[:n], []byte("Waiting")) {
				return
			}
		}
		select {
		case <-exited:
			d.t.Fatalf("dovecot exited at start:\n%s", d.logs())
		default:
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("dovecot did not answer on %s:\n%s", d.imapAddr(), d.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (d *dovecot) logs() string {
	out, _ := os.ReadFile(filepath.Join(d.dir, "stdout.log"))
	log, _ := os.ReadFile(filepath.Join(d.dir, "dovecot.log"))
	return string(out) + string(log)
}

// stop signals Dovecot's master process (SIGTERM: a clean shutdown that
// says BYE; SIGKILL: sudden death) and waits until its ports are free.
func (d *dovecot) stop(sig syscall.Signal) {
	if d.cmd == nil {
		return
	}
	pidText, err := os.ReadFile(filepath.Join(d.dir, "run", "master.pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err == nil && pid > 0 {
		syscall.Kill(pid, sig)
	} else {
		d.cmd.Process.Signal(sig)
	}
	select {
	case <-d.exited:
	case <-time.After(10 * time.Second):
		d.t.Errorf("dovecot did not stop after %v", sig)
	}
	d.cmd = nil
	// The master's children notice its death and leave; wait for the
	// listening ports to be free so a restart can bind them.
	for range 200 {
		ln, err := net.Listen("tcp", d.imapAddr())
		if err == nil {
			ln.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	d.t.Fatalf("IMAP port %d still busy after dovecot stopped", d.imap)
}

// deliver hands raw to Dovecot over LMTP, as a mail server would.
func (d *dovecot) deliver(raw []byte) {
	d.t.Helper()
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(d.lmtp)), 5*time.Second)
	if err != nil {
		d.t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		d.t.Fatal(err)
	}
	if err := c.SendMail("player@example.org", []string{dovecotMailUser}, bytes.NewReader(raw)); err != nil {
		d.t.Fatalf("LMTP delivery: %v", err)
	}
}

// changeUIDValidity stops Dovecot, gives INBOX a new UIDVALIDITY in its
// dovecot-uidlist (dropping the indexes that cache the old one), and
// starts it again: what a mailbox rebuilt by an administrator looks like.
func (d *dovecot) changeUIDValidity() {
	d.t.Helper()
	d.stop(syscall.SIGTERM)
	maildir := filepath.Join(d.dir, "home", dovecotMailUser, "Maildir")
	list := filepath.Join(maildir, "dovecot-uidlist")
	b, err := os.ReadFile(list)
	if err != nil {
		d.t.Fatal(err)
	}
	re := regexp.MustCompile(` V(\d+) `)
	m := re.FindSubmatch(b)
	if m == nil {
		d.t.Fatalf("no UIDVALIDITY in %s: %q", list, b)
	}
	old, _ := strconv.ParseUint(string(m[1]), 10, 32)
	b = re.ReplaceAll(b, []byte(fmt.Sprintf(" V%d ", old+1000)))
	if err := os.WriteFile(list, b, 0o600); err != nil {
		d.t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(maildir, "dovecot.index*"))
	for _, f := range matches {
		os.Remove(f)
	}
	d.chown()
	d.start()
}

func dovecotOptions(t testing.TB, d *dovecot, h Handler) *Options {
	o := testOptions(t, d.imapAddr(), h)
	o.Username = dovecotMailUser
	// Dovecot forks a login process per connection; on a busy two-core
	// machine a TLS handshake has been seen to take seconds.
	o.DialTimeout, o.CommandTimeout = 10*time.Second, 10*time.Second
	return o
}

// TestDovecotIntake: mail delivered over LMTP is fetched, stored, handled
// once and moved to the processed mailbox (made by the intake); under Run,
// IDLE brings the next mails in at once.
func TestDovecotIntake(t *testing.T) {
	d := startDovecot(t, dovecotSetup{})
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, dovecotOptions(t, d, c.handle))
	var sent [][]byte
	for i := range 3 {
		sent = append(sent, testMail(i))
		d.deliver(sent[i])
	}
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	if got := peek.messages("INBOX"); len(got) != 0 {
		t.Errorf("INBOX holds %d", len(got))
	}
	processed := peek.messages(DefaultProcessedMailbox)
	if len(processed) != 3 {
		t.Fatalf("processed holds %d, want 3", len(processed))
	}
	for i, raw := range sent {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects", i, n)
		}
		if hasFlag(processed[i].flags, imap.FlagSeen) {
			t.Errorf("mail %d was marked \\Seen by fetching", i)
		}
	}

	// Run with the poll a minute away: only IDLE can bring mail in quickly.
	handled := make(chan time.Time, 10)
	opts := dovecotOptions(t, d, func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- time.Now()
		return err
	})
	opts.PollInterval = time.Minute
	runIntake(t, New(db, opts))
	time.Sleep(300 * time.Millisecond)
	var lat []time.Duration
	for i := range 3 {
		start := time.Now()
		d.deliver(testMail(10 + i))
		select {
		case at := <-handled:
			lat = append(lat, at.Sub(start))
		case <-time.After(10 * time.Second):
			t.Fatalf("mail %d not handled within 10s over IDLE", i)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("Dovecot: LMTP delivery to handler over IDLE: %v", lat)
}

// effectsOf finds the stored row holding raw (Dovecot adds headers on top)
// and returns its effect count.
func effectsOf(t testing.TB, db *store.DB, raw []byte) int {
	t.Helper()
	n := 0
	counted := map[string]bool{} // a duplicate row shares its SHA-256, and so its counter
	for _, r := range mailRows(t, db) {
		if bytes.HasSuffix(r.Raw, raw) && !counted[r.SHA256] {
			counted[r.SHA256] = true
			n += metaInt(t, db, "test:effects:"+r.SHA256)
		}
	}
	return n
}

// TestDovecotWithoutMoveAndUIDValidityChange: Dovecot advertising neither
// MOVE nor UIDPLUS gets the mail flagged and never deleted; then INBOX's
// UIDVALIDITY changes under the intake (dovecot-uidlist edited, Dovecot
// restarted): the old mail is recognised by its SHA-256 and not handled
// again, and the new mail is.
func TestDovecotWithoutMoveAndUIDValidityChange(t *testing.T) {
	d := startDovecot(t, dovecotSetup{trimCaps: true})
	db := openStore(t)
	c := &counter{db: db}
	in := New(db, dovecotOptions(t, d, c.handle))
	a, b := testMail(1), testMail(2)
	d.deliver(a)
	d.deliver(b)
	for range 2 {
		if err := in.PollOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	msgs := peek.messages("INBOX")
	if len(msgs) != 2 {
		t.Fatalf("INBOX holds %d, want both: nothing may be deleted without MOVE or UIDPLUS", len(msgs))
	}
	for _, m := range msgs {
		if !hasFlag(m.flags, DefaultProcessedKeyword) || !hasFlag(m.flags, imap.FlagSeen) || hasFlag(m.flags, imap.FlagDeleted) {
			t.Errorf("UID %d flags %v", m.uid, m.flags)
		}
	}
	if peek.messages(DefaultProcessedMailbox) != nil {
		t.Error("processed mailbox created on a server that cannot move safely")
	}
	oldUV := peek.uidValidity("INBOX")
	peek.c.Close()

	d.changeUIDValidity()
	cc := d.imapAddr()
	peek = dialPeek(t, cc, dovecotMailUser, testPass)
	newUV := peek.uidValidity("INBOX")
	if newUV == oldUV {
		t.Fatalf("UIDVALIDITY still %d", newUV)
	}
	e := testMail(3)
	d.deliver(e)
	if err := in.PollOnce(ctx); err != nil {
		t.Fatal(err)
	}
	for i, raw := range [][]byte{a, b, e} {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects after the UIDVALIDITY change", i, n)
		}
	}
	if len(c.seen) != 3 {
		t.Errorf("handler called %d times, want 3", len(c.seen))
	}
	dups := 0
	for _, r := range mailRows(t, db) {
		if r.Status != store.MailMoved {
			t.Errorf("mail %d is %s", r.ID, r.Status)
		}
		if r.Classification == "duplicate" {
			dups++
		}
	}
	if dups != 2 {
		t.Errorf("%d duplicates recorded, want 2", dups)
	}
	if got := len(peek.messages("INBOX")); got != 3 {
		t.Errorf("INBOX holds %d, want 3", got)
	}
	t.Logf("UIDVALIDITY %d → %d: 2 old mails recognised by hash, 1 new handled", oldUV, newUV)
}

// TestDovecotReconnect: Dovecot is killed (SIGKILL) and later stopped
// cleanly (BYE) under a running intake, and started again each time; the
// intake reconnects and mail delivered meanwhile is handled.
func TestDovecotReconnect(t *testing.T) {
	d := startDovecot(t, dovecotSetup{})
	db := openStore(t)
	handled := make(chan struct{}, 10)
	c := &counter{db: db}
	opts := dovecotOptions(t, d, func(ctx context.Context, m store.Mail) error {
		err := c.handle(ctx, m)
		handled <- struct{}{}
		return err
	})
	opts.PollInterval = time.Second
	runIntake(t, New(db, opts))
	var sent [][]byte
	deliver := func() {
		raw := testMail(len(sent))
		sent = append(sent, raw)
		d.deliver(raw)
	}
	wait := func(what string) time.Duration {
		start := time.Now()
		select {
		case <-handled:
		case <-time.After(15 * time.Second):
			t.Fatalf("%s: mail not handled", what)
		}
		return time.Since(start)
	}
	deliver()
	wait("first mail")
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		d.stop(sig)
		time.Sleep(300 * time.Millisecond) // the intake sees the drop and backs off
		d.start()
		deliver()
		t.Logf("after %v and restart: mail handled in %v", sig, wait(sig.String()).Round(time.Millisecond))
	}
	peek := dialPeek(t, d.imapAddr(), dovecotMailUser, testPass)
	if got := len(peek.messages(DefaultProcessedMailbox)); got != len(sent) {
		t.Errorf("processed holds %d, want %d", got, len(sent))
	}
	for i, raw := range sent {
		if n := effectsOf(t, db, raw); n != 1 {
			t.Errorf("mail %d: %d effects", i, n)
		}
	}
}

// TestDovecotTLS reads mail over implicit TLS (imaps) and over STARTTLS,
// checking the server's certificate, and refuses a certificate it does not
// trust.
func TestDovecotTLS(t *testing.T) {
	d := startDovecot(t, dovecotSetup{tls: true})
	db := openStore(t)
	c := &counter{db: db}
	for i, sec := range []config.Security{config.SecurityTLS, config.SecuritySTARTTLS} {
		d.deliver(testMail(i))
		o := dovecotOptions(t, d, c.handle)
		o.Security = sec
		o.TLSConfig = &tls.Config{RootCAs: d.roots}
		if sec == config.SecurityTLS {
			o.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(d.imaps))
		}
		if err := New(db, o).PollOnce(ctx); err != nil {
			t.Fatalf("%s: %v", sec, err)
		}
		if len(c.seen) != i+1 {
			t.Fatalf("%s: %d mails handled, want %d", sec, len(c.seen), i+1)
		}
	}
	o := dovecotOptions(t, d, c.handle)
	o.Security = config.SecurityTLS
	o.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(d.imaps))
	err := New(db, o).PollOnce(ctx) // the system roots do not know this certificate
	var ue x509.UnknownAuthorityError
	if !errors.As(err, &ue) {
		t.Errorf("untrusted certificate: err = %v, want an unknown-authority error", err)
	}
}
