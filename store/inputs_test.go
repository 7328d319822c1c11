package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestDeadlines: a turn opens with the schedule's deadline once (a second
// open keeps it); the referee's change replaces it and is kept over a
// reopen; a turn without a row has none.
func TestDeadlines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := withGame(t)
	if _, err := db.TurnDeadline(ctx, "syw", 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deadline of a turn never opened: %v", err)
	}
	at := t0.Add(28 * 24 * time.Hour)
	if ok, err := db.OpenDeadline(ctx, "syw", 1, at); err != nil || !ok {
		t.Fatalf("OpenDeadline = %v, %v", ok, err)
	}
	if ok, err := db.OpenDeadline(ctx, "syw", 1, at.Add(time.Hour)); err != nil || ok {
		t.Errorf("a second OpenDeadline = %v, %v; want the first kept", ok, err)
	}
	d, err := db.TurnDeadline(ctx, "syw", 1)
	if err != nil || !d.At.Equal(at.UTC().Truncate(time.Nanosecond)) || !d.Scheduled.Equal(d.At) || d.Source != DeadlineSchedule {
		t.Errorf("opened deadline = %+v, %v", d, err)
	}
	later := at.Add(48 * time.Hour)
	if err := db.SetDeadline(ctx, "syw", 1, later, 0); err != nil {
		t.Fatal(err)
	}
	db.OpenDeadline(ctx, "syw", 1, at)
	d, _ = db.TurnDeadline(ctx, "syw", 1)
	if !d.At.Equal(later) || !d.Scheduled.Equal(at) || d.Source != DeadlineReferee {
		t.Errorf("after the referee's change and a reopen: %+v", d)
	}
	// The referee may set a deadline for a turn the schedule gave none.
	if err := db.SetDeadline(ctx, "syw", 2, later, 0); err != nil {
		t.Fatal(err)
	}
	if d, err := db.TurnDeadline(ctx, "syw", 2); err != nil || !d.Scheduled.IsZero() || !d.At.Equal(later) {
		t.Errorf("a deadline set by hand: %+v, %v", d, err)
	}
}

// TestPurgeRawMail: handled mail received before the cut-off loses its raw
// bytes but keeps its row and hash; mail after it, and mail still waiting
// to be handled, keep theirs; purging again clears nothing more.
func TestPurgeRawMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := withGame(t)
	var ids []int64
	for i, at := range []time.Time{t0, t0.Add(time.Hour), t0.Add(3 * time.Hour)} {
		m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1),
			Raw: []byte("PASSWORD secret"), ReceivedAt: at})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	db.SetMailStatus(ctx, ids[0], MailAcknowledged, "orders", "")
	db.SetMailStatus(ctx, ids[2], MailAcknowledged, "orders", "")
	n, err := db.PurgeRawMail(ctx, t0.Add(2*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("PurgeRawMail = %d, %v; want 1 (the handled mail before the cut-off)", n, err)
	}
	for i, want := range []string{"", "PASSWORD secret", "PASSWORD secret"} {
		m, err := db.Mail(ctx, ids[i])
		if err != nil || string(m.Raw) != want {
			t.Errorf("mail %d raw = %q, %v; want %q", i, m.Raw, err, want)
		}
		if m.SHA256 != SHA256Hex([]byte("PASSWORD secret")) {
			t.Errorf("mail %d lost its hash", i)
		}
	}
	// The same UID stored again (a replay after a crash) is still the same mail.
	if _, inserted, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1,
		Raw: []byte("PASSWORD secret"), ReceivedAt: t0}); err != nil || inserted {
		t.Errorf("storing a purged mail again: inserted %v, %v", inserted, err)
	}
	if n, _ := db.PurgeRawMail(ctx, t0.Add(2*time.Hour)); n != 0 {
		t.Errorf("a second purge cleared %d", n)
	}
}

// TestSubmissionsInForce: one row per nation, the latest valid one.
func TestSubmissionsInForce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := withGame(t)
	save := func(nation, text string, valid bool) {
		t.Helper()
		if _, _, err := db.SaveSubmission(ctx, Submission{GameID: "syw", Turn: 1, Nation: nation, Kind: "orders",
			RawText: text, CanonicalText: text, Valid: valid, SubmittedAt: t0, Orders: []byte("[]")}); err != nil {
			t.Fatal(err)
		}
	}
	save("morgronskia", "m1", true)
	save("eisenmark", "e1", true)
	save("eisenmark", "e2", true)
	save("eisenmark", "e3 garbled", false)
	save("fromande", "f1 garbled", false)
	ss, err := db.SubmissionsInForce(ctx, "syw", 1, "orders")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ss {
		got = append(got, s.Nation+":"+s.RawText)
	}
	if len(got) != 2 || got[0] != "eisenmark:e2" || got[1] != "morgronskia:m1" {
		t.Errorf("in force: %v, want [eisenmark:e2 morgronskia:m1]", got)
	}
}

func TestSubmissionsOf(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := withGame(t)
	for i, s := range []Submission{
		{Nation: "eisenmark", Kind: "orders", RawText: "e1"},
		{Nation: "eisenmark", Kind: "request", RawText: "r1"},
		{Nation: "morgronskia", Kind: "request", RawText: "r2"},
		{Nation: "eisenmark", Kind: "request", RawText: "r3"},
	} {
		s.GameID, s.Turn, s.CanonicalText, s.Valid, s.SubmittedAt = "syw", 1, s.RawText, true, t0
		s.ReceiptHash = fmt.Sprint(i)
		if _, _, err := db.SaveSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	texts := func(nation string) string {
		ss, err := db.SubmissionsOf(ctx, "syw", 1, nation, "request")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.RawText)
		}
		return strings.Join(out, " ")
	}
	if got := texts("eisenmark"); got != "r1 r3" {
		t.Errorf("eisenmark's requests: %q, want \"r1 r3\"", got)
	}
	if got := texts(""); got != "r1 r2 r3" {
		t.Errorf("every nation's requests: %q, want \"r1 r2 r3\" in the order saved", got)
	}
}
