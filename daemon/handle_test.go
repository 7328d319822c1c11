package daemon

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// These tests call HandleMail on mail put straight into the store, as the
// intake does after it has stored a mail, to reach the instants a crash or
// a bug can strike.

var errCrash = errors.New("simulated crash before the commit")

// storeMail stores raw as the intake would, with UID uid.
func storeMail(t *testing.T, g *Game, uid uint32, from, raw string, at time.Time) store.Mail {
	t.Helper()
	msgID := ""
	if msg, err := mail.ReadMessage(strings.NewReader(raw)); err == nil {
		msgID = strings.Trim(msg.Header.Get("Message-ID"), "<>")
	}
	// The embedded server's stamp for a sender logged in as from, on top
	// (unless the test wrote its own), and its record of the arrival,
	// which is what counts.
	if !strings.Contains(raw, "Authentication-Results: pbem.localhost;") {
		raw = "Authentication-Results: pbem.localhost; auth=pass smtp.auth=" + from + "\n" + raw
	}
	m, _, err := g.DB.StoreMail(context.Background(), store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid,
		Raw: []byte(strings.ReplaceAll(raw, "\n", "\r\n")), From: from, MessageID: msgID, ReceivedAt: at, Arrival: sentBy(from)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sentBy is the embedded server's record of a mail sent by SMTP logged in
// as addr.
func sentBy(addr string) string { return "smtp auth=" + addr + " remote=127.0.0.1" }

// sheetMail is a raw order mail from eisenmark with a Message-ID.
func sheetMail(messageID, extraHeader string) string {
	return "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: o\nMessage-ID: <" + messageID + ">\n" +
		extraHeader + "\n" + goodSheet
}

// queued returns the outbox rows not yet sent.
func queued(t *testing.T, g *Game) []store.OutboxMessage {
	t.Helper()
	rows, err := g.DB.MessagesInState(context.Background(), store.OutboxPending)
	if err != nil {
		t.Fatal(err)
	}
	// The starting reports, queued when the game was created, are not
	// answers to anything.
	var out []store.OutboxMessage
	for _, r := range rows {
		if r.Kind != MailStartReport {
			out = append(out, r)
		}
	}
	return out
}

func mailRow(t *testing.T, g *Game, id int64) store.Mail {
	t.Helper()
	m, err := g.DB.Mail(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCrashBeforeCommitLeavesNothing: a crash anywhere in HandleMail before
// its one transaction commits leaves no trace — no answer queued, no sheet
// recorded, no Message-ID claimed — so that the retry after the restart is
// not taken for a duplicate of itself, and answers once, with one sheet.
// Handling it again after that changes nothing.
func TestCrashBeforeCommitLeavesNothing(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("idem@x", ""), time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC))

	g.beforeCommit = func(store.Mail) error { return errCrash }
	if err := g.HandleMail(ctx, m); !errors.Is(err, errCrash) {
		t.Fatalf("HandleMail with a crash before the commit: %v", err)
	}
	if got := mailRow(t, g, m.ID).Status; got != store.MailStored {
		t.Fatalf("after the crash the mail is %s, want still stored (to be handled again)", got)
	}
	if n := len(queued(t, g)); n != 0 {
		t.Errorf("%d answers queued by a handling that crashed", n)
	}
	if _, err := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("a handling that crashed recorded the sheet")
	}

	g.beforeCommit = nil
	for i := 0; i < 2; i++ { // the retry after the restart, then a stray repeat
		if err := g.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	row := mailRow(t, g, m.ID)
	if row.Status != store.MailAcknowledged || row.Classification != ClassOrders {
		t.Errorf("the retried mail is %s/%s, want acknowledged/orders (not a duplicate of itself)", row.Status, row.Classification)
	}
	rows := queued(t, g)
	if len(rows) != 1 || !strings.Contains(string(rows[0].Raw), "orders received") {
		t.Errorf("%d answers queued for one mail handled after a crash, want the one acknowledgment", len(rows))
	}
	subs, err := g.DB.Submissions(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 {
		t.Errorf("%d submissions recorded for one sheet, want 1", len(subs))
	}
}

// TestSameMessageIDOnce: a relay's rewritten copy of a mail (new bytes, same
// sender and Message-ID) has no effect; a forged mail carrying the
// Message-ID of a real one that is still on its way does not get the real
// one dropped.
func TestSameMessageIDOnce(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), func(s string) string {
		return strings.Replace(s, "  deadline:", "  require_dkim: true\n  auth_serv_id: pbem.localhost\n  deadline:", 1)
	})
	defer d.Close()
	g, ctx := d.Game, context.Background()
	at := time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)
	trusted := "Authentication-Results: pbem.localhost; auth=pass smtp.auth=eisenmark@pbem.localhost; dkim=pass header.d=pbem.localhost\n"

	forged := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("real@x", ""), at)
	real := storeMail(t, g, 2, "eisenmark@pbem.localhost", sheetMail("real@x", trusted), at)
	relayed := storeMail(t, g, 3, "eisenmark@pbem.localhost", sheetMail("real@x", trusted+"X-Relay: rewritten\n"), at)
	for _, m := range []store.Mail{forged, real, relayed} {
		if err := g.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		m     store.Mail
		class string
	}{{forged, ClassSpoof}, {real, ClassOrders}, {relayed, ClassDuplicate}} {
		if got := mailRow(t, g, c.m.ID).Classification; got != c.class {
			t.Errorf("mail %d classified %q, want %q", c.m.UID, got, c.class)
		}
	}
	subs, err := g.DB.Submissions(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 {
		t.Errorf("%d sheets recorded from one mail and its copy, want 1", len(subs))
	}
}

