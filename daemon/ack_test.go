package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

const goodSheet = `Dear referee, my orders:

GAME syw
NATION eisenmark
PASSWORD demo-eisenmark
TURN 1
STANCE E1 ATTACK
END

-- 
Frederick
`

// TestAckWithinTwoSeconds: a sheet mailed by SMTP is answered by mail, threaded
// to it, with the receipt and the deadline, within 2 s of being sent.
func TestAckWithinTwoSeconds(t *testing.T) {
	h := newHarness(t, nil)
	id := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	ack, took := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "In-Reply-To"), id)
	})
	if ack == "" {
		t.Fatalf("no acknowledgment within 5s")
	}
	if took > 2*time.Second {
		t.Errorf("acknowledgment took %v, want under 2s", took)
	}
	text := body(ack)
	for _, want := range []string{"Eisenmark", "Receipt", "Deadline", "STANCE E1 ATTACK"} {
		if !strings.Contains(text, want) {
			t.Errorf("acknowledgment lacks %q:\n%s", want, text)
		}
	}
	if got := header(ack, "Auto-Submitted"); got != "auto-replied" {
		t.Errorf("Auto-Submitted %q, want auto-replied", got)
	}
	if !strings.Contains(header(ack, "References"), id) {
		t.Errorf("References %q does not name the sheet's Message-ID %s", header(ack, "References"), id)
	}
}

// TestBadSheetGetsErrors: each mistake is answered by line.
func TestBadSheetGetsErrors(t *testing.T) {
	h := newHarness(t, nil)
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATACK\nMOVE E99 0101", 1)
	id := h.send("eisenmark@pbem.localhost", "orders", sheet)
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "In-Reply-To"), id)
	})
	if ack == "" {
		t.Fatal("no answer to a bad sheet")
	}
	text := body(ack)
	for _, want := range []string{"line 7", "ATACK", "line 8", "E99"} {
		if !strings.Contains(text, want) {
			t.Errorf("answer lacks %q:\n%s", want, text)
		}
	}
}

// TestLaterSheetReplacesEarlier: the answer to a second sheet says it replaces
// the first, and the store keeps the second as the one that counts.
func TestLaterSheetReplacesEarlier(t *testing.T) {
	h := newHarness(t, nil)
	first := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "In-Reply-To"), first)
	})
	second := h.send("eisenmark@pbem.localhost", "orders v2", strings.Replace(goodSheet, "ATTACK", "DEFEND", 1))
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "In-Reply-To"), second)
	})
	if !strings.Contains(strings.ToLower(body(ack)), "replace") {
		t.Errorf("second answer does not say it replaces the first:\n%s", body(ack))
	}
	sub, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sub.CanonicalText, "DEFEND") {
		t.Errorf("the sheet in force is not the later one:\n%s", sub.CanonicalText)
	}
}

// TestUnknownSenderLearnsNothing: an unregistered sender's answer holds no
// game data, and a sheet naming a nation makes that nation's owner aware.
func TestUnknownSenderLearnsNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.send("stranger@pbem.localhost", "orders", goodSheet)
	ans, _ := h.waitFor("stranger@pbem.localhost", "pw-stranger", 5*time.Second, func(string) bool { return true })
	if ans == "" {
		t.Fatal("the unknown sender got no answer at all")
	}
	text := body(ans)
	for _, leak := range []string{"Eisenmark", "eisenmark", "E1", "Konigsfeld", "Receipt", "Deadline", "syw"} {
		if strings.Contains(text, leak) || strings.Contains(header(ans, "Subject"), leak) {
			t.Errorf("answer to an unknown sender leaks %q:\n%s", leak, ans)
		}
	}
	notice, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(body(m), "stranger@pbem.localhost")
	})
	if notice == "" {
		t.Error("the real owner of Eisenmark was not told of a sheet from an unregistered address")
	}
}

