package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// A resolved turn, its events and the reports it produces commit together;
// the outbox then sends what is due.
func Example() {
	dir, _ := os.MkdirTemp("", "pbem-example")
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "pbem.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	now := time.Date(1757, 5, 6, 18, 0, 0, 0, time.UTC)

	if err := db.CreateGame(ctx, store.Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", CreatedAt: now}); err != nil {
		log.Fatal(err)
	}
	turn := store.TurnRecord{GameID: "syw", Turn: 1, Status: store.TurnResolved, State: []byte(`{}`), Seed: 42, ResolvedAt: now}
	events := []store.Event{{Kind: "battle", Data: []byte(`{"where":"Kolin"}`)}}
	reports := []store.OutboxMessage{{MessageID: "<syw.t1.eisenmark@pbem.localhost>", GameID: "syw", Kind: "report",
		Recipients: []string{"eisenmark@pbem.localhost"}, Raw: []byte("Subject: Turn 1\r\n\r\n…"), CreatedAt: now}}
	version, err := db.CommitTurn(ctx, turn, events, reports)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("turn 1 version", version)

	due, _ := db.DueMessages(ctx, now, 10)
	for _, m := range due {
		if err := db.MarkSending(ctx, m.ID); err != nil { // durably, before SMTP DATA
			log.Fatal(err)
		}
		// … send m.Raw to m.Recipients …
		if err := db.MarkSent(ctx, m.ID, now.Add(time.Second)); err != nil {
			log.Fatal(err)
		}
		fmt.Println("sent", m.MessageID)
	}
	// Output:
	// turn 1 version 1
	// sent <syw.t1.eisenmark@pbem.localhost>
}

// The same IMAP message stored twice is one row.
func ExampleDB_StoreMail() {
	dir, _ := os.MkdirTemp("", "pbem-example")
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "pbem.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	m := store.Mail{Mailbox: "INBOX", UIDValidity: 1700000000, UID: 17, Raw: []byte("Subject: orders\r\n\r\n…"),
		ReceivedAt: time.Date(1757, 5, 6, 9, 0, 0, 0, time.UTC)}
	first, inserted, _ := db.StoreMail(ctx, m)
	fmt.Println(first.ID, inserted)
	again, inserted, _ := db.StoreMail(ctx, m)
	fmt.Println(again.ID, inserted)
	// Output:
	// 1 true
	// 1 false
}

// Several steps in one transaction: a submission is saved and its mail
// marked handled together, so a crash cannot apply the mail twice.
func ExampleDB_Update() {
	dir, _ := os.MkdirTemp("", "pbem-example")
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "pbem.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	now := time.Date(1757, 5, 6, 9, 0, 0, 0, time.UTC)
	db.CreateGame(ctx, store.Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", CreatedAt: now})
	mail, _, _ := db.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: []byte("…"), ReceivedAt: now})

	err = db.Update(ctx, func(tx *store.Tx) error {
		if _, _, err := tx.SaveSubmission(ctx, store.Submission{GameID: "syw", Turn: 1, Nation: "eisenmark",
			Kind: "orders", MailID: mail.ID, RawText: "A1 M 1234", Valid: true, SubmittedAt: now}); err != nil {
			return err
		}
		return tx.SetMailStatus(ctx, mail.ID, store.MailHandled, "orders", "")
	})
	fmt.Println(err)
	got, _ := db.Mail(ctx, mail.ID)
	fmt.Println(got.Status)
	// Output:
	// <nil>
	// handled
}
