package daemon

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// isReport is a waitFor condition: a turn report (a nation's, or the
// referee's master report) for the turn label ("Turn 1, April 1752"): its
// subject starts "[syw] T001 ".
func isReport(turn string) func(string) bool {
	n := 0
	fmt.Sscanf(turn, "Turn %d,", &n)
	return func(m string) bool {
		s := header(m, "Subject")
		return strings.Contains(s, fmt.Sprintf("] T%03d ", n)) && (strings.Contains(s, "turn report") || strings.Contains(s, "master report"))
	}
}

// TestTurnResolvedAtDeadline: at the stored deadline the turn runner
// resolves the turn from the stored orders, every nation gets its report
// (the one without orders is told it held on defend, NMR), the referee a
// summary; the next turn opens with its deadline from the schedule, and a
// sheet for it is accepted with that deadline.
func TestTurnResolvedAtDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	ctx := context.Background()
	g := h.d.Game
	id := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	st, _ := g.State(ctx)
	label := st.Calendar.Label(1)
	first, _ := g.DB.TurnDeadline(ctx, "syw", 1)

	// The deadline comes (brought forward to now, as a referee's DEADLINE SET would).
	if err := g.DB.SetDeadline(ctx, "syw", 1, time.Now().Add(500*time.Millisecond), 0); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	rep, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", isReport(label))
	if rep == "" {
		t.Fatal("Eisenmark got no report")
	}
	if strings.Contains(body(rep), "NMR") {
		t.Errorf("Eisenmark sent orders but is told NMR:\n%s", body(rep))
	}
	nmr, _ := h.waitFor("morgronskia@pbem.localhost", "pw-morgronskia", isReport(label))
	if !strings.Contains(body(nmr), "NMR") || !strings.Contains(body(nmr), "DEFEND") {
		t.Errorf("Morgronskia sent nothing and is not told it held on defend:\n%s", body(nmr))
	}
	summary, _ := h.waitFor("referee@pbem.localhost", "pw-referee", isReport(label))
	if !strings.Contains(body(summary), "morgronskia") || strings.Contains(strings.SplitN(body(summary), "What you saw", 2)[0], "eisenmark,") {
		t.Errorf("the referee's summary does not list the NMR nations right:\n%s", body(summary))
	}

	rec, err := g.DB.LatestTurn(ctx, "syw")
	if err != nil || rec.Turn != 1 || rec.Status != store.TurnResolved || len(rec.Dice) == 0 {
		t.Fatalf("latest turn after the deadline: turn %d %s, %v", rec.Turn, rec.Status, err)
	}
	if es, _ := g.DB.Events(ctx, "syw", 1, rec.Version); len(es) == 0 {
		t.Error("no events stored for the resolved turn")
	}
	next, err := g.DB.TurnDeadline(ctx, "syw", 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := first.Scheduled.AddDate(0, 0, 28); !next.At.Equal(want) && next.At.In(g.Zone).YearDay() != want.In(g.Zone).YearDay() {
		t.Errorf("turn 2's deadline %v, want the schedule's next, 28 days after %v", next.At, first.Scheduled)
	}

	id = h.send("eisenmark@pbem.localhost", "orders 2", strings.Replace(goodSheet, "TURN 1", "TURN 2", 1))
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id))
	if !strings.Contains(header(ack, "Subject"), "orders received") || deadlineLine(ack) != "Deadline: "+g.showTime(next.At) {
		t.Errorf("turn 2's sheet: %s, %q", header(ack, "Subject"), deadlineLine(ack))
	}
	h.settle()
	if n := len(reportRows(t, g, 1)); n != 6 {
		t.Errorf("%d report rows for turn 1, want 6 (five nations and the referee)", n)
	}
}

