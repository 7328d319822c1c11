package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestTreatyLedgers: the ledger between turns and the ledger of each
// resolved turn are kept apart, read back as saved (order, attestations,
// penalties), replaced whole; a turn resolved with none has none; a game
// that never had a ledger says so.
func TestTreatyLedgers(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	if _, ok, err := db.TreatyLedger(ctx, "syw"); ok || err != nil {
		t.Fatalf("a new game's ledger: %v, %v; want none", ok, err)
	}
	t1 := Treaty{ID: "T1", Title: "Peace", Text: "No war.", Proposer: "eisenmark", Parties: []string{"eisenmark", "morgronskia"},
		Attested: []string{"morgronskia", "eisenmark"}, Submitted: 1, Ratified: 2, Published: 3,
		Penalties: []TreatyPenalty{{Offender: "eisenmark", Aggrieved: "morgronskia", Since: 4}, {Offender: "morgronskia", Aggrieved: "eisenmark", Since: 5, Ended: 6}}}
	t2 := Treaty{ID: "T2", Title: "Trade", Text: "Goods.", Parties: []string{"morgronskia", "eisenmark"}, Submitted: 2}
	save := func(fn func(tx *Tx) error) {
		t.Helper()
		if err := db.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	save(func(tx *Tx) error { return tx.SaveTreatyLedger(ctx, "syw", []Treaty{t1, t2}) })
	save(func(tx *Tx) error { return tx.SaveTurnTreatyLedger(ctx, "syw", 3, []Treaty{t2}, true) })
	if got, ok, err := db.TreatyLedger(ctx, "syw"); err != nil || !ok || !reflect.DeepEqual(got, []Treaty{t1, t2}) {
		t.Errorf("the ledger reads %+v, %v, %v", got, ok, err)
	}
	if got, ok, err := db.TurnTreatyLedger(ctx, "syw", 3); err != nil || !ok || !reflect.DeepEqual(got, []Treaty{t2}) {
		t.Errorf("turn 3's ledger reads %+v, %v, %v", got, ok, err)
	}
	// Replaced whole; emptied, it is still there (no treaty, but a ledger).
	save(func(tx *Tx) error { return tx.SaveTreatyLedger(ctx, "syw", []Treaty{t2}) })
	if got, _, _ := db.TreatyLedger(ctx, "syw"); !reflect.DeepEqual(got, []Treaty{t2}) {
		t.Errorf("the ledger replaced reads %+v", got)
	}
	save(func(tx *Tx) error { return tx.SaveTreatyLedger(ctx, "syw", nil) })
	if got, ok, err := db.TreatyLedger(ctx, "syw"); err != nil || !ok || len(got) != 0 {
		t.Errorf("the ledger emptied reads %+v, %v, %v; want an empty ledger", got, ok, err)
	}
	save(func(tx *Tx) error { return tx.SaveTurnTreatyLedger(ctx, "syw", 3, nil, false) })
	if _, ok, err := db.TurnTreatyLedger(ctx, "syw", 3); ok || err != nil {
		t.Errorf("turn 3 resolved again with none: %v, %v", ok, err)
	}
	if _, _, err := db.TurnTreatyLedger(ctx, "syw", 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("the ledger of turn 0: %v, want ErrInvalid", err)
	}
	save(func(tx *Tx) error {
		if done, err := tx.TreatyMailed(ctx, "syw", "T1"); done || err != nil {
			t.Errorf("T1 mailed before it was: %v, %v", done, err)
		}
		if err := tx.MarkTreatyMailed(ctx, "syw", "T1", t0); err != nil {
			return err
		}
		done, err := tx.TreatyMailed(ctx, "syw", "T1")
		if !done {
			t.Error("T1 not mailed after its mark")
		}
		return err
	})
}

// TestTurnState: an early close, a reopening, a hold, a battle on the
// table, reminders and notices read back as written; a close cleared is
// gone; a second mark keeps the first.
func TestTurnState(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	at := t0.Add(time.Hour)
	err := db.Update(ctx, func(tx *Tx) error {
		if err := tx.SetTurnClose(ctx, "syw", 2, TurnClose{At: at, By: ClosedByFinal, MailID: 0}); err != nil {
			return err
		}
		if err := tx.SetTurnClose(ctx, "syw", 3, TurnClose{At: at, By: ClosedByReferee, MailID: 7, Referee: true}); err != nil {
			return err
		}
		if err := tx.ClearTurnClose(ctx, "syw", 2); err != nil {
			return err
		}
		if err := tx.SetTurnReopen(ctx, "syw", 3, TurnReopen{LastSubmission: 12, At: at}); err != nil {
			return err
		}
		if err := tx.MarkBattleSheetSent(ctx, "syw", 3, "0502", at); err != nil {
			return err
		}
		if err := tx.MarkReminded(ctx, "syw", 3, at.Add(500*time.Millisecond), at); err != nil {
			return err
		}
		return tx.MarkNoticeQueued(ctx, "syw", NoticeOutage, "abc", at)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := db.TurnClose(ctx, "syw", 2); ok || err != nil {
		t.Errorf("a cleared close reads %v, %v", ok, err)
	}
	if c, ok, err := db.TurnClose(ctx, "syw", 3); err != nil || !ok || !c.At.Equal(at) || c.By != ClosedByReferee || c.MailID != 7 || !c.Referee {
		t.Errorf("the close reads %+v, %v, %v", c, ok, err)
	}
	if r, ok, err := db.TurnReopen(ctx, "syw", 3); err != nil || !ok || r.LastSubmission != 12 || !r.At.Equal(at) {
		t.Errorf("the reopening reads %+v, %v, %v", r, ok, err)
	}
	h := TurnHold{Deadline: at, Why: "the mail is down", At: at.Add(time.Minute), Released: true}
	if err := db.SetTurnHold(ctx, "syw", 3, h); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.TurnHold(ctx, "syw", 3); err != nil || !ok || !reflect.DeepEqual(got, h) {
		t.Errorf("the hold reads %+v, %v, %v; want %+v", got, ok, err, h)
	}
	if b, err := db.TabletopBattle(ctx, "syw", 3, "0502"); err != nil || !b.SheetSent.Equal(at) || !b.ToModel.IsZero() {
		t.Errorf("the battle reads %+v, %v", b, err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.MarkBattleToModel(ctx, "syw", 3, "0502", at.Add(time.Hour)) }); err != nil {
		t.Fatal(err)
	}
	if b, _ := db.TabletopBattle(ctx, "syw", 3, "0502"); !b.SheetSent.Equal(at) || !b.ToModel.Equal(at.Add(time.Hour)) {
		t.Errorf("the battle left to the model reads %+v", b)
	}
	// A deadline counts to the second.
	if ok, err := db.Reminded(ctx, "syw", 3, at); err != nil || !ok {
		t.Errorf("reminded of the deadline: %v, %v", ok, err)
	}
	if ok, _ := db.Reminded(ctx, "syw", 3, at.Add(time.Minute)); ok {
		t.Error("reminded of a deadline moved later")
	}
	if ok, err := db.NoticeQueued(ctx, "syw", NoticeOutage, "abc"); err != nil || !ok {
		t.Errorf("the notice: %v, %v", ok, err)
	}
	if ok, _ := db.NoticeQueued(ctx, "syw", NoticeClock, "abc"); ok {
		t.Error("a notice of another kind counts")
	}
	// The kinds are the table's: another is refused.
	if err := db.Update(ctx, func(tx *Tx) error { return tx.MarkNoticeQueued(ctx, "syw", "gossip", "x", at) }); err == nil {
		t.Error("a notice of an unknown kind was stored")
	}
}

// TestGameColumns: the dice key is made once and kept; a demo sets its own;
// the starting reports' mark; a game that does not exist is ErrNotFound.
func TestGameColumns(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	if _, ok, err := db.DiceKey(ctx, "syw"); ok || err != nil {
		t.Fatalf("a new game's dice key: %v, %v", ok, err)
	}
	made := 0
	key := func() (string, error) { made++; return "k1", nil }
	for range 2 {
		if err := db.EnsureDiceKey(ctx, "syw", key); err != nil {
			t.Fatal(err)
		}
	}
	if k, ok, _ := db.DiceKey(ctx, "syw"); k != "k1" || !ok || made != 1 {
		t.Errorf("dice key %q, %v, made %d times; want k1 made once", k, ok, made)
	}
	if err := db.SetDiceKey(ctx, "syw", "demo"); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := db.DiceKey(ctx, "syw"); k != "demo" {
		t.Errorf("dice key %q after SetDiceKey", k)
	}
	if err := db.EnsureDiceKey(ctx, "nope", key); !errors.Is(err, ErrNotFound) {
		t.Errorf("EnsureDiceKey of no game: %v", err)
	}
	if ok, err := db.StartReportsQueued(ctx, "syw"); ok || err != nil {
		t.Errorf("starting reports queued before: %v, %v", ok, err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.MarkStartReportsQueued(ctx, "syw", t0) }); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.StartReportsQueued(ctx, "syw"); !ok || err != nil {
		t.Errorf("starting reports after the mark: %v, %v", ok, err)
	}
}

// TestRunsAndHealth: the last run, the turn runner, the intake's and the
// outbox's health read back as saved.
func TestRunsAndHealth(t *testing.T) {
	t.Parallel()
	db := withGame(t)
	ctx := context.Background()
	r := Run{PID: 42, Host: "h", Started: t0}
	if err := db.SaveRun(ctx, "syw", r); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.LastRun(ctx, "syw"); err != nil || !ok || !reflect.DeepEqual(got, r) {
		t.Errorf("run %+v, %v, %v", got, ok, err)
	}
	s := TurnRunner{Run: "r1", Turn: 3, State: "held", Why: "the mail", Since: t0}
	if err := db.SaveTurnRunner(ctx, "syw", s); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.TurnRunner(ctx, "syw"); err != nil || !ok || !reflect.DeepEqual(got, s) {
		t.Errorf("runner %+v, %v, %v", got, ok, err)
	}
	if err := db.SaveTurnRunner(ctx, "syw", TurnRunner{Run: "r1", State: "dreaming", Since: t0}); err == nil {
		t.Error("a runner state the table does not list was stored")
	}
	ih := IntakeHealth{Run: "r1", Up: false, Since: t0, LastError: "EOF", OutageFrom: t0}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.SaveIntakeHealth(ctx, "syw", ih) }); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.IntakeHealth(ctx, "syw"); err != nil || !ok || !reflect.DeepEqual(got, ih) {
		t.Errorf("intake health %+v, %v, %v", got, ok, err)
	}
	oh := OutboxHealth{Run: "r1", OK: false, Since: t0, Failures: 2, LastError: "535", LastErrorAt: t0}
	if err := db.SaveOutboxHealth(ctx, oh); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.OutboxHealth(ctx); err != nil || !ok || !reflect.DeepEqual(got, oh) {
		t.Errorf("outbox health %+v, %v, %v", got, ok, err)
	}
}

// TestMailMarks: a Message-ID's claim and the mailbox marks read back as
// saved; a claim names a stored mail.
func TestMailMarks(t *testing.T) {
	t.Parallel()
	db := openTemp(t)
	ctx := context.Background()
	m, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: []byte("x"), ReceivedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	c := MailClaim{Sender: "a@x", MessageID: "id@x", TextSHA: "abc"}
	if _, ok, _ := db.ClaimedBy(ctx, c); ok {
		t.Fatal("claimed before")
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.Claim(ctx, c, m.ID) }); err != nil {
		t.Fatal(err)
	}
	if id, ok, err := db.ClaimedBy(ctx, c); err != nil || !ok || id != m.ID {
		t.Errorf("claimed by %d, %v, %v", id, ok, err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.Claim(ctx, c, m.ID+100) }); err == nil {
		t.Error("a claim by a mail that is not stored")
	}
	if err := db.SetUIDValidity(ctx, "INBOX", 7); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLastUID(ctx, "INBOX", 7, 44); err != nil {
		t.Fatal(err)
	}
	if uv, ok, err := db.UIDValidity(ctx, "INBOX"); uv != 7 || !ok || err != nil {
		t.Errorf("UIDVALIDITY %d, %v, %v", uv, ok, err)
	}
	if uid, ok, err := db.LastUID(ctx, "INBOX", 7); uid != 44 || !ok || err != nil {
		t.Errorf("last UID %d, %v, %v", uid, ok, err)
	}
	if _, ok, _ := db.LastUID(ctx, "INBOX", 8); ok {
		t.Error("a last UID under another UIDVALIDITY")
	}
}
