package store

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// TestLargeMailInPieces: a mail of several pieces is stored and read back
// whole by every reader, with its arrival record; cleared by PurgeRawMail
// with its pieces; a mail stored whole before pieces (raw_size NULL) reads
// as it was.
func TestLargeMailInPieces(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	raw := bytes.Repeat([]byte("0123456789abcdef"), (3*mailPiece+777)/16)
	m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw, ReceivedAt: t0,
		Arrival: "smtp auth=a@b remote=127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	pieces := func() (n int) {
		db.writer.QueryRow("SELECT count(*) FROM mail_chunks").Scan(&n)
		return n
	}
	if n := pieces(); n != 3 {
		t.Errorf("%d pieces stored, want 3", n)
	}
	byID, err := db.Mail(ctx, m.ID)
	if err != nil || !bytes.Equal(byID.Raw, raw) || byID.Arrival != "smtp auth=a@b remote=127.0.0.1" || cap(byID.Raw) != len(raw) {
		t.Errorf("Mail: %d bytes (cap %d), arrival %q, %v", len(byID.Raw), cap(byID.Raw), byID.Arrival, err)
	}
	bySum, _ := db.MailBySHA256(ctx, SHA256Hex(raw))
	byStatus, _ := db.MailByStatus(ctx, MailStored)
	head, _ := db.MailHead(ctx, m.ID)
	if len(bySum) != 1 || !bytes.Equal(bySum[0].Raw, raw) || len(byStatus) != 1 || !bytes.Equal(byStatus[0].Raw, raw) || head.Raw != nil {
		t.Error("MailBySHA256 or MailByStatus do not give the whole mail, or MailHead gives bytes")
	}
	// An old row, stored whole.
	if _, err := db.writer.Exec(`INSERT INTO mail (mailbox, uidvalidity, uid, raw, sha256, received_at, updated_at)
		VALUES ('INBOX', 1, 2, ?, ?, ?, ?)`, raw, SHA256Hex(raw), encTime(t0), encTime(t0)); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.MailBySHA256(ctx, SHA256Hex(raw)); len(got) != 2 || !bytes.Equal(got[1].Raw, raw) {
		t.Error("a mail stored whole does not read back")
	}
	if err := db.SetMailStatus(ctx, m.ID, MailMoved, "orders", ""); err != nil {
		t.Fatal(err)
	}
	if n, err := db.PurgeRawMail(ctx, t0.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("PurgeRawMail: %d, %v", n, err)
	}
	if got, _ := db.Mail(ctx, m.ID); len(got.Raw) != 0 || pieces() != 0 {
		t.Errorf("after the purge: %d bytes, %d pieces", len(got.Raw), pieces())
	}
}
