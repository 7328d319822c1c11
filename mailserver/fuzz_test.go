package mailserver

import (
	"bufio"
	"bytes"
	netmail "net/mail"
	"testing"

	"github.com/emersion/go-message/textproto"
)

// FuzzSubmissionHeader: the submission policy reads any header a client
// sends without panicking; what it lets through from a client that did not
// log in names none of the server's addresses in From or Sender, and what
// it lets through from a logged-in client names only the client's own.
func FuzzSubmissionHeader(f *testing.F) {
	f.Add([]byte("From: referee@pbem.test\r\n\r\nx"), false)
	f.Add([]byte("From: \"a\" <prussia@pbem.test>\r\nSender: <<x@pbem.test>\r\n\r\n"), true)
	f.Add([]byte("From: =?utf-8?q?a?= <b@example.org>, c@PBEM.test\r\n\r\n"), false)
	s, err := New(&Options{Dir: f.TempDir(), Domain: testDomain})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, header []byte, loggedIn bool) {
		header = header[:min(len(header), maxPolicyHeader)]
		sess := &smtpSession{srv: s}
		if loggedIn {
			sess.authUser = "prussia"
		}
		info, err := sess.checkHeader(header, true)
		if err != nil {
			return
		}
		// What is dropped is this server's Authentication-Results, in
		// order, within the header.
		last := 0
		for _, d := range info.drop {
			if d[0] < last || d[1] <= d[0] || d[1] > len(header) ||
				!bytes.HasPrefix(bytes.ToLower(header[d[0]:d[1]]), []byte("authentication-results")) {
				t.Fatalf("dropped %v of %q", d, header)
			}
			last = d[1]
		}
		h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(header)))
		if err != nil {
			return
		}
		for _, key := range []string{"From", "Sender"} {
			for _, v := range h.Values(key) {
				list, err := netmail.ParseAddressList(v)
				if err != nil {
					continue
				}
				for _, a := range list {
					if !loggedIn && s.isLocalAddress(a.Address) {
						t.Fatalf("a client that did not log in got %s: %s through", key, a.Address)
					}
					if loggedIn && a.Address != "prussia@"+testDomain && !bytes.EqualFold([]byte(a.Address), []byte("prussia@"+testDomain)) {
						t.Fatalf("prussia got %s: %s through", key, a.Address)
					}
				}
			}
		}
	})
}
