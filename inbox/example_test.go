package inbox_test

import (
	"context"
	"fmt"
	"log"
	"os/signal"
	"syscall"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/store"
)

func ExampleExtract() {
	raw := []byte("From: Friedrich <Fritz@Example.org>\r\n" +
		"Subject: Orders\r\n" +
		"Content-Type: text/plain; charset=windows-1252; format=flowed\r\n" +
		"\r\n" +
		"A1 MOVE TO \r\n" +
		"0412 \x96 forced march\r\n")
	ex, err := inbox.Extract(raw, inbox.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	auto, _ := ex.IsAutomatic()
	fmt.Printf("%s %q automatic=%v\n", ex.From, ex.Text, auto)
	// Output: fritz@example.org "A1 MOVE TO 0412 – forced march\n" automatic=false
}

func ExampleAuthenticate() {
	raw := []byte("From: fritz@example.org\r\nFrom: mallory@evil.example\r\n\r\nA1 MOVE\r\n")
	ex, _ := inbox.Extract(raw, inbox.Limits{})
	r := inbox.Authenticate(ex, raw, "", inbox.AuthPolicy{
		Nations: map[string][]string{"prussia": {"fritz@example.org"}},
	})
	fmt.Println(r.Verdict, "-", r.Reason)
	// Output: multiple-from - the mail has 2 From headers
}

// The daemon's wiring: the intake stores mail and hands it to the checker.
// (The daemon builds the options and the policy from pbem's config.)
func ExampleIntake_Run() {
	db, err := store.Open("data/pbem.db", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	opts := &inbox.Options{Addr: "imap.example.org:993", Security: "tls", Username: "orders@example.org",
		Password: "app-password", Limits: inbox.Limits{OwnAddresses: []string{"orders@example.org"}}}
	policy := inbox.AuthPolicy{Nations: map[string][]string{"prussia": {"fritz@example.org"}}, Referee: "referee@example.org"}
	opts.Handler = func(ctx context.Context, m store.Mail) error {
		ex, err := inbox.Extract(m.Raw, opts.Limits)
		if err != nil {
			// Refused: record it (and answer the sender, ex.From, if known).
			return db.SetMailStatus(ctx, m.ID, store.MailQuarantined, "unreadable", err.Error())
		}
		if auto, why := ex.IsAutomatic(); auto {
			return db.SetMailStatus(ctx, m.ID, store.MailIgnored, "automatic", why)
		}
		if r := inbox.Authenticate(ex, m.Raw, m.Arrival, policy); !r.OK() {
			return db.SetMailStatus(ctx, m.ID, store.MailIgnored, string(r.Verdict), r.Reason)
		}
		// … check the sheet and its password, save the submission and the
		// answer, and mark the mail handled, in one transaction.
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	inbox.New(db, opts).Run(ctx)
}
