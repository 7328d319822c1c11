package mailserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// TestConcurrentDeliveriesAndSessions: parallel SMTP deliveries get
// distinct UIDs, and a second session sees the first one's MOVE as
// EXPUNGEs that keep its sequence numbers right.
func TestConcurrentDeliveriesAndSessions(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	const senders, each = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, senders*each)
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				body := fmt.Sprintf("Subject: g%d m%d\r\n\r\nbody\r\n", g, i)
				if err := plainSendMail(s.SMTPAddr(), "x@example.org", "referee@"+testDomain, body); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent delivery: %v", err)
	}

	watcher := dialIMAP(t, s, "referee", "ref-secret", nil)
	mover := dialIMAP(t, s, "referee", "ref-secret", nil)
	if n := selectBox(t, watcher, "INBOX").NumMessages; n != senders*each {
		t.Fatalf("INBOX has %d messages, want %d", n, senders*each)
	}
	selectBox(t, mover, "INBOX")
	want := make([]imap.UID, senders*each)
	for i := range want {
		want[i] = imap.UID(i + 1)
	}
	if got := uidSearchAll(t, watcher); !slices.Equal(got, want) {
		t.Fatalf("UIDs = %v, want 1..%d", got, senders*each)
	}

	if err := mover.Create("done", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var moveSet imap.UIDSet
	moveSet.AddRange(1, 10)
	moveSet.AddNum(20)
	if _, err := mover.Move(moveSet, "done").Wait(); err != nil {
		t.Fatalf("MOVE: %v", err)
	}
	// The watcher learns of the expunges with its next command.
	if err := watcher.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	if got := watcher.Mailbox().NumMessages; got != senders*each-11 {
		t.Errorf("watcher thinks INBOX has %d messages, want %d", got, senders*each-11)
	}
	msgs, err := watcher.Fetch(imap.SeqSetNum(1, 9, 10), &imap.FetchOptions{UID: true}).Collect()
	var got []imap.UID
	for _, m := range msgs {
		got = append(got, m.UID)
	}
	if err != nil || !slices.Equal(got, []imap.UID{11, 19, 21}) {
		t.Errorf("FETCH 1,9,10 (UID) after the move = %v, %v; want UIDs 11, 19, 21", got, err)
	}
	st, err := watcher.Status("done", &imap.StatusOptions{NumMessages: true, UIDNext: true}).Wait()
	if err != nil || *st.NumMessages != 11 || st.UIDNext != 12 {
		t.Errorf("STATUS done = %+v, %v; want 11 messages, UIDNEXT 12", st, err)
	}
}

// TestSelectedMailboxDeleted: a session whose mailbox another session
// deletes gets a clear NO, not stale data.
func TestSelectedMailboxDeleted(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	a := dialIMAP(t, s, "referee", "ref-secret", nil)
	b := dialIMAP(t, s, "referee", "ref-secret", nil)
	if err := a.Create("tmp", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	selectBox(t, a, "tmp")
	if err := b.Delete("tmp").Wait(); err != nil {
		t.Fatal(err)
	}
	_, err := a.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{Flags: true}).Collect()
	if imapCode(err) != imap.ResponseCodeNonExistent {
		t.Errorf("FETCH in a deleted mailbox: %v, want NO [NONEXISTENT]", err)
	}
	if _, err := a.Select("tmp", nil).Wait(); imapCode(err) != imap.ResponseCodeNonExistent {
		t.Errorf("SELECT of a deleted mailbox: %v, want NO [NONEXISTENT]", err)
	}
}

// TestExamineIsReadOnly: EXAMINE never changes a message.
func TestExamineIsReadOnly(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	if err := s.Deliver(context.Background(), "referee", []byte("Subject: x\r\n\r\ny\r\n")); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	msg := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{{}}})
	if slices.Contains(msg.Flags, imap.FlagSeen) {
		t.Error("BODY[] under EXAMINE set \\Seen")
	}
	err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	if err == nil {
		t.Error("STORE under EXAMINE succeeded")
	}
	if err := c.Unselect().Wait(); err != nil {
		t.Fatal(err)
	}
	selectBox(t, c, "INBOX")
	if f := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true}).Flags; len(f) != 0 {
		t.Errorf("flags after EXAMINE = %v, want none", f)
	}
}

