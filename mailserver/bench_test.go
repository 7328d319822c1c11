package mailserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// benchMessage is an order mail of typical size (about 2 KB).
var benchMessage = []byte("From: prussia@example.org\r\nTo: referee@pbem.test\r\nSubject: Orders Prussia turn 3\r\n" +
	"Message-ID: <bench@example.org>\r\nDate: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\n" +
	strings.Repeat("MOVE A1 FROM 1203 TO 1204 VIA ROAD; FORCED MARCH\r\n", 40))

// BenchmarkSMTPDelivery measures messages accepted over one SMTP
// connection; each is committed (fsync) before its 250.
func BenchmarkSMTPDelivery(b *testing.B) {
	s := startServer(b, b.TempDir())
	c, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("bench.test"); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := c.SendMail("prussia@example.org", []string{"referee@" + testDomain}, strings.NewReader(string(benchMessage))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIMAPFetch measures UID FETCH BODY.PEEK[] of single messages
// from a mailbox of 500.
func BenchmarkIMAPFetch(b *testing.B) {
	s := startServer(b, b.TempDir())
	ctx := context.Background()
	const n = 500
	for range n {
		if err := s.Deliver(ctx, "referee", benchMessage); err != nil {
			b.Fatal(err)
		}
	}
	c := dialIMAP(b, s, "referee", "ref-secret", nil)
	selectBox(b, c, "INBOX")
	peek := &imap.FetchItemBodySection{Peek: true}
	opts := &imap.FetchOptions{Flags: true, RFC822Size: true, BodySection: []*imap.FetchItemBodySection{peek}}
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		uid := imap.UID(i%n + 1)
		i++
		msgs, err := c.Fetch(imap.UIDSetNum(uid), opts).Collect()
		if err != nil || len(msgs) != 1 || len(msgs[0].FindBodySection(peek)) == 0 {
			b.Fatalf("UID FETCH %d: %v (%d messages)", uid, err, len(msgs))
		}
	}
}

// BenchmarkSMTPToIMAP measures the whole intake hop: an SMTP delivery, then
// UID SEARCH UNSEEN and UID FETCH BODY.PEEK[] of the new message over IMAP.
func BenchmarkSMTPToIMAP(b *testing.B) {
	s := startServer(b, b.TempDir())
	sc, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	if err := sc.Hello("bench.test"); err != nil {
		b.Fatal(err)
	}
	c := dialIMAP(b, s, "referee", "ref-secret", nil)
	selectBox(b, c, "INBOX")
	peek := &imap.FetchItemBodySection{Peek: true}
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	b.ResetTimer()
	var last imap.UID
	for b.Loop() {
		if err := sc.SendMail("prussia@example.org", []string{"referee@" + testDomain}, strings.NewReader(string(benchMessage))); err != nil {
			b.Fatal(err)
		}
		res, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{{{Start: last + 1, Stop: 0}}}}, nil).Wait()
		if err != nil {
			b.Fatal(err)
		}
		uids := res.AllUIDs()
		if len(uids) == 0 || uids[len(uids)-1] <= last {
			b.Fatalf("new message not found: %v after %d", uids, last)
		}
		last = uids[len(uids)-1]
		msgs, err := c.Fetch(imap.UIDSetNum(last), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{peek}}).Collect()
		if err != nil || len(msgs) != 1 {
			b.Fatal(fmt.Sprint("UID FETCH: ", err, len(msgs)))
		}
	}
}