// TestResolveNowByMail: the referee's RESOLVE NOW resolves the open turn at
// once, and the referee is told.
func TestResolveNowByMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	st, _ := g.State(context.Background())
	cmd := h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "will be resolved now") {
		t.Errorf("the referee's acknowledgment:\n%s", body(ack))
	}
	if rep, _ := h.waitFor("morgronskia@pbem.localhost", "pw-morgronskia", isReport(st.Calendar.Label(1))); rep == "" {
		t.Fatal("no report after RESOLVE NOW")
	}
	h.settle()
	if n := len(reportRows(t, g, 1)); n != 6 {
		t.Errorf("after RESOLVE NOW, %d report rows, want 6", n)
	}
	if rec, _ := g.DB.LatestTurn(context.Background(), "syw"); rec.Turn != 1 {
		t.Errorf("after RESOLVE NOW the latest turn is %d, want 1 (resolved once)", rec.Turn)
	}
}

// reportRows returns the outbox rows of the turn runner's mails for a turn.
func reportRows(t *testing.T, g *Game, turn int) []store.OutboxMessage {
	t.Helper()
	var out []store.OutboxMessage
	for _, s := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent, store.OutboxFailed} {
		rows, err := g.DB.MessagesInState(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if (r.Kind == MailReport || r.Kind == MailRefereeReport) && strings.HasPrefix(r.MessageID, fmt.Sprintf("<syw.t%d.", turn)) {
				out = append(out, r)
			}
		}
	}
	return out
}

// TestTurnCrashBeforeCommit: a crash inside the turn's one transaction
// leaves nothing — no resolved turn, no reports queued, no next deadline —
// and the turn decided again gives the same state, events and dice; once
// committed, a restart resolves nothing twice and queues no report twice.
func TestTurnCrashBeforeCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	d, _ := startGame(t, dir, nil)
	g := d.Game
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("o@x", ""), time.Now())
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	before, err := g.decideTurn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g.beforeTurnCommit = func(int) error { return errCrash }
	if err := g.ResolveTurn(ctx); err == nil {
		t.Fatal("the simulated crash did not stop the commit")
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Errorf("after a crash before the commit the latest turn is %d", rec.Turn)
	}
	if n := len(reportRows(t, g, 1)); n != 0 {
		t.Errorf("after a crash before the commit %d reports are queued", n)
	}
	if _, err := g.DB.TurnDeadline(ctx, "syw", 2); err == nil {
		t.Error("after a crash before the commit turn 2 has a deadline")
	}
	d.Close()

	d, _ = startGame(t, dir, nil)
	g = d.Game
	again, err := g.decideTurn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.rec.State, before.rec.State) || !bytes.Equal(again.rec.EventLog, before.rec.EventLog) ||
		!bytes.Equal(again.rec.Dice, before.rec.Dice) || again.rec.Seed != before.rec.Seed {
		t.Error("the turn decided again after a restart differs from the first decision")
	}
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	rows := reportRows(t, g, 1)
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.MessageID] = true
	}
	if len(rows) != 6 || len(ids) != 6 {
		t.Fatalf("%d report rows with %d Message-IDs, want 6 and 6", len(rows), len(ids))
	}
	d.Close()

	// A restart after the commit: turn 2 is open and not due; nothing is
	// resolved or queued again.
	d, _ = startGame(t, dir, nil)
	defer d.Close()
	g = d.Game
	if due, _, err := g.turnDue(ctx); err != nil || due {
		t.Errorf("after the restart the next turn is due: %v, %v", due, err)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 1 || rec.Version != 1 {
		t.Errorf("latest turn %d version %d, want turn 1 version 1", rec.Turn, rec.Version)
	}
	if got := reportRows(t, g, 1); len(got) != 6 {
		t.Errorf("%d report rows after the restart, want the same 6", len(got))
	}
}

// TestTurnFailureToldToReferee: a turn that cannot be resolved (here a
// sheet in force stored without engine orders, as an older pbem stored
// them) is not resolved, and the referee is told once why, however often
// the runner tries.
func TestTurnFailureToldToReferee(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	if _, _, err := g.DB.SaveSubmission(ctx, store.Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: KindOrders,
		RawText: "old", CanonicalText: "old", ReceiptHash: "abc", Valid: true, SubmittedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		err := g.ResolveTurn(ctx)
		if err == nil || !strings.Contains(err.Error(), "send it again") {
			t.Fatalf("ResolveTurn = %v, want an error asking for the sheet again", err)
		}
		g.turnFailed(ctx, err)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Errorf("the turn was resolved without Eisenmark's orders")
	}
	var notices []store.OutboxMessage
	for _, r := range queued(t, g) {
		if r.Kind == MailNotice {
			notices = append(notices, r)
		}
	}
	if len(notices) != 1 || !strings.Contains(string(notices[0].Raw), "could not be resolved") {
		t.Errorf("%d notices to the referee, want 1 saying the turn could not be resolved", len(notices))
	}
}

