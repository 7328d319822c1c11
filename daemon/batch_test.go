package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// TestHandleMailsInOrder: a batch handled together gives the answers mail
// by mail would: a nation's second sheet in the same batch replaces its
// first, and the referee's ruling on a request made earlier in the batch is
// recorded.
func TestHandleMailsInOrder(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	at := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	req := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nREQUEST \"Bribe the governor\"", 1)
	first := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("b1@x", "")+"", at)
	second := storeMail(t, g, 2, "eisenmark@pbem.localhost", strings.Replace(sheetMail("b2@x", ""), goodSheet, req, 1), at)
	other := storeMail(t, g, 3, "morgronskia@pbem.localhost", strings.NewReplacer("eisenmark", "morgronskia", "E1", "M1", "b1@x", "b3@x").Replace(sheetMail("b1@x", "")), at)
	if err := g.HandleMails(ctx, []store.Mail{first, second, other}); err != nil {
		t.Fatal(err)
	}
	var token string
	var replaced bool
	for _, r := range queued(t, g) {
		b := body(string(r.Raw))
		if strings.Contains(header(string(r.Raw), "In-Reply-To"), "b2@x") {
			replaced = strings.Contains(b, "replaces the one you sent before")
		}
		for _, line := range strings.Split(b, "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "APPROVE" {
				token = f[1]
			}
		}
	}
	if !replaced {
		t.Error("the second sheet of a batch was not answered as replacing the first")
	}
	if token == "" {
		t.Fatal("the request was not forwarded")
	}
	ruling := storeMail(t, g, 4, "referee@pbem.localhost",
		"From: referee@pbem.localhost\nTo: orders@pbem.localhost\nSubject: r\nMessage-ID: <r1@x>\n\nPASSWORD "+refereePassword+"\nAPPROVE "+token+"\n", at)
	late := storeMail(t, g, 5, "morgronskia@pbem.localhost", strings.NewReplacer("eisenmark", "morgronskia", "E1", "M1", "b1@x", "b5@x").Replace(sheetMail("b1@x", "")), at)
	if err := g.HandleMails(ctx, []store.Mail{ruling, late}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []store.Mail{first, second, other, ruling, late} {
		if row := mailRow(t, g, m.ID); row.Status == store.MailStored {
			t.Errorf("mail %d left stored", m.UID)
		}
	}
	subs, _ := g.DB.Submissions(ctx, "syw", 1)
	rulings := 0
	for _, s := range subs {
		if s.Kind == KindRuling {
			rulings++
		}
	}
	if rulings != 1 {
		t.Errorf("%d rulings recorded, want 1", rulings)
	}
}

// TestGroupLen: the mails decided side by side and recorded together are
// consecutive mails of different senders, at most maxGroup, and a mail of
// the referee or of no sender is a group of its own.
func TestGroupLen(t *testing.T) {
	t.Parallel()
	mails := func(froms ...string) []store.Mail {
		var ms []store.Mail
		for _, f := range froms {
			ms = append(ms, store.Mail{From: f})
		}
		return ms
	}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("n%d@x", i)
	}
	for _, c := range []struct {
		froms []string
		want  int
	}{
		{[]string{"a@x", "b@x", "c@x"}, 3},
		{[]string{"a@x", "b@x", "A@X ", "c@x"}, 2},
		{[]string{"a@x", "ref@x", "b@x"}, 1},
		{[]string{"Ref@x", "a@x"}, 1},
		{[]string{"", "a@x"}, 1},
		{[]string{"a@x", ""}, 1},
		{many, maxGroup},
	} {
		if got := groupLen(mails(c.froms...), "ref@x"); got != c.want {
			t.Errorf("groupLen(%q) = %d, want %d", c.froms, got, c.want)
		}
	}
}

// TestBatchWakesTheTurnRunner: the referee's RESOLVE NOW that the intake
// takes in one batch with other mail (both arrived while pbem was busy or
// down) resolves the turn at once, as when it comes alone: the runner's
// own look comes only once a minute.
func TestBatchWakesTheTurnRunner(t *testing.T) {
	t.Parallel()
	// The reports' PDFs are not the point: plain-text mails.
	d, _ := startGameWith(t, t.TempDir(), nil, &Options{TurnMailer: PlainTurnMail})
	sendMail(t, d.Mail.SMTPAddr(), "eisenmark@pbem.localhost", sheetMail("batch-sheet@x", ""))
	sendMail(t, d.Mail.SMTPAddr(), "referee@pbem.localhost", "From: referee@pbem.localhost\nTo: orders@pbem.localhost\n"+
		"Subject: now\nMessage-ID: <batch-now@x>\n\nPASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done; d.Close() }()
	start := time.Now()
	for {
		rec, err := d.Game.DB.LatestTurn(context.Background(), "syw")
		if err == nil && rec.Turn >= 1 {
			break
		}
		if time.Since(start) > waitLimit {
			t.Fatalf("turn 1 not resolved %v after RESOLVE NOW came in a batch (the runner's own look is every %v)", waitLimit, turnLookEvery)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("turn 1 resolved %v after the daemon started", time.Since(start).Round(time.Millisecond))
}
