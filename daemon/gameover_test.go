package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// wonGame starts a game, has Eisenmark take Dresna in turn 1 (a tax base of
// 1800 against everyone else's 1600) and resolves the first game-year to
// its year-end, turn 7, with the victory tax base lowered to 1800 so that
// the year-end declares Eisenmark the winner (a year of campaigning to
// 4800 would take far longer). It returns the game with the winning turn
// resolved.
func wonGame(t *testing.T, edit func(string) string) *Game {
	t.Helper()
	d, _ := startGame(t, t.TempDir(), edit)
	t.Cleanup(func() { d.Close() })
	g := d.Game
	g.TurnMailer = PlainTurnMail // the reports' PDFs are not the point here
	g.Rules.Taxes.VictoryTaxBase = 1800
	ctx := context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost",
		"From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: o\nMessage-ID: <march@x>\n\n"+marchSheet, time.Now())
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	for range 7 {
		if err := g.ResolveTurn(ctx); err != nil {
			t.Fatal(err)
		}
	}
	st, err := g.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Turn != 8 || st.Victory == nil || fmt.Sprint(st.Victory.Winners) != "[eisenmark]" {
		t.Fatalf("after the year-end 1752: turn %d open, victory %+v; want turn 8 and Eisenmark the winner", st.Turn, st.Victory)
	}
	return g
}

