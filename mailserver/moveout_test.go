package mailserver

import (
	"context"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
)

// TestMoveOut: handled mail leaves the INBOX for the processed mailbox in
// one step, each message replaced by its copy when one is given (flags and
// date kept, the arrival "masked"), as it is otherwise; a repeat does
// nothing more; a second delivery of a mail already taken out leaves no
// second copy; a session watching the INBOX sees the EXPUNGEs.
func TestMoveOut(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	referee := &Login{User: "referee", Password: "ref-secret"}
	send := func(id string) {
		t.Helper()
		raw := []byte("From: referee@pbem.test\r\nTo: prussia@pbem.test\r\nMessage-ID: <" + id + ">\r\n\r\nPASSWORD secret\r\n")
		if err := SendAs(ctx, s.SMTPAddr(), referee, "referee@pbem.test", []string{"prussia@pbem.test"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	send("a@x")
	send("b@x")
	if err := s.EnsureMailbox(ctx, "prussia", "done"); err != nil {
		t.Fatal(err)
	}
	watch := dialIMAP(t, s, "prussia", "fritz", nil)
	uv := selectBox(t, watch, "INBOX").UIDValidity
	if err := watch.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	items := []Replacement{{UID: 1, Raw: []byte("Subject: masked\r\n\r\nPASSWORD ****\r\n")}, {UID: 2}}
	for round := range 2 {
		n, err := s.MoveOut(ctx, "prussia", "INBOX", uv, "done", items)
		if err != nil || n != 2-2*round {
			t.Fatalf("round %d: %d taken out (%v), want %d", round, n, err, 2-2*round)
		}
	}
	if _, err := s.MoveOut(ctx, "prussia", "INBOX", uv+1, "done", items); err == nil {
		t.Error("a MoveOut under another UIDVALIDITY was not refused")
	}
	if uids := uidSearchAll(t, watch); len(uids) != 0 {
		t.Errorf("the INBOX still shows %v", uids)
	}
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	done := selectBox(t, c, "done")
	if done.NumMessages != 2 {
		t.Fatalf("done holds %d", done.NumMessages)
	}
	first := fetchOne(t, c, 1, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}})
	if got := string(first.BodySection[0].Bytes); got != string(items[0].Raw) || flagSet(first.Flags) != `\Flagged` {
		t.Errorf("the replaced message: %q, flags %v", got, first.Flags)
	}
	second := string(fetchOne(t, c, 2, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).BodySection[0].Bytes)
	if !strings.Contains(second, "Message-ID: <b@x>") {
		t.Errorf("the message moved as it is: %q", second)
	}
	if a, _, _ := s.ArrivalOf(ctx, "prussia", "done", done.UIDValidity, 1); a.Via != ViaMasked {
		t.Errorf("the copy's arrival %v", a)
	}

	// The first mail again (a resend after the first was taken out):
	// stored in the INBOX, but taken out without a second copy.
	send("a@x")
	n, err := s.MoveOut(ctx, "prussia", "INBOX", uv, "done", []Replacement{{UID: 3, Raw: []byte("Subject: masked again\r\n\r\nx\r\n")}})
	if err != nil || n != 1 {
		t.Fatalf("the resend: %d taken out (%v)", n, err)
	}
	if got := selectBox(t, c, "done").NumMessages; got != 2 {
		t.Errorf("done holds %d after the resend was taken out, want 2", got)
	}
}

// TestLargeMessageInChunks: a message of several chunks is stored from the
// SMTP spool, fetched whole (streamed), in part and by its header, copied,
// moved and expunged like any other, and its chunks go with it.
func TestLargeMessageInChunks(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("From: x@example.org\r\nTo: prussia@pbem.test\r\nSubject: big\r\nMessage-ID: <big@x>\r\n\r\n")
	for i := 0; b.Len() < 3*chunkSize+12345; i++ {
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), 70) + "\r\n")
	}
	sent := b.String()
	if err := Send(ctx, s.SMTPAddr(), "x@example.org", []string{"prussia@pbem.test"}, []byte(sent)); err != nil {
		t.Fatal(err)
	}
	chunks := func() (n int) {
		s.mu.RLock()
		defer s.mu.RUnlock()
		s.db.QueryRow("SELECT count(*) FROM message_chunks").Scan(&n)
		return n
	}
	if n := chunks(); n != 3 {
		t.Errorf("%d chunks stored, want 3", n)
	}
	c := dialIMAP(t, s, "prussia", "fritz", nil)
	selectBox(t, c, "INBOX")
	whole := string(fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).BodySection[0].Bytes)
	if !strings.HasSuffix(whole, sent) || !strings.HasPrefix(whole, "Return-Path: <x@example.org>\r\n") {
		t.Fatalf("BODY[] is not the message sent (%d bytes, sent %d)", len(whole), len(sent))
	}
	got := fetchOne(t, c, 1, &imap.FetchOptions{RFC822Size: true, BodyStructure: &imap.FetchItemBodyStructure{},
		BodySection: []*imap.FetchItemBodySection{
			{Peek: true, Partial: &imap.SectionPartial{Offset: int64(chunkSize) - 10, Size: 20}},
			{Peek: true, Specifier: imap.PartSpecifierHeader},
		}})
	if got.RFC822Size != int64(len(whole)) || got.BodyStructure == nil {
		t.Errorf("RFC822.SIZE %d (want %d), BODYSTRUCTURE %v", got.RFC822Size, len(whole), got.BodyStructure)
	}
	for _, sec := range got.BodySection {
		want := whole[chunkSize-10 : chunkSize+10]
		if sec.Section.Specifier == imap.PartSpecifierHeader {
			want = whole[:strings.Index(whole, "\r\n\r\n")+4]
		}
		if string(sec.Bytes) != want {
			t.Errorf("section %v: %q, want %q", sec.Section, sec.Bytes, want)
		}
	}
	c.Create("Copy", nil).Wait()
	c.Create("Moved", nil).Wait()
	if _, err := c.Copy(imap.UIDSetNum(1), "Copy").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1), "Moved").Wait(); err != nil {
		t.Fatal(err)
	}
	if n := chunks(); n != 6 {
		t.Errorf("%d chunks after a COPY and a MOVE, want 6", n)
	}
	for _, box := range []string{"Copy", "Moved"} {
		selectBox(t, c, box)
		if got := string(fetchOne(t, c, 1, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).BodySection[0].Bytes); got != whole {
			t.Errorf("%s: the copy differs (%d bytes)", box, len(got))
		}
	}
	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("Copy").Wait(); err != nil {
		t.Fatal(err)
	}
	if n := chunks(); n != 0 {
		t.Errorf("%d chunks left after the messages were expunged and their mailbox deleted", n)
	}
}
