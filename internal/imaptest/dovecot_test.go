//go:build unix

package imaptest

import (
	"net"
	"strings"
	"testing"
)

// TestDovecotChoosesAgainWhenAPortIsTaken: another process takes the IMAP
// port between its choosing and Dovecot binding it (tests of several
// packages start servers at once); the harness starts on other ports and
// answers with its own server, never the other one.
func TestDovecotChoosesAgainWhenAPortIsTaken(t *testing.T) {
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	taken := other.Addr().(*net.TCPAddr).Port
	go func() { // the other server: greets like a Dovecot would
		for {
			c, err := other.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("* OK [CAPABILITY IMAP4rev1] Dovecot (Debian) ready.\r\n"))
			c.Close()
		}
	}()
	first := true
	pickPort = func(t testing.TB) int {
		if first {
			first = false
			return taken
		}
		return freePort(t)
	}
	t.Cleanup(func() { pickPort = freePort })

	d := StartDovecot(t, DovecotOptions{Users: map[string]string{"game@pbem.localhost": "pw"}})
	if d.IMAPPort() == taken {
		t.Fatalf("the server says it listens on %d, the port another process holds", taken)
	}
	c, err := net.Dial("tcp", d.IMAPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 512)
	n, _ := c.Read(buf)
	if !strings.Contains(string(buf[:n]), d.greeting) {
		t.Fatalf("greeting on %s = %q, want this server's %q", d.IMAPAddr(), buf[:n], d.greeting)
	}
}
