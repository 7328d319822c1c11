//go:build unix

package imaptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
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
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Dovecot is a real Dovecot 2.3 started by a test on loopback ports, with
// its configuration in a temporary folder: IMAP (plain, or with TLS a
// self-signed certificate, STARTTLS on the IMAP port and implicit TLS on
// IMAPS) and LMTP for delivery, accounts with plain passwords. It stops
// when the test ends. The one Dovecot harness: the intake's tests, the
// daemon's, cmd/pbem's doctor and the test provider (StartProvider) use it.
type Dovecot struct {
	t          testing.TB
	bin, dir   string
	runAs      string
	imap, lmtp int
	imaps      int            // 0 without TLS
	roots      *x509.CertPool // trusts the server's certificate (with TLS)
	cmd        *exec.Cmd
	exited     chan struct{}
	// greeting is this server's own login greeting: Start waits for it,
	// so that a port some other test's server took in the meantime is
	// never mistaken for this one.
	greeting string
	opts     DovecotOptions
	group    string
	started  bool // Start has succeeded once: the ports are the clients' now
}

// DovecotOptions vary the server.
type DovecotOptions struct {
	// Users maps each account (a full address) to its password.
	Users map[string]string
	// TrimCaps advertises neither MOVE nor UIDPLUS (IDLE stays).
	TrimCaps bool
	// TLS gives the server a self-signed certificate for 127.0.0.1 and
	// localhost (Roots trusts it): STARTTLS on the IMAP port, implicit TLS
	// on IMAPSPort.
	TLS bool
}

// dovecotRunUser is the throwaway user Dovecot runs as when the test runs
// as root.
const dovecotRunUser = "pbemtest"

// StartDovecot starts Dovecot, or skips the test when it is not installed.
func StartDovecot(t testing.TB, o DovecotOptions) *Dovecot {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/dovecot"); serr != nil {
			t.Skip("dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd); skipping the real-server test")
		}
		bin = "/usr/sbin/dovecot"
	}
	d := &Dovecot{t: t, bin: bin}
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
	d.opts = o
	d.greeting = fmt.Sprintf("pbem test Dovecot %d.%s ready.", os.Getpid(), filepath.Base(d.dir))
	if o.TLS {
		d.roots = writeSelfSigned(t, d.dir)
	}
	d.group = d.runAs
	if u, err := user.Lookup(d.runAs); err == nil {
		if g, err := user.LookupGroupId(u.Gid); err == nil {
			d.group = g.Name
		} else {
			d.group = u.Gid
		}
	}
	d.choosePorts()
	var passwd strings.Builder
	users := make([]string, 0, len(o.Users))
	for u := range o.Users {
		users = append(users, u)
	}
	slices.Sort(users)
	for _, u := range users {
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s::::::\n", u, o.Users[u])
	}
	for name, content := range map[string]string{"dovecot.conf": d.conf(), "passwd": passwd.String()} {
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
	d.Start()
	t.Cleanup(func() { d.Stop(syscall.SIGTERM) })
	return d
}

// choosePorts picks free loopback ports for the server. Free when asked:
// another test process may take one before Dovecot binds it, which Start
// sees and answers by choosing again.
func (d *Dovecot) choosePorts() {
	d.imap, d.lmtp = pickPort(d.t), pickPort(d.t)
	if d.opts.TLS {
		d.imaps = pickPort(d.t)
	}
}

// conf is dovecot.conf for the chosen ports and options.
func (d *Dovecot) conf() string {
	extra := ""
	if d.opts.TrimCaps {
		extra = "imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ NAMESPACE CHILDREN UNSELECT\n"
	}
	ssl := "ssl = no"
	if d.opts.TLS {
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", d.dir)
	}
	return fmt.Sprintf(dovecotConf, d.dir, d.runAs, d.group, d.imap, d.lmtp, extra, d.imaps, ssl, d.greeting)
}

// dovecotConf is the server's configuration: folder, user, group, IMAP
// port, LMTP port, extra lines, IMAPS port, TLS lines, greeting. A refused
// login is answered at once (auth_failure_delay = 0), not after Dovecot's
// two seconds: the tests of wrong passwords wait on nothing else.
const dovecotConf = `protocols = imap lmtp
listen = 127.0.0.1
%[8]s
login_greeting = %[9]s
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
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
`

// chown gives the folder to the user Dovecot runs as.
func (d *Dovecot) chown() {
	if os.Geteuid() != 0 {
		return
	}
	if out, err := exec.Command("chown", "-R", d.runAs+":", d.dir).CombinedOutput(); err != nil {
		d.t.Fatalf("chown: %v %s", err, out)
	}
}

// IMAPSPort is the implicit-TLS IMAP port (0 without TLS).
func (d *Dovecot) IMAPSPort() int { return d.imaps }

// Roots trusts the server's certificate (nil without TLS).
func (d *Dovecot) Roots() *x509.CertPool { return d.roots }

