//go:build unix

package imaptest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Dovecot is a real Dovecot 2.3 started by a test on loopback ports, with
// its configuration in a temporary folder: plain IMAP (no TLS) and LMTP for
// delivery, accounts with plain passwords. It stops when the test ends.
// (The same setup as inbox's Dovecot tests, shared for other packages.)
type Dovecot struct {
	t        testing.TB
	bin, dir string
	runAs    string
	imap     int
	lmtp     int
	cmd      *exec.Cmd
	exited   chan struct{}
}

// DovecotOptions vary the server.
type DovecotOptions struct {
	// Users maps each account (a full address) to its password.
	Users map[string]string
	// TrimCaps advertises neither MOVE nor UIDPLUS (IDLE stays).
	TrimCaps bool
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
	d.imap, d.lmtp = freePort(t), freePort(t)
	extra := ""
	if o.TrimCaps {
		extra = "imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ NAMESPACE CHILDREN UNSELECT\n"
	}
	group := d.runAs
	if u, err := user.Lookup(d.runAs); err == nil {
		if g, err := user.LookupGroupId(u.Gid); err == nil {
			group = g.Name
		} else {
			group = u.Gid
		}
	}
	conf := fmt.Sprintf(`protocols = imap lmtp
listen = 127.0.0.1
ssl = no
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
    port = 0
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
`, d.dir, d.runAs, group, d.imap, d.lmtp, extra)
	var passwd strings.Builder
	users := make([]string, 0, len(o.Users))
	for u := range o.Users {
		users = append(users, u)
	}
	slices.Sort(users)
	for _, u := range users {
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s::::::\n", u, o.Users[u])
	}
	for name, content := range map[string]string{"dovecot.conf": conf, "passwd": passwd.String()} {
		if err := os.WriteFile(filepath.Join(d.dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"run", "state", "home"} {
		if err := os.MkdirAll(filepath.Join(d.dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", "-R", d.runAs+":", d.dir).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v %s", err, out)
		}
	}
	d.start()
	t.Cleanup(d.stop)
	return d
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

func (d *Dovecot) start() {
	d.t.Helper()
	args := []string{d.bin, "-F", "-c", filepath.Join(d.dir, "dovecot.conf")}
	if os.Geteuid() == 0 {
		args = append([]string{"runuser", "-u", d.runAs, "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	// A file, not a pipe: Wait must not wait for Dovecot's children.
	out, err := os.OpenFile(filepath.Join(d.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		d.t.Fatalf("starting dovecot: %v", err)
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
			if bytes.Contains(buf[:n], []byte("* OK")) && !bytes.Contains(buf[:n], []byte("Waiting")) {
				return
			}
		}
		select {
		case <-d.exited:
			d.t.Fatalf("dovecot exited at start:\n%s", d.Logs())
		default:
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("dovecot did not answer on %s:\n%s", d.IMAPAddr(), d.Logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends Dovecot's master process cleanly and waits for it.
func (d *Dovecot) stop() {
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
		syscall.Kill(pid, syscall.SIGTERM)
	} else {
		d.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-d.exited:
	case <-time.After(10 * time.Second):
		d.t.Errorf("dovecot did not stop")
	}
	for _, k := range kids {
		syscall.Kill(k, syscall.SIGKILL)
	}
	d.cmd = nil
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

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
