package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// TestSheetReceiptsForReferee: the referee's report gets, for each sheet
// in force, the address it came from and whether it was marked FINAL, and
// every refused sheet of the turn, marked refused.
func TestSheetReceiptsForReferee(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	at := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	mailFrom := func(uid uint32, from string) int64 {
		m, _, err := g.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid, From: from, ReceivedAt: at,
			Raw: []byte("From: " + from + "\r\nSubject: orders FINAL\r\n\r\nx\r\n")})
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	eis, fro := mailFrom(1, "eisenmark@pbem.localhost"), mailFrom(2, "stranger@example.org")
	for _, s := range []store.Submission{
		{Nation: "eisenmark", Kind: KindOrders, MailID: eis, ReceiptHash: "aaa", Valid: true},
		{Nation: "eisenmark", Kind: KindFinal, MailID: eis},
		{Nation: "fromande", Kind: KindOrders, MailID: fro, ReceiptHash: "bbb", Valid: false},
		{Nation: "hispardia", Kind: KindOrders, ReceiptHash: "ccc", Valid: true}, // typed in by the referee
	} {
		s.GameID, s.Turn, s.SubmittedAt, s.RawText, s.CanonicalText = "syw", 1, at, "x", "x"
		if _, _, err := g.DB.SaveSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	got, err := g.sheetReceipts(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		from           string
		final, refused bool
	}
	want := map[string]line{
		"eisenmark": {"eisenmark@pbem.localhost", true, false},
		"fromande":  {"stranger@example.org", false, true},
		"hispardia": {"", false, false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d sheets, want %d: %+v", len(got), len(want), got)
	}
	for _, s := range got {
		if w := want[string(s.Nation)]; (line{s.From, s.Final, s.Refused}) != w {
			t.Errorf("%s: from %q, final %v, refused %v; want %+v", s.Nation, s.From, s.Final, s.Refused, w)
		}
	}
}