// TestAppendAndSearch: APPEND keeps flags and date; SEARCH understands
// the criteria an intake uses, and SEARCHRES.
func TestAppendAndSearch(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	old := time.Date(2024, 3, 1, 12, 0, 0, 0, time.FixedZone("", 3600))
	appendMsg := func(flags []imap.Flag, date time.Time, raw string) imap.UID {
		t.Helper()
		cmd := c.Append("INBOX", int64(len(raw)), &imap.AppendOptions{Flags: flags, Time: date})
		cmd.Write([]byte(raw))
		cmd.Close()
		data, err := cmd.Wait()
		if err != nil {
			t.Fatalf("APPEND: %v", err)
		}
		return data.UID
	}
	u1 := appendMsg([]imap.Flag{imap.FlagSeen, "Nation-Prussia"}, old,
		"From: fritz@example.org\r\nSubject: Orders\r\nDate: Fri, 01 Mar 2024 11:00:00 +0000\r\n\r\nMARCH ON DRESDEN\r\n")
	u2 := appendMsg(nil, time.Time{}, "From: maria@example.org\r\nSubject: =?utf-8?q?Befehle_f=C3=BCr_=C3=96sterreich?=\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nSE9MRCBQUkFHVUU=\r\n")
	if u1 != 1 || u2 != 2 {
		t.Fatalf("APPENDUIDs %d %d, want 1 2", u1, u2)
	}
	missing := c.Append("nowhere", 1, nil)
	missing.Write([]byte("x"))
	missing.Close()
	if _, err := missing.Wait(); imapCode(err) != imap.ResponseCodeTryCreate {
		t.Errorf("APPEND to a missing mailbox: %v, want NO [TRYCREATE]", err)
	}
	selectBox(t, c, "INBOX")
	m1 := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true, InternalDate: true})
	if !m1.InternalDate.Equal(old) || flagSet(m1.Flags) != `\Seen Nation-Prussia` {
		t.Errorf("APPENDed message: date %v flags %v", m1.InternalDate, m1.Flags)
	}

	for _, tc := range []struct {
		name string
		c    imap.SearchCriteria
		want []imap.UID
	}{
		{"UNSEEN", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, []imap.UID{2}},
		{"KEYWORD any case", imap.SearchCriteria{Flag: []imap.Flag{"nation-prussia"}}, []imap.UID{1}},
		{"SUBJECT decoded", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "österreich"}}}, []imap.UID{2}},
		{"BODY base64", imap.SearchCriteria{Body: []string{"hold prague"}}, []imap.UID{2}},
		{"TEXT header", imap.SearchCriteria{Text: []string{"fritz@"}}, []imap.UID{1}},
		{"BEFORE", imap.SearchCriteria{Before: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}, []imap.UID{1}},
		{"SENTSINCE", imap.SearchCriteria{SentSince: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}, []imap.UID{1}},
		{"OR", imap.SearchCriteria{Or: [][2]imap.SearchCriteria{{
			{Flag: []imap.Flag{imap.FlagSeen}}, {Body: []string{"prague"}}}}}, []imap.UID{1, 2}},
		{"NOT UID", imap.SearchCriteria{Not: []imap.SearchCriteria{{UID: []imap.UIDSet{imap.UIDSetNum(1)}}}}, []imap.UID{2}},
		{"seq 2:*", imap.SearchCriteria{SeqNum: []imap.SeqSet{{{Start: 2, Stop: 0}}}}, []imap.UID{2}},
		{"LARGER", imap.SearchCriteria{Larger: 150}, []imap.UID{2}},
	} {
		res, err := c.UIDSearch(&tc.c, nil).Wait()
		if err != nil {
			t.Errorf("UID SEARCH %s: %v", tc.name, err)
			continue
		}
		if got := res.AllUIDs(); !slices.Equal(got, tc.want) {
			t.Errorf("UID SEARCH %s = %v, want %v", tc.name, got, tc.want)
		}
	}

	// SEARCH RETURN (SAVE), then FETCH $, on the wire (imapclient does not
	// send SAVE).
	conn, err := net.Dial("tcp", s.IMAPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	r.ReadString('\n') // greeting
	command := func(tag, line string) string {
		t.Helper()
		fmt.Fprintf(conn, "%s %s\r\n", tag, line)
		var out strings.Builder
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("%s: %v (so far %q)", line, err, out.String())
			}
			out.WriteString(l)
			if strings.HasPrefix(l, tag+" ") {
				return out.String()
			}
		}
	}
	command("a", "LOGIN referee ref-secret")
	command("b", "SELECT INBOX")
	if got := command("c", "SEARCH RETURN (SAVE) UNSEEN"); !strings.Contains(got, "c OK") {
		t.Errorf("SEARCH RETURN (SAVE): %q", got)
	}
	if got := command("d", "FETCH $ (UID)"); !strings.Contains(got, "* 2 FETCH (UID 2)") || strings.Contains(got, "UID 1)") {
		t.Errorf("FETCH $ = %q, want message 2 only", got)
	}
}

// TestSMTPLongLine: a line beyond the limit is refused permanently.
func TestSMTPLongLine(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	err := plainSendMail(s.SMTPAddr(), "x@example.org", "referee@"+testDomain,
		"Subject: x\r\n\r\n"+strings.Repeat("y", 3000)+"\r\n")
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 500 {
		t.Errorf("long line: %v, want 500", err)
	}
}

// TestListSubscribedRecursive: LIST (SUBSCRIBED RECURSIVEMATCH) names a
// parent whose child is subscribed.
func TestListSubscribedRecursive(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	c := dialIMAP(t, s, "referee", "ref-secret", nil)
	if err := c.Create("turns/3", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe("turns/3").Wait(); err != nil {
		t.Fatal(err)
	}
	list, err := c.List("", "%", &imap.ListOptions{SelectSubscribed: true, SelectRecursiveMatch: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range list {
		entry := l.Mailbox
		if l.ChildInfo != nil && l.ChildInfo.Subscribed {
			entry += "+child"
		}
		got = append(got, entry)
	}
	if !slices.Equal(got, []string{"INBOX", "turns+child"}) {
		t.Errorf("LIST (SUBSCRIBED RECURSIVEMATCH) %% = %v, want [INBOX turns+child]", got)
	}
	status, err := c.List("", "*", &imap.ListOptions{ReturnStatus: &imap.StatusOptions{NumMessages: true}}).Collect()
	if err != nil || len(status) != 3 || status[0].Status == nil {
		t.Errorf("LIST RETURN (STATUS) = %+v, %v", status, err)
	}
}

// plainSendMail sends one message over plain SMTP (smtp.SendMail insists
// on STARTTLS).
func plainSendMail(addr, from, to, msg string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, strings.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}
