package daemon

import (
	"context"
	"strings"
	"testing"

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
// to it, with the receipt and the deadline, within 2 s of being sent (more
// under the race detector: see ackLimit).
func TestAckWithinTwoSeconds(t *testing.T) {
	// Not parallel: it times a promise, so it runs while no other test does.
	h := newHarness(t, nil)
	id := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	ack, took := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if ack == "" {
		t.Fatalf("no acknowledgment within %v", waitLimit)
	}
	if took > ackLimit {
		t.Errorf("acknowledgment took %v, want under %v", took, ackLimit)
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
	t.Parallel()
	h := newHarness(t, nil)
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATACK\nMOVE E99 0101", 1)
	id := h.send("eisenmark@pbem.localhost", "orders", sheet)
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
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
	t.Parallel()
	h := newHarness(t, nil)
	first := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(first)); ack == "" {
		t.Fatal("no answer to the first sheet")
	}
	second := h.send("eisenmark@pbem.localhost", "orders v2", strings.Replace(goodSheet, "ATTACK", "DEFEND", 1))
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(second))
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
// game data, not even the game's name; a second mail from the same address
// gets no second answer; and a sheet naming a nation makes that nation's
// owner aware, of every attempt.
func TestUnknownSenderLearnsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.send("stranger@pbem.localhost", "orders", goodSheet)
	ans, _ := h.waitFor("stranger@pbem.localhost", "pw-stranger", func(string) bool { return true })
	if ans == "" {
		t.Fatal("the unknown sender got no answer at all")
	}
	// The whole message, headers included (From's name, Message-ID), less
	// the server's Received line that names the recipient.
	_, msg, _ := strings.Cut(ans, "\r\nFrom:")
	for _, leak := range []string{"eisenmark", "E1", "Konigsfeld", "Receipt", "Deadline", "syw", "Test Game"} {
		if strings.Contains(strings.ToLower(msg), strings.ToLower(leak)) {
			t.Errorf("answer to an unknown sender leaks %q:\n%s", leak, ans)
		}
	}
	notice, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(body(m), "stranger@pbem.localhost")
	})
	if notice == "" {
		t.Error("the real owner of Eisenmark was not told of a sheet from an unregistered address")
	}
	h.send("stranger@pbem.localhost", "orders again", goodSheet)
	h.settle()
	if n := h.count("stranger@pbem.localhost", "pw-stranger"); n != 1 {
		t.Errorf("the unknown sender got %d answers to two mails, want 1 (a forged From must not make pbem a spam source)", n)
	}
	if n := h.count("eisenmark@pbem.localhost", "pw-eisenmark"); n != 2 {
		t.Errorf("Eisenmark got %d notices about the stranger's two sheets, want 2 (each attempt at the password is news)", n)
	}
}

// TestAutoReplyNotAnswered: an out-of-office reply gets no answer.
func TestAutoReplyNotAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.send("eisenmark@pbem.localhost", "Out of office", goodSheet, "Auto-Submitted: auto-replied")
	h.send("eisenmark@pbem.localhost", "Undeliverable", "bounce", "Precedence: bulk")
	h.send("eisenmark@pbem.localhost", "Re: orders", goodSheet, "X-Loop: orders@pbem.localhost")
	// Another service's X-Loop is not ours: that mail is read and answered.
	other := h.send("eisenmark@pbem.localhost", "orders", goodSheet, "X-Loop: lists@example.org")
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(other)); ack == "" {
		t.Error("a sheet carrying a foreign X-Loop header was not answered")
	}
	h.settle()
	if n := h.count("eisenmark@pbem.localhost", "pw-eisenmark"); n != 1 {
		t.Errorf("eisenmark got %d answers, want only the one to the ordinary sheet", n)
	}
	if got := countClass(t, h, ClassAutomatic); got != 3 {
		t.Errorf("%d mails classified %s, want 3", got, ClassAutomatic)
	}
}

