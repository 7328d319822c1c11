//go:build unix

package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// TestAnswersGoFirst (issue 28, case 5): under the provider's send pace
// (30 a minute: one mail every 2 s) with 20 reports queued — and the
// opening's six, 26 in all — a player's answer is the next mail out once it is
// queued: at most the report being sent when the sheet came, and the one
// after if handling the sheet took a whole slot, go between the sheet and
// its answer.
func TestAnswersGoFirst(t *testing.T) {
	t.Parallel()
	pg := newProvGame(t, func(s string) string { return strings.Replace(s, "rate_per_minute: 6000", "rate_per_minute: 30", 1) }, nil)
	g := pg.d.Game
	ctx := context.Background()
	err := g.DB.Update(ctx, func(tx *store.Tx) error {
		for i := range 20 {
			n := []string{"morgronskia", "unterreich", "fromande", "hispardia"}[i%4]
			msg := g.message(MailReport, n, 1, fmt.Sprintf("bulk%d", i), []string{n + "@provider.test"},
				fmt.Sprintf("[syw] report %d", i), "A report queued before the sheet came.\n", g.Now())
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pg.d.Outbox.Wake()
	sent := time.Now()
	id := pg.send("eisenmark@provider.test", "orders", marchSheet)
	ack := pg.waitFor("eisenmark@provider.test", replyTo(id))
	took := time.Since(sent)
	if !strings.Contains(header(ack, "Subject"), "orders received") {
		t.Errorf("the answer: %s", header(ack, "Subject"))
	}
	var ackRow store.OutboxMessage
	rows := allRows(t, g)
	for _, r := range rows {
		if r.Kind == MailAck {
			ackRow = r
		}
	}
	if ackRow.Priority != store.OutboxAnswer || ackRow.SentAt.IsZero() {
		t.Fatalf("the answer's row: priority %d, sent %v", ackRow.Priority, ackRow.SentAt)
	}
	early, before, after := 0, 0, 0
	for _, r := range rows {
		if r.Kind != MailReport && r.Kind != MailRefereeReport && r.Kind != MailStartReport {
			continue
		}
		switch {
		case r.State == store.OutboxSent && r.SentAt.Before(sent):
			early++ // out before the sheet was sent
		case r.State == store.OutboxSent && r.SentAt.Before(ackRow.SentAt):
			before++
		default:
			after++
		}
	}
	t.Logf("the answer went out %v after the sheet was sent; of the 26 queued reports %d went before the sheet was sent, "+
		"%d between it and the answer, %d after the answer", took.Round(time.Millisecond), early, before, after)
	if before > 2 {
		t.Errorf("%d of the queued reports went out between the sheet and its answer; want at most 2", before)
	}
	if after < 22 {
		t.Errorf("only %d queued reports went after the answer", after)
	}
}