// mailFrom stores a mail from an address of the test game and handles it;
// it returns the mail's row and the outbox rows it queued.
func mailFrom(t *testing.T, g *Game, uid uint32, from, text string) (store.Mail, []store.OutboxMessage) {
	t.Helper()
	before := map[int64]bool{}
	for _, r := range allRows(t, g) {
		before[r.ID] = true
	}
	m := storeMail(t, g, uid, from, fmt.Sprintf("From: %s\nTo: orders@pbem.localhost\nSubject: mail %d\nMessage-ID: <m%d@x>\n\n%s",
		from, uid, uid, text), time.Now())
	if err := g.HandleMail(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	var out []store.OutboxMessage
	for _, r := range allRows(t, g) {
		if !before[r.ID] {
			out = append(out, r)
		}
	}
	return mailRow(t, g, m.ID), out
}

// rowTo returns the text of the one outbox row to addr among rows.
func rowTo(t *testing.T, rows []store.OutboxMessage, addr string) (subject, text string) {
	t.Helper()
	var found []store.OutboxMessage
	for _, r := range rows {
		if strings.Contains(strings.Join(r.Recipients, ","), addr) {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d mails to %s, want 1", len(found), addr)
	}
	return header(string(found[0].Raw), "Subject"), body(string(found[0].Raw))
}

// TestGameOverAfterVictory: once a year-end has declared a winner the game
// is over. The winning turn opens no next turn: no deadline, nothing due,
// no reminders (even with a deadline left in the store), "pbem resolve"
// refused with what the referee can do instead. The reports and the victory
// mail say so. A player's sheet (with a request on it) is answered with the
// result and not checked; nothing is recorded and nothing forwarded. The
// referee's RESOLVE NOW and DEADLINE are refused; the status says who won.
func TestGameOverAfterVictory(t *testing.T) {
	t.Parallel()
	g := wonGame(t, nil)
	ctx := context.Background()
	result := "Eisenmark won the campaign at the year-end 1752 (turn 7) with a tax base of 1800."

	if _, err := g.DB.TurnDeadline(ctx, "syw", 8); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the turn after the victory has a deadline (%v); want none", err)
	}
	var victory, report string
	for _, r := range reportRows(t, g, 7) {
		if strings.Contains(strings.Join(r.Recipients, ","), "morgronskia") {
			report = body(string(r.Raw))
		}
	}
	for _, r := range allRows(t, g) {
		if r.Kind == MailVictory && strings.Contains(strings.Join(r.Recipients, ","), "morgronskia") {
			victory = body(string(r.Raw))
		}
	}
	if !strings.Contains(report, "The game is over: "+result) || strings.Contains(report, "TURN 8") {
		t.Errorf("Morgronskia's report of the winning turn does not say the game is over:\n%s", report)
	}
	if !strings.Contains(victory, "The game is over: no more turns are resolved") {
		t.Errorf("the victory mail does not say the game is over:\n%s", victory)
	}

	// A deadline for turn 8 left in the store (an older pbem, a hand edit)
	// changes nothing: nothing is due, no reminders go out.
	if err := g.DB.SetDeadline(ctx, "syw", 8, time.Now().Add(time.Hour), 0); err != nil {
		t.Fatal(err)
	}
	if due, at, err := g.turnDue(ctx); due || !at.IsZero() || err != nil {
		t.Errorf("after the victory turnDue = %v, %v, %v; want nothing due and no time to wake", due, at, err)
	}
	if at, err := g.remind(ctx); !at.IsZero() || err != nil {
		t.Errorf("after the victory remind = %v, %v; want nothing", at, err)
	}
	for _, r := range allRows(t, g) {
		if r.Kind == MailReminder {
			t.Errorf("a reminder after the victory: %s", header(string(r.Raw), "Subject"))
		}
	}
	var over *GameOverError
	if err := g.ResolveTurn(ctx); !errors.As(err, &over) || !strings.Contains(err.Error(), "ROLLBACK 7") {
		t.Errorf("pbem resolve after the victory: %v; want the game over, and ROLLBACK 7 offered", err)
	}
	if _, err := g.PreviewText(ctx); !errors.As(err, &over) {
		t.Errorf("pbem preview after the victory: %v; want the game over", err)
	}

	// A player's sheet: answered with the result, nothing recorded.
	sheet := "GAME syw\nNATION morgronskia\nPASSWORD demo-morgronskia\nTURN 8\nSTANCE M1 ATTACK\nREQUEST \"Bribe the governor of Dresna\"\nEND\n"
	row, msgs := mailFrom(t, g, 2, "morgronskia@pbem.localhost", sheet)
	if row.Classification != ClassGameOver || row.Status != store.MailAcknowledged {
		t.Errorf("the sheet after the victory is %s/%s, want %s, acknowledged", row.Status, row.Classification, ClassGameOver)
	}
	if len(msgs) != 1 {
		t.Fatalf("%d mails queued for a sheet after the victory, want 1 (the answer; no request forwarded)", len(msgs))
	}
	subject, text := rowTo(t, msgs, "morgronskia@pbem.localhost")
	for _, want := range []string{"THE GAME IS OVER. " + result, "No more orders are taken", "nothing on it", "Eisenmark      1800",
		"victory tax base of 1800", "referee@pbem.localhost"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer to a sheet after the victory lacks %q:\n%s", want, text)
		}
	}
	if want := "[syw] Morgronskia: the game is over, Eisenmark won in 1752; no orders taken"; subject != want {
		t.Errorf("subject %q, want %q", subject, want)
	}
	if subs, _ := g.DB.Submissions(ctx, "syw", 8); len(subs) != 0 {
		t.Errorf("%d submissions recorded for turn 8 after the victory, want none", len(subs))
	}

	// The referee's RESOLVE NOW and DEADLINE are refused, saying what to do.
	row, msgs = mailFrom(t, g, 3, "referee@pbem.localhost", "PASSWORD "+refereePassword+"\nRESOLVE NOW\nDEADLINE EXTEND 2d\n")
	_, text = rowTo(t, msgs, "referee@pbem.localhost")
	if n := strings.Count(text, "REFUSED: the game is over: "+strings.TrimSuffix(result, ".")); n != 2 || !strings.Contains(text, "ROLLBACK 7") {
		t.Errorf("the answer to RESOLVE NOW and DEADLINE after the victory (%d refusals):\n%s", n, text)
	}
	if len(msgs) != 1 {
		t.Errorf("%d mails for the referee's refused commands, want the one answer (no deadline notices)", len(msgs))
	}
	if subs, _ := g.DB.Submissions(ctx, "syw", 8); len(subs) != 0 {
		t.Errorf("%d submissions recorded for turn 8 after refused commands, want none", len(subs))
	}

	s, err := g.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Text(time.Now())
	if !strings.Contains(st, "GAME OVER: "+result) || !strings.Contains(st, "ROLLBACK 7") || strings.Contains(st, "Open:") ||
		strings.Contains(st, "Deadline:") || !strings.Contains(st, "Outbox:") {
		t.Errorf("the status after the victory:\n%s", st)
	}
}

