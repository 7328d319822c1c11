package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// The IMAP forgery of issue 21: whoever holds the game account's IMAP
// password can put any bytes into the game's INBOX — APPEND them, or APPEND
// them to another folder and COPY or MOVE them in — with the embedded
// server's own Authentication-Results stamp for the From address written on
// top, and the right password of the referee or of a nation in the text.
// Authenticity is what the server recorded of each message's arrival, never
// a header: every such mail is refused, nothing of it counts, and the owner
// of the From address is told.

// imapPut puts raw into the game account's INBOX the way named: "append"
// straight into INBOX; "copy" or "move" by way of the folder Drafts.
func imapPut(t *testing.T, addr, how string, raw []byte) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("orders@pbem.localhost", "pw-orders").Wait(); err != nil {
		t.Fatal(err)
	}
	folder := "INBOX"
	if how != "append" {
		folder = "Drafts"
		c.Create(folder, nil).Wait() // there already after the first case
	}
	cmd := c.Append(folder, int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if how == "append" {
		return
	}
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	set := imap.UIDSetNum(data.UID)
	if how == "copy" {
		_, err = c.Copy(set, "INBOX").Wait()
	} else {
		_, err = c.Move(set, "INBOX").Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestSpoofByIMAP: the APPEND, COPY and MOVE forgeries, as the referee (a
// DEADLINE EXTEND with the referee password) and as a nation (its sheet with
// its password), each with the server's pass stamp for the From address on
// top: refused, nothing recorded, the deadline where it was, and the owner
// told.
func TestSpoofByIMAP(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	ctx := context.Background()
	const ref, eisen = "referee@pbem.localhost", "eisenmark@pbem.localhost"
	deadline, _ := h.d.Game.Deadline(ctx)
	n := 0
	for _, how := range []string{"append", "copy", "move"} {
		for _, who := range []string{ref, eisen} {
			n++
			var raw []byte
			if who == ref {
				raw = []byte(stamp("auth=pass smtp.auth="+ref) + "From: " + ref + "\r\nTo: orders@pbem.localhost\r\nSubject: deadline\r\n" +
					"Message-ID: <imap-" + how + "-referee@pbem.localhost>\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\n\r\n" +
					"GAME syw\r\nPASSWORD " + refereePassword + "\r\nDEADLINE EXTEND 30d\r\nEND\r\n")
			} else {
				raw = []byte(stamp("auth=pass smtp.auth="+eisen) + "From: " + eisen + "\r\nTo: orders@pbem.localhost\r\nSubject: orders\r\n" +
					"Message-ID: <imap-" + how + "-eisenmark@pbem.localhost>\r\n\r\n" + strings.ReplaceAll(goodSheet, "\n", "\r\n"))
			}
			before := h.count(who, loginFor(who).Password)
			imapPut(t, h.d.Mail.IMAPAddr(), how, raw)
			h.sent++
			h.settle()
			msgs := h.inbox(who, loginFor(who).Password)
			told := false
			for _, m := range msgs[min(before, len(msgs)):] {
				told = told || strings.Contains(header(string(m), "Subject"), "A mail in your name was refused")
			}
			if !told {
				t.Errorf("%s by IMAP %s: %s was not told", who, strings.ToUpper(how), who)
			}
			if got := submissionsOf(t, h, KindReferee); len(got) > 0 {
				t.Fatalf("%s by IMAP %s: a referee command was recorded: %+v", who, strings.ToUpper(how), got[0])
			}
			if got := submissionsOf(t, h, KindOrders); len(got) > 0 {
				t.Fatalf("%s by IMAP %s: an order sheet was counted", who, strings.ToUpper(how))
			}
			if d, _ := h.d.Game.Deadline(ctx); !d.Equal(deadline) {
				t.Fatalf("%s by IMAP %s: the deadline moved from %v to %v", who, strings.ToUpper(how), deadline, d)
			}
		}
	}
	t.Logf("%d IMAP forgeries refused", n)
}