// TestPanicIsAnsweredAndQuarantined: a mail whose handling panics is
// quarantined with nothing of it recorded; its registered sender is told,
// in a reply to it, that nothing was done, and the referee which mail it
// was and why.
func TestPanicIsAnsweredAndQuarantined(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("boom@x", ""), time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC))
	panicked := false
	g.beforeCommit = func(store.Mail) error {
		if !panicked {
			panicked = true
			panic("index out of range [7] with length 7")
		}
		return nil
	}
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatalf("HandleMail after a panic: %v", err)
	}
	row := mailRow(t, g, m.ID)
	if row.Status != store.MailQuarantined || row.Classification != ClassInternal {
		t.Errorf("mail is %s/%s, want quarantined/%s", row.Status, row.Classification, ClassInternal)
	}
	if _, err := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("the sheet of a mail whose handling panicked was recorded")
	}
	var toPlayer, toReferee string
	for _, r := range queued(t, g) {
		switch r.Recipients[0] {
		case "eisenmark@pbem.localhost":
			toPlayer = string(r.Raw)
		case "referee@pbem.localhost":
			toReferee = string(r.Raw)
		default:
			t.Errorf("a mail about the panic went to %v", r.Recipients)
		}
	}
	if !strings.Contains(body(toPlayer), "nothing on it was done") || !strings.Contains(header(toPlayer, "In-Reply-To"), "boom@x") {
		t.Errorf("the player was not told, in a reply, that nothing was done:\n%s", toPlayer)
	}
	if strings.Contains(toPlayer, "index out of range") {
		t.Errorf("the player was shown pbem's internal detail:\n%s", toPlayer)
	}
	if !strings.Contains(body(toReferee), "index out of range") || !strings.Contains(body(toReferee), "Mail 1 ") {
		t.Errorf("the referee was not told which mail failed and why:\n%s", toReferee)
	}
}

// TestLateSheetDoesNotCount: a sheet that arrived after the deadline is
// answered, says it is late, and is not recorded as the nation's orders.
func TestLateSheetDoesNotCount(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	deadline, ok := g.Deadline(ctx)
	if !ok {
		t.Fatal("the test game has no deadline")
	}
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("late@x", ""), deadline.Add(time.Minute))
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("a late sheet was recorded as the nation's orders")
	}
	rows := queued(t, g)
	if len(rows) != 1 || !strings.Contains(string(rows[0].Raw), "LATE") {
		t.Fatalf("want one answer saying the sheet is late, got %d", len(rows))
	}
	if got := mailRow(t, g, m.ID).Classification; got != ClassLate {
		t.Errorf("classification %q, want %q", got, ClassLate)
	}
}