// countClass counts the mails that carry the classification want, whatever
// their status (handled mail goes on to be moved).
func countClass(t *testing.T, h *harness, want string) int {
	t.Helper()
	got := 0
	for _, st := range []store.MailStatus{store.MailIgnored, store.MailQuarantined, store.MailAcknowledged, store.MailMoved} {
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
	return got
}

// isSpoofNotice is a waitFor condition: the notice that a mail in the
// recipient's name was refused.
func isSpoofNotice(m string) bool {
	return strings.Contains(header(m, "Subject"), "A mail in your name was refused")
}

// TestSpoofing: the classic attempts are refused, and the real owner is told.
func TestSpoofing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	const owner, ownerPW = "eisenmark@pbem.localhost", "pw-eisenmark"

	// Right address, wrong password: refused, and the answer (to the
	// registered address) says so.
	wrong := h.send(owner, "orders", strings.Replace(goodSheet, "demo-eisenmark", "guess", 1))
	ans, _ := h.waitFor(owner, ownerPW, replyTo(wrong))
	if !strings.Contains(body(ans), "wrong password") || !strings.Contains(body(ans), "REFUSED") {
		t.Errorf("wrong password not refused and reported:\n%s", body(ans))
	}

	// Last turn's sheet replayed (a sheet for another turn): refused.
	replay := h.send(owner, "orders", strings.Replace(goodSheet, "TURN 1", "TURN 0", 1))
	ans, _ = h.waitFor(owner, ownerPW, replyTo(replay))
	if !strings.Contains(body(ans), "REFUSED") {
		t.Errorf("a sheet for another turn was not refused:\n%s", body(ans))
	}

	// Two From headers: the game's mail server refuses it (more cases in
	// spoof_test.go).
	raw := "From: eisenmark@pbem.localhost\r\nFrom: stranger@pbem.localhost\r\nTo: orders@pbem.localhost\r\n" +
		"Subject: orders\r\nMessage-ID: <twofrom@x>\r\n\r\n" + strings.ReplaceAll(goodSheet, "\n", "\r\n")
	if err := h.sendAs(loginFor("stranger@pbem.localhost"), "stranger@pbem.localhost", []byte(raw)); err == nil {
		t.Error("two From headers: the server took the mail")
	}

	// None of these sheets counts, and the stranger hears nothing.
	h.settle()
	if sub, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Errorf("a refused sheet was recorded as the nation's orders:\n%s", sub.CanonicalText)
	}
	if n := h.count("stranger@pbem.localhost", "pw-stranger"); n != 0 {
		t.Errorf("the second From address got %d mails; answers go to registered addresses only", n)
	}
}

// TestForgedAuthenticationResults: with DKIM required, a dkim=pass claimed by
// a server that is not the trusted one does not count — for a player or for
// the referee, who are both told.
func TestForgedAuthenticationResults(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(s string) string {
		return strings.Replace(s, "  deadline:", "  require_dkim: true\n  auth_serv_id: mx.pbem.localhost\n  deadline:", 1)
	})
	forged := "Authentication-Results: mx.evil.example; dkim=pass header.d=pbem.localhost"
	h.send("eisenmark@pbem.localhost", "orders", goodSheet, forged)
	if notice, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", isSpoofNotice); notice == "" {
		t.Fatal("a mail with a forged Authentication-Results was not refused (owner not told)")
	}
	h.send("referee@pbem.localhost", "ruling", "RESOLVE NOW\n", forged)
	if notice, _ := h.waitFor("referee@pbem.localhost", "pw-referee", isSpoofNotice); notice == "" {
		t.Error("a forged referee mail was not refused with a notice to the referee")
	}
	h.settle()
	if _, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("the forged mail's sheet was recorded")
	}
	if _, err := h.d.Game.DB.LatestSubmission(context.Background(), "syw", 1, "referee", KindReferee); err == nil {
		t.Error("the forged referee command was recorded")
	}
}