// TestAutoReplyNotAnswered: an out-of-office reply gets no answer.
func TestAutoReplyNotAnswered(t *testing.T) {
	h := newHarness(t, nil)
	h.send("eisenmark@pbem.localhost", "Out of office", goodSheet, "Auto-Submitted: auto-replied")
	h.send("eisenmark@pbem.localhost", "Undeliverable", "bounce", "Precedence: bulk")
	h.send("eisenmark@pbem.localhost", "Re: orders", goodSheet, "X-Loop: orders@pbem.localhost")
	// Another service's X-Loop is not ours: that mail is read and answered.
	other := h.send("eisenmark@pbem.localhost", "orders", goodSheet, "X-Loop: lists@example.org")
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "In-Reply-To"), other)
	}); ack == "" {
		t.Error("a sheet carrying a foreign X-Loop header was not answered")
	}
	time.Sleep(time.Second)
	if n := len(h.inbox("eisenmark@pbem.localhost", "pw-eisenmark")); n != 1 {
		t.Errorf("eisenmark got %d answers, want only the one to the ordinary sheet", n)
	}
	waitClass(t, h, 3, ClassAutomatic)
}

// waitClass waits until n mails carry the classification want (whatever
// their status: handled mail goes on to be moved).
func waitClass(t *testing.T, h *harness, n int, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	got := 0
	for time.Now().Before(deadline) {
		got = 0
		for _, st := range []store.MailStatus{store.MailIgnored, store.MailAcknowledged, store.MailMoved} {
			mails, err := h.d.Game.DB.MailByStatus(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range mails {
				if m.Classification == want {
					got++
				}
			}
		}
		if got >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%d mails classified %s, want %d", got, want, n)
}

// TestSpoofing: the classic attempts are refused, and the real owner is told.
func TestSpoofing(t *testing.T) {
	h := newHarness(t, nil)
	const owner, ownerPW = "eisenmark@pbem.localhost", "pw-eisenmark"

	// Right address, wrong password: refused, and the answer (to the
	// registered address) says so.
	wrong := h.send(owner, "orders", strings.Replace(goodSheet, "demo-eisenmark", "guess", 1))
	ans, _ := h.waitFor(owner, ownerPW, 5*time.Second, func(m string) bool { return strings.Contains(header(m, "In-Reply-To"), wrong) })
	if !strings.Contains(body(ans), "wrong password") || !strings.Contains(body(ans), "REFUSED") {
		t.Errorf("wrong password not refused and reported:\n%s", body(ans))
	}

	// Last turn's sheet replayed (a sheet for another turn): refused.
	replay := h.send(owner, "orders", strings.Replace(goodSheet, "TURN 1", "TURN 0", 1))
	ans, _ = h.waitFor(owner, ownerPW, 5*time.Second, func(m string) bool { return strings.Contains(header(m, "In-Reply-To"), replay) })
	if !strings.Contains(body(ans), "REFUSED") {
		t.Errorf("a sheet for another turn was not refused:\n%s", body(ans))
	}

	// Two From headers: refused without reading; the registered owner told.
	raw := "From: eisenmark@pbem.localhost\r\nFrom: stranger@pbem.localhost\r\nTo: orders@pbem.localhost\r\n" +
		"Subject: orders\r\nMessage-ID: <twofrom@x>\r\n\r\n" + strings.ReplaceAll(goodSheet, "\n", "\r\n")
	h.sendRaw("stranger@pbem.localhost", []byte(raw))
	notice, _ := h.waitFor(owner, ownerPW, 5*time.Second, func(m string) bool { return strings.Contains(header(m, "Subject"), "refused") })
	if notice == "" {
		t.Error("two From headers: the owner was not told")
	}

	// None of these sheets counts.
	if sub, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Errorf("a refused sheet was recorded as the nation's orders:\n%s", sub.CanonicalText)
	}
}

// TestForgedAuthenticationResults: with DKIM required, a dkim=pass claimed by
// a server that is not the trusted one does not count.
func TestForgedAuthenticationResults(t *testing.T) {
	h := newHarness(t, func(s string) string {
		return strings.Replace(s, "  deadline:", "  require_dkim: true\n  auth_serv_id: mx.pbem.localhost\n  deadline:", 1)
	})
	h.send("eisenmark@pbem.localhost", "orders", goodSheet,
		"Authentication-Results: mx.evil.example; dkim=pass header.d=pbem.localhost")
	notice, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "Subject"), "refused")
	})
	if notice == "" {
		t.Fatal("a mail with a forged Authentication-Results was not refused (owner not told)")
	}
	if _, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("the forged mail's sheet was recorded")
	}
}