// TestSheetCheckedWhileTheTurnResolves: a sheet checked against turn 1
// whose commit comes after the turn runner resolved turn 1 is not saved
// into the resolved turn (where nothing would read it); it is checked again
// against the turn now open, and refused as a sheet for a past turn.
func TestSheetCheckedWhileTheTurnResolves(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("race@x", ""), time.Now())
	out, err := g.decide(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	if err := g.commit(ctx, m, out); !errors.Is(err, errTurnMoved) {
		t.Fatalf("commit after the turn moved on: %v, want errTurnMoved", err)
	}
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders); err == nil {
		t.Error("a sheet was saved into a turn already resolved")
	}
	var ack string
	for _, r := range queued(t, g) {
		if r.Kind == MailAck {
			ack = string(r.Raw)
		}
	}
	if !strings.Contains(ack, "REFUSED") {
		t.Errorf("the sheet for the resolved turn was not refused:\n%s", ack)
	}
}

// TestReminderBeforeDeadline: reminder_hours before the deadline, each
// nation with no orders in is reminded once, with the deadline in the
// game's zone and as an .ics attachment; a nation whose sheet is in is not.
func TestReminderBeforeDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	id := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	deadline := time.Now().Add(3 * time.Hour).Truncate(time.Minute)
	if err := g.DB.SetDeadline(ctx, "syw", 1, deadline, 0); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	isReminder := func(m string) bool { return strings.Contains(header(m, "Subject"), "Reminder") }
	rem, _ := h.waitFor("morgronskia@pbem.localhost", "pw-morgronskia", isReminder)
	if rem == "" {
		t.Fatal("Morgronskia, with no orders in, was not reminded")
	}
	text, ics := mimeParts(t, rem)
	if !strings.Contains(text, g.showTime(deadline)) {
		t.Errorf("the reminder does not give the deadline %s:\n%s", g.showTime(deadline), text)
	}
	for _, want := range []string{"BEGIN:VCALENDAR", "DTSTART:" + deadline.UTC().Format("20060102T150405Z"), "END:VCALENDAR\r\n"} {
		if !strings.Contains(ics, want) {
			t.Errorf("the .ics lacks %q:\n%s", want, ics)
		}
	}
	h.runnerLooked()
	n := 0
	for _, m := range h.inbox("morgronskia@pbem.localhost", "pw-morgronskia") {
		if isReminder(string(m)) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("Morgronskia got %d reminders, want 1", n)
	}
	for _, m := range h.inbox("eisenmark@pbem.localhost", "pw-eisenmark") {
		if isReminder(string(m)) {
			t.Error("Eisenmark, whose orders are in, was reminded")
		}
	}
}

// mimeParts returns the text and the first attachment of a multipart mail,
// decoded.
func mimeParts(t *testing.T, raw string) (text, attachment string) {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	r := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err != nil {
			return text, attachment
		}
		var rd io.Reader = p
		if p.Header.Get("Content-Transfer-Encoding") == "base64" {
			rd = base64.NewDecoder(base64.StdEncoding, p)
		} else if p.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
			rd = quotedprintable.NewReader(p)
		}
		b, _ := io.ReadAll(rd)
		if p.FileName() != "" {
			if attachment == "" {
				attachment = string(b)
			}
		} else {
			text += string(b)
		}
	}
}