// sendRequest sends Eisenmark's sheet with a request, waits for the
// request to reach the referee, and returns its token.
func (h *harness) sendRequest() string {
	h.t.Helper()
	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nREQUEST \"Bribe the governor of Dresna\"", 1)
	h.send("eisenmark@pbem.localhost", "orders", sheet)
	fwd, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(body(m), "Bribe the governor")
	})
	if fwd == "" {
		h.t.Fatal("the referee was not sent the request")
	}
	for _, line := range strings.Split(body(fwd), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "APPROVE" {
			return f[1]
		}
	}
	h.t.Fatalf("no APPROVE token in the request mail:\n%s", body(fwd))
	return ""
}

// TestRequestAndRuling: a player's special-action request goes to the
// referee with a token; the same token from another address rules nothing;
// the referee's APPROVE with that token is recorded and the player told, and
// so is a DENY that changes the ruling in a later mail; an unknown token is
// refused.
func TestRequestAndRuling(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	token := h.sendRequest()

	// A player who saw the token cannot rule with it.
	h.send("morgronskia@pbem.localhost", "ruling", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n")
	h.send("stranger@pbem.localhost", "ruling", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n")
	h.settle()
	if rulings := submissionsOf(t, h, KindRuling); len(rulings) > 0 {
		t.Fatalf("a ruling was recorded from a mail not from the referee: %+v", rulings[0])
	}

	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n")
	if ruling, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "approved")
	}); ruling == "" {
		t.Fatal("the player was not told of the ruling")
	}
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "Referee commands received")
	})
	if !strings.Contains(body(ack), "recorded for Eisenmark's request") {
		t.Errorf("referee's acknowledgment:\n%s", body(ack))
	}

	// The referee changes his mind: the player hears that too.
	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nDENY "+token+" \"the governor is incorruptible\"\n")
	if denied, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "denied")
	}); denied == "" {
		t.Error("a later DENY of the same request was not told to the player")
	}

	// An unknown token is refused.
	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE R000000\n")
	if bad, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(body(m), "R000000") && strings.Contains(body(m), "REFUSED")
	}); bad == "" {
		t.Error("an unknown token was not refused")
	}
	h.settle()
	if n := len(submissionsOf(t, h, KindRuling)); n != 2 {
		t.Errorf("%d rulings recorded, want 2 (the APPROVE and the DENY)", n)
	}
}

// TestRulingOnWithdrawnRequest: a request survives a sheet that replaces
// its own without it (carried over: the referee may still rule on it), and
// a sheet that withdraws it by token takes it back: the referee is told, and
// a ruling on it is refused.
func TestRulingOnWithdrawnRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	token := h.sendRequest()
	id := h.send("eisenmark@pbem.localhost", "orders v2", goodSheet)
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if !strings.Contains(body(ack), "Carried over from your earlier sheet") || !strings.Contains(body(ack), token) {
		t.Fatalf("the answer to a sheet without the request does not carry it over:\n%s", body(ack))
	}
	if told, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "1 request(s) carried over, 0 withdrawn")
	}); told == "" {
		t.Error("the referee was not told that the request was carried over")
	}
	withdraw := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nWITHDRAW REQUEST "+token, 1)
	id = h.send("eisenmark@pbem.localhost", "orders v3", withdraw)
	ack, _ = h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if !strings.Contains(body(ack), "Withdrawn by this sheet") {
		t.Fatalf("the answer to a sheet withdrawing the request:\n%s", body(ack))
	}
	if told, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "0 request(s) carried over, 1 withdrawn") && strings.Contains(body(m), token)
	}); told == "" {
		t.Error("the referee was not told of the withdrawal")
	}
	h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "Referee commands received")
	})
	if !strings.Contains(body(ack), "REFUSED") || !strings.Contains(body(ack), "withdrew") {
		t.Errorf("a ruling on a withdrawn request was not refused as such:\n%s", body(ack))
	}
	h.settle()
	if rulings := submissionsOf(t, h, KindRuling); len(rulings) > 0 {
		t.Errorf("a ruling on a withdrawn request was recorded: %+v", rulings[0])
	}
}

// submissionsOf returns turn 1's submissions of a kind.
func submissionsOf(t *testing.T, h *harness, kind string) []store.Submission {
	t.Helper()
	subs, err := h.d.Game.DB.Submissions(context.Background(), "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Submission
	for _, s := range subs {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}