// ChangeUIDValidity stops Dovecot, gives user's INBOX a new UIDVALIDITY in
// its dovecot-uidlist (dropping the indexes that cache the old one), and
// starts it again: what a mailbox rebuilt by an administrator looks like.
func (d *Dovecot) ChangeUIDValidity(user string) {
	d.t.Helper()
	d.Stop(syscall.SIGTERM)
	maildir := filepath.Join(d.dir, "home", user, "Maildir")
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
	d.Start()
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

// IMAPAddr is the server's plain IMAP address, "127.0.0.1:PORT".
func (d *Dovecot) IMAPAddr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.imap)) }

// IMAPPort is the IMAP port.
func (d *Dovecot) IMAPPort() int { return d.imap }

// Deliver hands raw to the account rcpt over LMTP, as a mail server would.
func (d *Dovecot) Deliver(from, rcpt string, raw []byte) error {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(d.lmtp)), 5*time.Second)
	if err != nil {
		return err
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	return c.SendMail(from, []string{rcpt}, bytes.NewReader(raw))
}

// Logs is Dovecot's output and log, for a failing test's message.
func (d *Dovecot) Logs() string {
	out, _ := os.ReadFile(filepath.Join(d.dir, "stdout.log"))
	log, _ := os.ReadFile(filepath.Join(d.dir, "dovecot.log"))
	return string(out) + string(log)
}

// Start starts Dovecot again after Stop (StartDovecot starts it the first
// time), in the foreground (-F), and waits until IMAP answers with this
// server's own greeting. The first time, a port taken by another process
// between choosing and binding it is chosen again (a few times); after
// that the ports are the clients', and a clash fails the test.
func (d *Dovecot) Start() {
	d.t.Helper()
	for attempt := 1; ; attempt++ {
		err := d.start()
		if err == nil {
			d.started = true
			return
		}
		if d.started || attempt == 5 || !errors.Is(err, errPortTaken) {
			d.t.Fatalf("%v:\n%s", err, d.Logs())
		}
		d.choosePorts()
		if err := os.WriteFile(filepath.Join(d.dir, "dovecot.conf"), []byte(d.conf()), 0o644); err != nil {
			d.t.Fatal(err)
		}
		os.Remove(filepath.Join(d.dir, "dovecot.log"))
		os.Remove(filepath.Join(d.dir, "stdout.log"))
		d.chown()
	}
}

// errPortTaken is a start that failed because a port was in use.
var errPortTaken = errors.New("a port Dovecot was to listen on is in use")

// start runs the server once and waits for its greeting.
func (d *Dovecot) start() error {
	args := []string{d.bin, "-F", "-c", filepath.Join(d.dir, "dovecot.conf")}
	if os.Geteuid() == 0 {
		args = append([]string{"runuser", "-u", d.runAs, "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	// A file, not a pipe: Wait must not wait for Dovecot's children.
	out, err := os.OpenFile(filepath.Join(d.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting dovecot: %w", err)
	}
	d.cmd, d.exited = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(d.exited) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", d.IMAPAddr(), time.Second)
		if err == nil {
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 512)
			n, _ := c.Read(buf)
			c.Close()
			if bytes.Contains(buf[:n], []byte(d.greeting)) {
				return nil
			}
		}
		select {
		case <-d.exited:
			d.cmd = nil
			if strings.Contains(d.Logs(), "Address already in use") {
				return errPortTaken
			}
			return errors.New("dovecot exited at start")
		default:
		}
		if time.Now().After(deadline) {
			d.Stop(syscall.SIGKILL)
			return fmt.Errorf("dovecot did not answer on %s with its greeting", d.IMAPAddr())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop signals Dovecot's master process (SIGTERM: a clean shutdown that
// says BYE; SIGKILL: sudden death), waits for it, ends the processes it
// leaves, and waits until the IMAP port is free, so that Start can bind it.
func (d *Dovecot) Stop(sig syscall.Signal) {
	if d.cmd == nil {
		return
	}
	pidText, err := os.ReadFile(filepath.Join(d.dir, "run", "master.pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	// Dovecot's imap, log and stats processes outlive the master by up to
	// half a minute, holding their connections open: a server that went
	// down would have dropped them. They are this master's descendants.
	var kids []int
	if err == nil && pid > 0 {
		kids = descendants(pid)
		syscall.Kill(pid, sig)
	} else {
		d.cmd.Process.Signal(sig)
	}
	select {
	case <-d.exited:
	case <-time.After(10 * time.Second):
		d.t.Errorf("dovecot did not stop after %v", sig)
	}
	for _, k := range kids {
		syscall.Kill(k, syscall.SIGKILL)
	}
	d.cmd = nil
	for range 200 {
		ln, err := net.Listen("tcp", d.IMAPAddr())
		if err == nil {
			ln.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	d.t.Errorf("IMAP port %d still busy after dovecot stopped", d.imap)
}

// descendants lists the processes below pid (read from /proc; none where
// there is no /proc).
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			parent[n] = pp
		}
	}
	var out []int
	for n := range parent {
		for p := parent[n]; p > 1; p = parent[p] {
			if p == pid {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// pickPort is how the server's ports are chosen (a test of the harness
// hands it a taken one).
var pickPort = freePort

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