// TestRequestAndRuling: a player's special-action request goes to the
// referee with a token; the referee's APPROVE with that token is recorded and
// the player told; the same token from another address rules nothing.
func TestRequestAndRuling(t *testing.T) {
	h := newHarness(t, nil)
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nREQUEST \"Bribe the governor of Dresna\"", 1)
	h.send("eisenmark@pbem.localhost", "orders", sheet)
	fwd, _ := h.waitFor("referee@pbem.localhost", "pw-referee", 5*time.Second, func(m string) bool {
		return strings.Contains(body(m), "Bribe the governor")
	})
	if fwd == "" {
		t.Fatal("the referee was not sent the request")
	}
	token := ""
	for _, line := range strings.Split(body(fwd), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "APPROVE" {
			token = f[1]
		}
	}
	if token == "" {
		t.Fatalf("no APPROVE token in the request mail:\n%s", body(fwd))
	}

	// A player who saw the token cannot rule with it.
	h.send("morgronskia@pbem.localhost", "ruling", "APPROVE "+token+"\n")
	h.send("stranger@pbem.localhost", "ruling", "APPROVE "+token+"\n")
	time.Sleep(500 * time.Millisecond)
	subs, _ := h.d.Game.DB.Submissions(context.Background(), "syw", 1)
	for _, s := range subs {
		if s.Kind == KindRuling {
			t.Fatalf("a ruling was recorded from a mail not from the referee: %+v", s)
		}
	}

	h.send("referee@pbem.localhost", "Re: request", "APPROVE "+token+"\n")
	ruling, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "Subject"), "approved")
	})
	if ruling == "" {
		t.Fatal("the player was not told of the ruling")
	}
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", 5*time.Second, func(m string) bool {
		return strings.Contains(header(m, "Subject"), "Referee commands received")
	})
	if !strings.Contains(body(ack), "recorded") {
		t.Errorf("referee's acknowledgment:\n%s", body(ack))
	}

	// An unknown token is refused.
	h.send("referee@pbem.localhost", "Re: request", "APPROVE R000000\n")
	bad, _ := h.waitFor("referee@pbem.localhost", "pw-referee", 5*time.Second, func(m string) bool {
		return strings.Contains(body(m), "R000000") && strings.Contains(body(m), "REFUSED")
	})
	if bad == "" {
		t.Error("an unknown token was not refused")
	}
}

// TestHandleMailIsIdempotent: handling the same stored mail twice (a crash
// after the answer was queued) queues one answer.
func TestHandleMailIsIdempotent(t *testing.T) {
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	ctx := context.Background()
	raw := []byte("From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: o\r\nMessage-ID: <idem@x>\r\n\r\n" +
		strings.ReplaceAll(goodSheet, "\n", "\r\n"))
	m, _, err := d.Game.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw,
		From: "eisenmark@pbem.localhost", ReceivedAt: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	// First handling "crashes" after queueing: simulate by handling a copy
	// that still says stored, twice.
	for i := 0; i < 2; i++ {
		if err := d.Game.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := d.Game.DB.MessagesInState(ctx, store.OutboxPending)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Errorf("%d answers queued for one mail handled twice, want 1", len(rows))
	}
}

// TestLateSheetDoesNotCount: a sheet that arrived after the deadline is
// answered, says it is late, and is not recorded as the nation's orders.
func TestLateSheetDoesNotCount(t *testing.T) {
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	ctx := context.Background()
	deadline, ok := d.Game.Deadline(ctx)
	if !ok {
		t.Fatal("the test game has no deadline")
	}
	raw := []byte("From: eisenmark@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: o\r\nMessage-ID: <late@x>\r\n\r\n" +
		strings.ReplaceAll(goodSheet, "\n", "\r\n"))
	m, _, err := d.Game.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw,
		From: "eisenmark@pbem.localhost", ReceivedAt: deadline.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Game.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Game.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("a late sheet was recorded as the nation's orders")
	}
	rows, _ := d.Game.DB.MessagesInState(ctx, store.OutboxPending)
	if len(rows) != 1 || !strings.Contains(string(rows[0].Raw), "LATE") {
		t.Fatalf("want one answer saying the sheet is late, got %d", len(rows))
	}
	if got, _ := d.Game.DB.Mail(ctx, m.ID); got.Classification != ClassLate {
		t.Errorf("classification %q, want %q", got.Classification, ClassLate)
	}
}