// TestEditionCannotChange: a config whose ruleset is not the stored game's
// is refused as a configuration error that says what to do, even by
// commands that only read (a sheet checked under the other edition would be
// checked wrong).
func TestEditionCannotChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, cfg := startGame(t, dir, nil)
	d.Close()
	other := *cfg
	other.Game.Ruleset = "syw-v4"
	_, err := Open(context.Background(), &other, &Options{})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "game.ruleset" || !strings.Contains(err.Error(), "set game.ruleset back to syw-1752") {
		t.Fatalf("opening with another ruleset: %v, want a ConfigError on game.ruleset saying what to do", err)
	}
}

// TestTooLargeMailIsAnswered: a registered player whose mail was over the
// size limit (the intake kept only its header) is told why nothing was read.
func TestTooLargeMailIsAnswered(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	ctx := context.Background()
	raw := []byte("Authentication-Results: pbem.localhost; auth=pass smtp.auth=eisenmark@pbem.localhost\r\n" +
		"From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: scan of my map\r\n" +
		"Message-ID: <big@pbem.localhost>\r\nX-Pbem-Not-Fetched: 40000000 bytes, over the limit of 10485760\r\n\r\n" +
		"[pbem: this message was 40000000 bytes, over the limit of 10485760 bytes; only its header was fetched.]\r\n")
	m, _, err := d.Game.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw,
		From: "eisenmark@pbem.localhost", ReceivedAt: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC), Arrival: sentBy("eisenmark@pbem.localhost")})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Game.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	got, _ := d.Game.DB.Mail(ctx, m.ID)
	if got.Status != store.MailQuarantined || got.Classification != ClassUnreadable {
		t.Errorf("status %s, classification %s; want quarantined, %s", got.Status, got.Classification, ClassUnreadable)
	}
	rows := queued(t, d.Game)
	if len(rows) != 1 || !strings.Contains(string(rows[0].Raw), "over the limit") {
		t.Fatalf("want one answer saying the mail was too large, got %d", len(rows))
	}
}

// TestDKIMTempErrorIsRetried: with DKIM required, a DNS failure while
// checking a mail is no verdict on the mail: it is retried, and refused only
// once it has failed for the whole retry window.
func TestDKIMTempErrorIsRetried(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), func(s string) string {
		return strings.Replace(s, "  deadline:", "  require_dkim: true\n  auth_serv_id: pbem.localhost\n  deadline:", 1)
	})
	defer d.Close()
	ctx := context.Background()
	store1 := func(uid uint32, received time.Time) store.Mail {
		raw := []byte("Authentication-Results: pbem.localhost; auth=pass smtp.auth=eisenmark@pbem.localhost; dkim=temperror header.d=pbem.localhost\r\n" +
			"From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: o\r\n" +
			"Message-ID: <dns" + string(rune('0'+uid)) + "@pbem.localhost>\r\n\r\n" + strings.ReplaceAll(goodSheet, "\n", "\r\n"))
		m, _, err := d.Game.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw,
			From: "eisenmark@pbem.localhost", ReceivedAt: received, Arrival: sentBy("eisenmark@pbem.localhost")})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fresh := store1(1, time.Now())
	if err := d.Game.HandleMail(ctx, fresh); err == nil {
		t.Error("a DNS failure on a fresh mail should be retried (an error for the intake), not judged")
	}
	if got, _ := d.Game.DB.Mail(ctx, fresh.ID); got.Status != store.MailStored {
		t.Errorf("a mail to be retried changed status to %s", got.Status)
	}
	old := store1(2, time.Now().Add(-2*dkimRetryWindow))
	if err := d.Game.HandleMail(ctx, old); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Game.DB.Mail(ctx, old.ID); got.Status == store.MailStored || got.Classification != ClassSpoof {
		t.Errorf("after the retry window: status %s, classification %s; want refused as %s", got.Status, got.Classification, ClassSpoof)
	}
}