// TestRollbackOfVictoryReopensTheGame: the referee's ROLLBACK of the winning
// turn opens it again: the status shows it open, a sheet for it is checked
// and recorded as usual, and RESOLVE NOW is taken. RERUN of the turn after
// the victory is refused while the game is over.
func TestRollbackOfVictoryReopensTheGame(t *testing.T) {
	t.Parallel()
	g := wonGame(t, nil)
	ctx := context.Background()
	_, msgs := mailFrom(t, g, 2, "referee@pbem.localhost", "PASSWORD "+refereePassword+"\nRERUN 8\n")
	if _, text := rowTo(t, msgs, "referee@pbem.localhost"); !strings.Contains(text, "REFUSED: the game is over") {
		t.Errorf("the answer to RERUN 8 after the victory:\n%s", text)
	}
	_, msgs = mailFrom(t, g, 3, "referee@pbem.localhost", "PASSWORD "+refereePassword+"\nROLLBACK 7\n")
	if _, text := rowTo(t, msgs, "referee@pbem.localhost"); !strings.Contains(text, "year-end 1752 is open again") {
		t.Fatalf("the answer to ROLLBACK 7:\n%s", text)
	}
	st, err := g.State(ctx)
	if err != nil || st.Turn != 7 || st.Victory != nil {
		t.Fatalf("after ROLLBACK 7: turn %d open, victory %+v, %v; want turn 7 and no victory", st.Turn, st.Victory, err)
	}
	s, err := g.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if text := s.Text(time.Now()); strings.Contains(text, "GAME OVER") || !strings.Contains(text, "Open: Turn 7, year-end 1752") {
		t.Errorf("the status after ROLLBACK 7:\n%s", text)
	}
	row, msgs := mailFrom(t, g, 4, "morgronskia@pbem.localhost", "GAME syw\nNATION morgronskia\nPASSWORD demo-morgronskia\nTURN 7\nEND\n")
	if row.Classification != ClassOrders {
		t.Errorf("a sheet for the reopened winning turn is %s, want %s", row.Classification, ClassOrders)
	}
	if subject, _ := rowTo(t, msgs, "morgronskia@pbem.localhost"); !strings.Contains(subject, "orders received") {
		t.Errorf("the answer to a sheet for the reopened turn: %s", subject)
	}
	_, msgs = mailFrom(t, g, 5, "referee@pbem.localhost", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	if _, text := rowTo(t, msgs, "referee@pbem.localhost"); !strings.Contains(text, "will be resolved now") {
		t.Errorf("the answer to RESOLVE NOW after the rollback:\n%s", text)
	}
	if due, _, err := g.turnDue(ctx); !due || err != nil {
		t.Errorf("after ROLLBACK 7 and RESOLVE NOW turn 7 is not due (%v)", err)
	}
}

// TestPlayOnAfterVictory: with game.after_victory play-on the victory is
// announced as one the game goes on past: the next turn opens with its
// deadline, sheets are checked and recorded, the turn is resolved, and the
// status names the winner above the open turn.
func TestPlayOnAfterVictory(t *testing.T) {
	t.Parallel()
	g := wonGame(t, func(s string) string {
		return strings.Replace(s, "  timezone: Europe/London\n", "  timezone: Europe/London\n  after_victory: play-on\n", 1)
	})
	ctx := context.Background()
	if _, err := g.DB.TurnDeadline(ctx, "syw", 8); err != nil {
		t.Errorf("playing on, turn 8 has no deadline: %v", err)
	}
	for _, r := range allRows(t, g) {
		if r.Kind == MailVictory && !strings.Contains(body(string(r.Raw)), "plays on past the victory") {
			t.Errorf("the victory mail when playing on:\n%s", body(string(r.Raw)))
			break
		}
	}
	row, msgs := mailFrom(t, g, 2, "morgronskia@pbem.localhost", "GAME syw\nNATION morgronskia\nPASSWORD demo-morgronskia\nTURN 8\nEND\n")
	if row.Classification != ClassOrders {
		t.Errorf("playing on, a sheet for turn 8 is %s, want %s", row.Classification, ClassOrders)
	}
	if subject, _ := rowTo(t, msgs, "morgronskia@pbem.localhost"); !strings.Contains(subject, "orders received") {
		t.Errorf("playing on, the answer to a sheet: %s", subject)
	}
	s, err := g.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if text := s.Text(time.Now()); !strings.Contains(text, "Won: Eisenmark won the campaign at the year-end 1752 (turn 7)") ||
		!strings.Contains(text, "Open: Turn 8") || strings.Contains(text, "GAME OVER") {
		t.Errorf("the status when playing on:\n%s", text)
	}
	if err := g.DB.SetDeadline(ctx, "syw", 8, time.Now().Add(-time.Second), 0); err != nil {
		t.Fatal(err)
	}
	if due, _, err := g.turnDue(ctx); !due || err != nil {
		t.Errorf("playing on, turn 8 is not due at its deadline (%v)", err)
	}
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatalf("playing on, turn 8 cannot be resolved: %v", err)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 8 {
		t.Errorf("playing on, the latest turn is %d, want 8", rec.Turn)
	}
}