// TestEarlyResolutionWhenAllFinal: the turn is resolved before its deadline
// once every nation's sheet in force was sent with FINAL in the subject; a
// later sheet without FINAL takes the mark away.
func TestEarlyResolutionWhenAllFinal(t *testing.T) {
	t.Parallel()
	h := newHarness(t, killConfig)
	g := h.d.Game
	ctx := context.Background()
	nations := []string{"eisenmark", "fromande", "hispardia", "morgronskia", "unterreich"}
	sheet := func(n string) string {
		return fmt.Sprintf("GAME syw\nNATION %s\nPASSWORD demo-%s\nTURN 1\nEND\n", n, n)
	}
	// One nation sends a final sheet, then replaces it with one that is not.
	h.send("unterreich@pbem.localhost", "[final] orders", sheet("unterreich"))
	h.settle()
	h.send("unterreich@pbem.localhost", "orders, second thoughts", sheet("unterreich"))
	h.settle()
	for _, n := range nations[:4] {
		id := h.send(n+"@pbem.localhost", "Orders FINAL", sheet(n))
		ack, _ := h.waitFor(n+"@pbem.localhost", "pw-"+n, replyTo(id))
		if !strings.Contains(body(ack), "Marked FINAL") {
			t.Fatalf("%s's answer does not say the sheet is final:\n%s", n, body(ack))
		}
	}
	h.settle()
	h.runnerLooked()
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved early though one nation's sheet in force is not final")
	}
	h.send("unterreich@pbem.localhost", "FINAL", sheet("unterreich"))
	st, _ := g.State(ctx)
	if rep, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", isReport(st.Calendar.Label(1))); rep == "" {
		t.Fatal("the turn was not resolved when every sheet was final")
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 1 {
		t.Errorf("latest turn %d, want 1", rec.Turn)
	}
}

// TestNMRStreakAsksReferee: after nmr_alert_turns turns in a row without
// orders, the referee's summary asks what to do about the nation; a nation
// that missed only this turn is not named so.
func TestNMRStreakAsksReferee(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("t1@x", ""), time.Now())
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	// Turn 1's mails are not the point: plain text, not six PDFs. The
	// summary looked at is the real one (TurnMailer nil again).
	g.TurnMailer = PlainTurnMail
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	g.TurnMailer = nil
	out, err := g.decideTurn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	summary := out.msgs[len(out.msgs)-1].Text
	if !strings.Contains(summary, "Morgronskia has sent no orders for 2 turns in a row") {
		t.Errorf("the referee is not asked about Morgronskia's second missed turn:\n%s", summary)
	}
	if strings.Contains(summary, "Eisenmark has sent no orders") {
		t.Errorf("Eisenmark missed one turn only, but the referee is asked about it:\n%s", summary)
	}
}

