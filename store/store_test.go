package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(1757, time.May, 6, 9, 30, 0, 123456789, time.UTC)

func openTemp(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "pbem.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// withGame opens a store holding game "syw" with nations eisenmark and
// morgronskia.
func withGame(t testing.TB) *DB {
	t.Helper()
	db := openTemp(t)
	ctx := context.Background()
	if err := db.CreateGame(ctx, Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", Scenario: "scenarios/default",
		CreatedAt: t0, Metadata: []byte(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"eisenmark", "morgronskia"} {
		if err := db.AddNation(ctx, Nation{GameID: "syw", ID: n, PasswordHash: "h-" + n,
			Addresses: []string{n + "@pbem.localhost"}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestOpenSetsDurabilityPragmas(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	for _, c := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
	} {
		var got string
		if err := db.writer.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("writer PRAGMA %s = %s, want %s", c.pragma, got, c.want)
		}
	}
	if s := db.writer.Stats(); s.MaxOpenConnections != 1 {
		t.Errorf("writer pool allows %d connections, want 1", s.MaxOpenConnections)
	}
	// The read pool cannot write, even by mistake.
	if _, err := db.reader.ExecContext(ctx, `INSERT INTO meta (key, value, updated_at) VALUES ('a', 'b', 'c')`); err == nil {
		t.Error("a write through the read pool succeeded")
	}
	if v, err := db.Version(ctx); err != nil || v != SchemaVersion() {
		t.Errorf("Version = %d, %v; want %d", v, err, SchemaVersion())
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a?b#c%20d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetMeta(context.Background(), "k", "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not created at %s", path)
	}
}

func TestGamesRoundTrip(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	g, err := db.Game(ctx, "syw")
	if err != nil {
		t.Fatal(err)
	}
	want := Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", Scenario: "scenarios/default", CreatedAt: t0,
		Metadata: []byte(`{"x":1}`)}
	if fmt.Sprint(g) != fmt.Sprint(want) || !g.CreatedAt.Equal(t0) {
		t.Errorf("Game = %+v, want %+v", g, want)
	}
	if err := db.CreateGame(ctx, want); !errors.Is(err, ErrExists) {
		t.Errorf("second CreateGame: %v, want ErrExists", err)
	}
	if _, err := db.Game(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(nope): %v, want ErrNotFound", err)
	}
	if err := db.CreateGame(ctx, Game{ID: "abc", Name: "A", Ruleset: "syw-v4", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	gs, err := db.Games(ctx)
	if err != nil || len(gs) != 2 || gs[0].ID != "abc" || gs[1].ID != "syw" {
		t.Errorf("Games = %+v, %v", gs, err)
	}
}

func TestNationsRoundTrip(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	if err := db.AddNation(ctx, Nation{GameID: "syw", ID: "eisenmark"}); !errors.Is(err, ErrExists) {
		t.Errorf("AddNation twice: %v, want ErrExists", err)
	}
	if err := db.AddNation(ctx, Nation{GameID: "nogame", ID: "x"}); err == nil {
		t.Error("AddNation to a missing game succeeded (foreign keys off?)")
	}
	if err := db.SetAddresses(ctx, "syw", "eisenmark",
		[]string{"King@Eisenmark.example", "eisenmark@pbem.localhost", "king@eisenmark.example"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetAddresses(ctx, "syw", "morgronskia", []string{"king@eisenmark.example"}); err != nil {
		t.Fatal(err)
	}
	n, err := db.Nation(ctx, "syw", "eisenmark")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"eisenmark@pbem.localhost", "King@Eisenmark.example"}; !slices.Equal(n.Addresses, want) {
		t.Errorf("addresses = %q, want %q (case-insensitive duplicates dropped)", n.Addresses, want)
	}
	got, err := db.NationsByAddress(ctx, "syw", "KING@eisenmark.EXAMPLE")
	if err != nil || !slices.Equal(got, []string{"eisenmark", "morgronskia"}) {
		t.Errorf("NationsByAddress = %q, %v", got, err)
	}
	ns, err := db.Nations(ctx, "syw")
	if err != nil || len(ns) != 2 || ns[0].ID != "eisenmark" || ns[1].Addresses[0] != "king@eisenmark.example" {
		t.Errorf("Nations = %+v, %v", ns, err)
	}
	if err := db.SetAddresses(ctx, "syw", "nobody", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetAddresses(nobody): %v, want ErrNotFound", err)
	}
}

func TestPasswordChangeTakesEffectFromItsTurn(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	hash := func(turn int) string {
		t.Helper()
		h, err := db.PasswordHash(ctx, "syw", "eisenmark", turn)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if err := db.SchedulePasswordChange(ctx, "syw", "eisenmark", "h2", 3); err != nil {
		t.Fatal(err)
	}
	if hash(2) != "h-eisenmark" || hash(3) != "h2" || hash(9) != "h2" {
		t.Errorf("after scheduling from turn 3: turn 2 %q, turn 3 %q, turn 9 %q", hash(2), hash(3), hash(9))
	}
	// A second change in the same turn replaces the pending one.
	if err := db.SchedulePasswordChange(ctx, "syw", "eisenmark", "h2b", 3); err != nil {
		t.Fatal(err)
	}
	// A change from turn 5 makes the turn-3 one current.
	if err := db.SchedulePasswordChange(ctx, "syw", "eisenmark", "h3", 5); err != nil {
		t.Fatal(err)
	}
	if hash(4) != "h2b" || hash(5) != "h3" {
		t.Errorf("turn 4 %q (want h2b), turn 5 %q (want h3)", hash(4), hash(5))
	}
	// The referee's reset applies at once and drops the pending change.
	if err := db.SetPasswordHash(ctx, "syw", "eisenmark", "reset"); err != nil {
		t.Fatal(err)
	}
	if hash(1) != "reset" || hash(99) != "reset" {
		t.Errorf("after reset: %q, %q", hash(1), hash(99))
	}
	if _, err := db.PasswordHash(ctx, "syw", "nobody", 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("PasswordHash(nobody): %v", err)
	}
}

func TestTurnsAreVersionedSnapshots(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	if _, err := db.LatestTurn(ctx, "syw"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestTurn of a new game: %v, want ErrNotFound", err)
	}
	rec0 := TurnRecord{GameID: "syw", Turn: 0, Status: TurnInitial, State: []byte(`{"t":0}`), Seed: math.MaxUint64,
		ResolvedAt: t0}
	if v, err := db.SaveTurn(ctx, rec0); err != nil || v != 1 {
		t.Fatalf("SaveTurn = %d, %v", v, err)
	}
	rec1 := TurnRecord{GameID: "syw", Turn: 1, Status: TurnResolved, State: []byte(`{"t":1}`), Seed: 1 << 63,
		EventLog: []byte(`[]`), Dice: []byte(`[6,1]`), ResolvedAt: t0.Add(time.Hour)}
	if v, err := db.SaveTurn(ctx, rec1); err != nil || v != 1 {
		t.Fatalf("SaveTurn = %d, %v", v, err)
	}
	rerun := rec1
	rerun.State, rerun.Seed = []byte(`{"t":"1b"}`), 42
	if v, err := db.SaveTurn(ctx, rerun); err != nil || v != 2 {
		t.Fatalf("rerun SaveTurn = %d, %v; want version 2", v, err)
	}
	got0, err := db.Turn(ctx, "syw", 0)
	if err != nil || got0.Seed != math.MaxUint64 || string(got0.State) != `{"t":0}` || got0.Status != TurnInitial ||
		!got0.ResolvedAt.Equal(t0) || got0.EventLog != nil {
		t.Errorf("Turn 0 = %+v, %v", got0, err)
	}
	latest, err := db.LatestTurn(ctx, "syw")
	if err != nil || latest.Turn != 1 || latest.Version != 2 || latest.Seed != 42 {
		t.Errorf("LatestTurn = %+v, %v; want turn 1 version 2", latest, err)
	}
	head, err := db.LatestTurnHead(ctx, "syw")
	if err != nil || head.Turn != 1 || head.Version != 2 || head.Seed != 42 || head.State != nil || head.Dice != nil ||
		!head.ResolvedAt.Equal(latest.ResolvedAt) {
		t.Errorf("LatestTurnHead = %+v, %v; want turn 1 version 2 without the blobs", head, err)
	}
	old, err := db.TurnVersion(ctx, "syw", 1, 1)
	if err != nil || old.Seed != 1<<63 || string(old.Dice) != `[6,1]` || string(old.EventLog) != `[]` {
		t.Errorf("TurnVersion(1,1) = %+v, %v; the first run must be kept", old, err)
	}
	if err := db.SetTurnStatus(ctx, "syw", 1, 1, TurnVoided); err != nil {
		t.Fatal(err)
	}
	if old, _ := db.TurnVersion(ctx, "syw", 1, 1); old.Status != TurnVoided {
		t.Errorf("status = %s, want voided", old.Status)
	}
	if _, err := db.SaveTurn(ctx, TurnRecord{GameID: "syw", Turn: 2, Status: "done", ResolvedAt: t0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown status: %v, want ErrInvalid", err)
	}
	if _, err := db.SaveTurn(ctx, TurnRecord{GameID: "nogame", Turn: 1, Status: TurnResolved, ResolvedAt: t0}); err == nil {
		t.Error("SaveTurn for a missing game succeeded")
	}
	if _, err := db.TurnVersion(ctx, "syw", 1, 7); !errors.Is(err, ErrNotFound) {
		t.Errorf("TurnVersion(1,7): %v", err)
	}
}

func outMsg(id string, created time.Time, raw string) OutboxMessage {
	return OutboxMessage{MessageID: id, GameID: "syw", Kind: "report", Recipients: []string{"eisenmark@pbem.localhost"},
		Raw: []byte(raw), CreatedAt: created}
}

func TestCommitTurnWritesTurnEventsAndOutboxTogether(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	rec := TurnRecord{GameID: "syw", Turn: 1, Status: TurnResolved, State: []byte(`{}`), Seed: 7, ResolvedAt: t0}
	events := []Event{{Kind: "move", Data: []byte(`{"a":1}`)}, {Kind: "battle", Data: []byte(`{"b":2}`)}}
	out := []OutboxMessage{outMsg("<t1.eisenmark@syw>", t0, "report 1"), outMsg("<t1.morgronskia@syw>", t0, "report 2")}
	v, err := db.CommitTurn(ctx, rec, events, out)
	if err != nil || v != 1 {
		t.Fatalf("CommitTurn = %d, %v", v, err)
	}
	es, err := db.Events(ctx, "syw", 1, 1)
	if err != nil || len(es) != 2 || es[0].Seq != 1 || es[1].Kind != "battle" || string(es[1].Data) != `{"b":2}` ||
		es[1].GameID != "syw" || es[1].Turn != 1 || es[1].Version != 1 {
		t.Errorf("Events = %+v, %v", es, err)
	}
	if ms, _ := db.MessagesInState(ctx, OutboxPending); len(ms) != 2 {
		t.Errorf("%d pending messages, want 2", len(ms))
	}

	// A rerun whose outbox clashes with a queued message commits nothing:
	// no version 2, no events, no new mail.
	bad := []OutboxMessage{outMsg("<t1v2.eisenmark@syw>", t0, "new"), outMsg("<t1.eisenmark@syw>", t0, "different bytes")}
	if _, err := db.CommitTurn(ctx, rec, events, bad); !errors.Is(err, ErrConflict) {
		t.Fatalf("CommitTurn with a clashing Message-ID: %v, want ErrConflict", err)
	}
	if latest, _ := db.LatestTurn(ctx, "syw"); latest.Version != 1 {
		t.Errorf("a failed CommitTurn left version %d", latest.Version)
	}
	if es, _ := db.Events(ctx, "syw", 1, 2); len(es) != 0 {
		t.Errorf("a failed CommitTurn left %d events", len(es))
	}
	if ms, _ := db.MessagesInState(ctx, OutboxPending); len(ms) != 2 {
		t.Errorf("a failed CommitTurn left %d pending messages, want 2", len(ms))
	}
	// The same message again (a repeated commit of identical reports) is skipped.
	if v, err := db.CommitTurn(ctx, rec, nil, out[:1]); err != nil || v != 2 {
		t.Errorf("CommitTurn with an already queued identical message = %d, %v", v, err)
	}
}

func TestStoreMailIsIdempotent(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	m := Mail{Mailbox: "INBOX", UIDValidity: math.MaxUint32, UID: math.MaxUint32 - 1, Raw: []byte("Subject: orders\r\n\r\nhi"),
		MessageID: "<a@b>", From: "eisenmark@pbem.localhost", ReceivedAt: t0}
	first, inserted, err := db.StoreMail(ctx, m)
	if err != nil || !inserted || first.ID == 0 || first.SHA256 != SHA256Hex(m.Raw) || first.Status != MailStored {
		t.Fatalf("StoreMail = %+v, %v, %v", first, inserted, err)
	}
	again, inserted, err := db.StoreMail(ctx, m)
	if err != nil || inserted || again.ID != first.ID {
		t.Errorf("second StoreMail = id %d inserted %v err %v; want id %d, not inserted", again.ID, inserted, err, first.ID)
	}
	got, err := db.Mail(ctx, first.ID)
	if err != nil || !bytes.Equal(got.Raw, m.Raw) || got.UIDValidity != math.MaxUint32 || got.UID != math.MaxUint32-1 ||
		got.MessageID != "<a@b>" || got.From != m.From || !got.ReceivedAt.Equal(t0) {
		t.Errorf("Mail = %+v, %v", got, err)
	}
	// The same key with other bytes: the server reused a UID.
	other := m
	other.Raw = []byte("something else")
	if _, _, err := db.StoreMail(ctx, other); !errors.Is(err, ErrConflict) {
		t.Errorf("StoreMail with a reused UID: %v, want ErrConflict", err)
	}
	// The same bytes under a new UIDVALIDITY are a new row, found by hash.
	resync := m
	resync.UIDValidity, resync.UID = 2, 1
	if _, inserted, err := db.StoreMail(ctx, resync); err != nil || !inserted {
		t.Fatalf("StoreMail after UIDVALIDITY change: %v, %v", inserted, err)
	}
	same, err := db.MailBySHA256(ctx, SHA256Hex(m.Raw))
	if err != nil || len(same) != 2 || same[0].ID != first.ID || !bytes.Equal(same[1].Raw, m.Raw) {
		t.Errorf("MailBySHA256 = %d rows, %v", len(same), err)
	}
	var n int
	db.reader.QueryRow(`SELECT COUNT(*) FROM mail`).Scan(&n)
	if n != 2 {
		t.Errorf("%d mail rows, want 2", n)
	}
}

func TestMailStatusOnlyMovesForward(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	store := func(uid uint32) int64 {
		m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: []byte{byte(uid)}, ReceivedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	a, b := store(1), store(2)
	for _, s := range []MailStatus{MailHandled, MailHandled, MailAcknowledged, MailMoved} {
		if err := db.SetMailStatus(ctx, a, s, "orders", ""); err != nil {
			t.Fatalf("→ %s: %v", s, err)
		}
	}
	if err := db.SetMailStatus(ctx, a, MailHandled, "orders", ""); !errors.Is(err, ErrWrongState) {
		t.Errorf("moved → handled: %v, want ErrWrongState", err)
	}
	if err := db.SetMailStatus(ctx, b, MailQuarantined, "bomb", "nesting too deep"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMailStatus(ctx, b, "lost", "", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown status: %v", err)
	}
	if err := db.SetMailStatus(ctx, 999, MailHandled, "", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing mail: %v", err)
	}
	q, err := db.MailByStatus(ctx, MailQuarantined)
	if err != nil || len(q) != 1 || q[0].ID != b || q[0].Classification != "bomb" || q[0].Error != "nesting too deep" ||
		len(q[0].Raw) != 1 {
		t.Errorf("MailByStatus(quarantined) = %+v, %v", q, err)
	}
	if s, _ := db.MailByStatus(ctx, MailStored); len(s) != 0 {
		t.Errorf("%d still stored", len(s))
	}
}

func TestSubmissionsSupersede(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: []byte("x"), ReceivedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	sub := func(text string, valid bool, at int) Submission {
		return Submission{GameID: "syw", Turn: 3, Nation: "eisenmark", Kind: "orders", MailID: m.ID, RawText: text,
			CanonicalText: "C " + text, ReceiptHash: "r-" + text, Valid: valid, SubmittedAt: t0.Add(time.Duration(at) * time.Minute)}
	}
	if _, replaced, err := db.SaveSubmission(ctx, sub("one", true, 1)); err != nil || replaced {
		t.Fatalf("first: replaced %v, %v", replaced, err)
	}
	// An invalid resend is kept but does not cancel the good orders.
	if _, replaced, err := db.SaveSubmission(ctx, sub("garbled", false, 2)); err != nil || replaced {
		t.Fatalf("invalid: replaced %v, %v", replaced, err)
	}
	if cur, err := db.LatestSubmission(ctx, "syw", 3, "eisenmark", "orders"); err != nil || cur.RawText != "one" {
		t.Errorf("after an invalid resend, in force: %q, %v; want one", cur.RawText, err)
	}
	id3, replaced, err := db.SaveSubmission(ctx, sub("two", true, 3))
	if err != nil || !replaced {
		t.Fatalf("second valid: replaced %v, %v; want replaced", replaced, err)
	}
	// Other nations, kinds and turns are untouched.
	other := sub("treaty", true, 4)
	other.Kind, other.MailID = "treaty", 0
	if _, replaced, err := db.SaveSubmission(ctx, other); err != nil || replaced {
		t.Fatalf("treaty: %v, %v", replaced, err)
	}
	cur, err := db.LatestSubmission(ctx, "syw", 3, "eisenmark", "orders")
	if err != nil || cur.ID != id3 || cur.CanonicalText != "C two" || cur.ReceiptHash != "r-two" || cur.MailID != m.ID ||
		!cur.Valid || cur.Superseded || !cur.SubmittedAt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("LatestSubmission = %+v, %v", cur, err)
	}
	all, err := db.Submissions(ctx, "syw", 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range all {
		got = append(got, fmt.Sprintf("%s:%v:%v", s.RawText, s.Valid, s.Superseded))
	}
	want := []string{"one:true:true", "garbled:false:true", "two:true:false", "treaty:true:false"}
	if !slices.Equal(got, want) {
		t.Errorf("Submissions = %q, want %q", got, want)
	}
	if all[3].MailID != 0 {
		t.Errorf("MailID without mail = %d", all[3].MailID)
	}
	if _, err := db.LatestSubmission(ctx, "syw", 4, "eisenmark", "orders"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no orders for turn 4: %v", err)
	}
}

func TestOutboxStateMachine(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	for i, id := range []string{"<b@syw>", "<a@syw>", "<c@syw>"} {
		if ins, err := db.Enqueue(ctx, outMsg(id, t0.Add(time.Duration(i)*time.Second), "body "+id)); err != nil || !ins {
			t.Fatalf("Enqueue %s: %v, %v", id, ins, err)
		}
	}
	if ins, err := db.Enqueue(ctx, outMsg("<b@syw>", t0, "body <b@syw>")); err != nil || ins {
		t.Errorf("Enqueue again: inserted %v, %v; want false, nil", ins, err)
	}
	if _, err := db.Enqueue(ctx, outMsg("<b@syw>", t0, "changed")); !errors.Is(err, ErrConflict) {
		t.Errorf("Enqueue with other bytes: %v, want ErrConflict", err)
	}
	if _, err := db.Enqueue(ctx, OutboxMessage{MessageID: "<x@syw>", CreatedAt: t0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Enqueue without recipients: %v", err)
	}

	due, err := db.DueMessages(ctx, t0.Add(time.Second), 10)
	if err != nil || len(due) != 2 || due[0].MessageID != "<b@syw>" || due[1].MessageID != "<a@syw>" {
		t.Fatalf("DueMessages = %+v, %v; want b then a (oldest first, c not yet due)", due, err)
	}
	if d, _ := db.DueMessages(ctx, t0.Add(time.Hour), 1); len(d) != 1 {
		t.Errorf("limit 1 gave %d", len(d))
	}
	b, a := due[0], due[1]

	if err := db.MarkSending(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSending(ctx, b.ID); !errors.Is(err, ErrWrongState) {
		t.Errorf("second claim: %v, want ErrWrongState", err)
	}
	if err := db.MarkSent(ctx, a.ID, t0); !errors.Is(err, ErrWrongState) {
		t.Errorf("pending → sent: %v, want ErrWrongState", err)
	}
	// A temporary failure: back to pending, later.
	if err := db.MarkRetry(ctx, b.ID, t0.Add(time.Hour), "451 try later"); err != nil {
		t.Fatal(err)
	}
	if d, _ := db.DueMessages(ctx, t0.Add(time.Minute), 0); len(d) != 2 || d[0].MessageID != "<a@syw>" {
		t.Errorf("after retry, due = %d, want a and c", len(d))
	}
	got, _ := db.OutboxMessage(ctx, b.ID)
	if got.State != OutboxPending || got.Attempts != 1 || got.LastError != "451 try later" || !got.NextAttemptAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("after MarkRetry: %+v", got)
	}
	// Then sent.
	if err := db.MarkSending(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	sentAt := t0.Add(2 * time.Hour)
	if err := db.MarkSent(ctx, b.ID, sentAt); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(ctx, b.ID, sentAt); err != nil {
		t.Errorf("MarkSent twice: %v", err)
	}
	got, _ = db.OutboxMessage(ctx, b.ID)
	if got.State != OutboxSent || got.Attempts != 2 || !got.SentAt.Equal(sentAt) || got.LastError != "" ||
		string(got.Raw) != "body <b@syw>" || !slices.Equal(got.Recipients, []string{"eisenmark@pbem.localhost"}) ||
		got.GameID != "syw" || got.Kind != "report" || !got.CreatedAt.Equal(t0) {
		t.Errorf("after MarkSent: %+v", got)
	}
	// a: permanent failure, then the referee requeues it.
	if err := db.MarkSending(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkFailed(ctx, a.ID, "550 no such user"); err != nil {
		t.Fatal(err)
	}
	if f, _ := db.MessagesInState(ctx, OutboxFailed); len(f) != 1 || f[0].LastError != "550 no such user" || f[0].Attempts != 1 {
		t.Errorf("failed = %+v", f)
	}
	if err := db.MarkRetry(ctx, a.ID, t0, "x"); !errors.Is(err, ErrWrongState) {
		t.Errorf("failed → retry: %v", err)
	}
	if err := db.Requeue(ctx, a.ID, t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.OutboxMessage(ctx, a.ID); got.State != OutboxPending || got.Attempts != 0 {
		t.Errorf("after Requeue: %+v", got)
	}
	// c is claimed and the process dies: RecoverSending returns it.
	c := due[0]
	for _, m := range mustDue(t, db, t0.Add(time.Minute)) {
		if m.MessageID == "<c@syw>" {
			c = m
		}
	}
	if err := db.MarkSending(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	rec, err := db.RecoverSending(ctx)
	if err != nil || len(rec) != 1 || rec[0].ID != c.ID || string(rec[0].Raw) != "body <c@syw>" {
		t.Errorf("RecoverSending = %+v, %v", rec, err)
	}
	if err := db.MarkFailed(ctx, 999, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("MarkFailed(999): %v", err)
	}
}

func mustDue(t *testing.T, db *DB, now time.Time) []OutboxMessage {
	t.Helper()
	ms, err := db.DueMessages(context.Background(), now, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestOutboxHoldsLargeMessages(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	raw := bytes.Repeat([]byte("0123456789abcdef"), 8<<20/16) // 8 MiB, like a report with PDFs
	raw[len(raw)-1] = 'Z'
	if _, err := db.Enqueue(ctx, OutboxMessage{MessageID: "<big@syw>", Recipients: []string{"a@b"}, Raw: raw, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	ms, err := db.MessagesInState(ctx, OutboxPending)
	if err != nil || len(ms) != 1 || !bytes.Equal(ms[0].Raw, raw) {
		t.Fatalf("large message did not round-trip: %v", err)
	}
}

func TestMeta(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	if _, ok, err := db.GetMeta(ctx, "uidvalidity/INBOX"); ok || err != nil {
		t.Errorf("GetMeta on empty = %v, %v", ok, err)
	}
	for _, v := range []string{"1", "4294967295"} {
		if err := db.SetMeta(ctx, "uidvalidity/INBOX", v); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := db.GetMeta(ctx, "uidvalidity/INBOX"); got != v || !ok || err != nil {
			t.Errorf("GetMeta = %q, %v, %v; want %q", got, ok, err, v)
		}
	}
}

func TestUpdateIsAtomic(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: []byte("x"), ReceivedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err = db.Update(ctx, func(tx *Tx) error {
		if _, _, err := tx.SaveSubmission(ctx, Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: "orders",
			MailID: m.ID, Valid: true, SubmittedAt: t0}); err != nil {
			return err
		}
		if err := tx.SetMailStatus(ctx, m.ID, MailHandled, "orders", ""); err != nil {
			return err
		}
		// Inside the transaction its own writes are visible.
		if got, err := tx.Mail(ctx, m.ID); err != nil || got.Status != MailHandled {
			t.Errorf("inside Update: %v, %v", got.Status, err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	if got, _ := db.Mail(ctx, m.ID); got.Status != MailStored {
		t.Errorf("rolled-back status = %s", got.Status)
	}
	if s, _ := db.Submissions(ctx, "syw", 1); len(s) != 0 {
		t.Errorf("rolled-back submission is there")
	}
	func() {
		defer func() { recover() }()
		db.Update(ctx, func(tx *Tx) error {
			tx.SetMeta(ctx, "k", "v")
			panic("in fn")
		})
	}()
	if _, ok, _ := db.GetMeta(ctx, "k"); ok {
		t.Error("a panicking Update committed")
	}
	// The writer is free again.
	if err := db.SetMeta(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentWritersAndReaders(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range each {
				_, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(w*each + i),
					Raw: fmt.Appendf(nil, "%d/%d", w, i), ReceivedAt: t0})
				if err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range each {
				if _, err := db.MailByStatus(ctx, MailStored); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if ms, _ := db.MailByStatus(ctx, MailStored); len(ms) != writers*each {
		t.Errorf("%d rows, want %d", len(ms), writers*each)
	}
}

func TestUpdateHonoursContext(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	hold := make(chan struct{})
	held := make(chan struct{})
	go db.Update(context.Background(), func(tx *Tx) error { close(held); <-hold; return nil })
	<-held
	cancel()
	if err := db.SetMeta(ctx, "k", "v"); !errors.Is(err, context.Canceled) {
		t.Errorf("write while the writer is busy, with a cancelled context: %v", err)
	}
	close(hold)
}

// TestOutboxPriorityOrder: due rows are claimed answers first, then
// reports, then notices, oldest first within each; a row that has waited
// OutboxPromoteAfter goes before every younger one whatever its priority.
func TestOutboxPriorityOrder(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	rows := []struct {
		id       string
		priority int
		age      time.Duration
	}{
		{"<notice-old@syw>", OutboxNotice, OutboxPromoteAfter + time.Minute},
		{"<report-1@syw>", OutboxReport, 3 * time.Minute},
		{"<notice@syw>", OutboxNotice, 2 * time.Minute},
		{"<report-2@syw>", OutboxReport, 2 * time.Minute},
		{"<answer@syw>", OutboxAnswer, time.Second},
	}
	now := t0.Add(time.Hour)
	for _, r := range rows {
		m := outMsg(r.id, now.Add(-r.age), "body "+r.id)
		m.Priority = r.priority
		if _, err := db.Enqueue(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"<notice-old@syw>", "<answer@syw>", "<report-1@syw>", "<report-2@syw>", "<notice@syw>"}
	due, err := db.DueMessages(ctx, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range due {
		got = append(got, m.MessageID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("send order %v, want %v", got, want)
	}
	claimed, err := db.ClaimDue(ctx, now, 2)
	if err != nil || len(claimed) != 2 || claimed[0].MessageID != want[0] || claimed[1].MessageID != want[1] {
		t.Errorf("ClaimDue(2) = %+v, %v", claimed, err)
	}
}