func TestIsFinal(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"Orders FINAL": true, "[final] turn 3": true, "Final": true, "FINAL: orders": true, "Re: orders (final)": true,
		"finally, my orders": false, "semifinal": false, "orders": false, "": false, "FINALE": false,
	} {
		if isFinal(s) != want {
			t.Errorf("isFinal(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestPreview: the referee's PREVIEW mails the referee the turn as it would
// be resolved, saves nothing and tells no player; resolved afterwards with
// the same sheets, the turn has the same events.
func TestPreview(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	id := h.send("eisenmark@pbem.localhost", "orders", marchSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	st, _ := g.State(ctx)
	label := st.Calendar.Label(1)
	h.send("referee@pbem.localhost", "preview", "PASSWORD "+refereePassword+"\nPREVIEW\n")
	pre, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "PREVIEW of "+label)
	})
	if !strings.Contains(body(pre), "took Dresna from neutral hands") || !strings.Contains(body(pre), "Nothing was saved") {
		t.Fatalf("the preview:\n%s", body(pre))
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("PREVIEW resolved the turn")
	}
	for _, m := range h.inbox("eisenmark@pbem.localhost", "pw-eisenmark") {
		if strings.Contains(header(string(m), "Subject"), "resolved") {
			t.Fatal("a player was sent a report by PREVIEW")
		}
	}
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	real, _ := h.waitFor("referee@pbem.localhost", "pw-referee", isReport(label))
	events := func(s string) string {
		_, after, _ := strings.Cut(body(s), "What you saw")
		before, _, _ := strings.Cut(after, "Orders for")
		return before
	}
	if events(real) == "" || events(real) != events(pre) {
		t.Errorf("the turn resolved differs from its preview:\npreview %s\nresolved %s", events(pre), events(real))
	}
}

// TestRerun: RERUN of the last turn with nothing changed gives the same
// bytes and sends nothing; after a correction of its orders it voids the
// record, saves the new result as version 2, and mails corrected reports
// under new Message-IDs; a RERUN of another turn is refused.
func TestRerun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	id := h.send("eisenmark@pbem.localhost", "orders", marchSheet)
	if ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	st, _ := g.State(ctx)
	label := st.Calendar.Label(1)
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	if rep, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", isReport(label)); rep == "" {
		t.Fatal("no report")
	}
	first, _ := g.DB.LatestTurn(ctx, "syw")

	cmd := h.send("referee@pbem.localhost", "rerun", "PASSWORD "+refereePassword+"\nRERUN 1\nRERUN 2\n")
	ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "same result, byte for byte") || !strings.Contains(body(ack), "has not been resolved yet") {
		t.Errorf("the answer to RERUN with nothing changed:\n%s", body(ack))
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Version != 1 || len(reportRows(t, g, 1)) != 6 {
		t.Fatalf("a RERUN with nothing changed wrote version %d and %d reports", rec.Version, len(reportRows(t, g, 1)))
	}

	// The referee corrects Eisenmark's orders for turn 1: E1 stays home.
	js, err := encodeOrders([]engine.Order{engine.SetStance{Force: "E1", Stance: game.Defend}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.DB.SaveSubmission(ctx, store.Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: KindOrders,
		RawText: "correction", CanonicalText: "STANCE E1 DEFEND", Valid: true, SubmittedAt: time.Now(), Orders: js,
		Ruleset: g.Rules.ID, RulesVersion: g.rulesVersion()}); err != nil {
		t.Fatal(err)
	}
	cmd = h.send("referee@pbem.localhost", "rerun", "PASSWORD "+refereePassword+"\nRERUN 1\n")
	ack, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ack), "resolved again with a different result") {
		t.Fatalf("the answer to RERUN after a correction:\n%s", body(ack))
	}
	corrected, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "resolved again")
	})
	if strings.Contains(body(corrected), "CityCaptured") || !strings.Contains(body(corrected), "replaces the one") {
		t.Errorf("the corrected report:\n%s", body(corrected))
	}
	rec, _ := g.DB.LatestTurn(ctx, "syw")
	old, _ := g.DB.TurnVersion(ctx, "syw", 1, first.Version)
	if rec.Turn != 1 || rec.Version != 2 || rec.Status != store.TurnResolved || old.Status != store.TurnVoided {
		t.Errorf("after the rerun: latest turn %d v%d %s; the first %s", rec.Turn, rec.Version, rec.Status, old.Status)
	}
	h.settle()
	rows := reportRows(t, g, 1)
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.MessageID] = true
	}
	if len(rows) != 12 || len(ids) != 12 {
		t.Errorf("%d report rows with %d Message-IDs after the rerun, want 12 and 12", len(rows), len(ids))
	}
	if st, _ := g.State(ctx); st.Turn != 2 {
		t.Errorf("after the rerun turn %d is open, want 2", st.Turn)
	}
}

// TestStatus: the referee's status shows the open turn and its deadline,
// who has sent orders (receipt, time, FINAL) and who has not, pending
// requests with their tokens, and the mail queues.
func TestStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	token := h.sendRequest()
	id := h.send("morgronskia@pbem.localhost", "orders FINAL", "GAME syw\nNATION morgronskia\nPASSWORD demo-morgronskia\nTURN 1\nEND\n")
	if ack, _ := h.waitFor("morgronskia@pbem.localhost", "pw-morgronskia", replyTo(id)); ack == "" {
		t.Fatal("no acknowledgment")
	}
	h.settle()
	s, err := g.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := g.DB.LatestSubmission(context.Background(), "syw", 1, "eisenmark", KindOrders)
	text := s.Text(time.Now())
	for _, want := range []string{"Open: Turn 1", "Deadline: " + g.showTime(s.Deadline), "set by the schedule",
		"Eisenmark      receipt " + sub.ReceiptHash, "Morgronskia    receipt", "FINAL", "Hispardia      no orders yet",
		token + " eisenmark \"Bribe the governor of Dresna\" — PENDING", "Outbox: 0 waiting", "Mail in: 0 waiting"} {
		if !strings.Contains(text, want) {
			t.Errorf("the status lacks %q:\n%s", want, text)
		}
	}
}
