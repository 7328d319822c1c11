package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The shared machinery on a Trossian game: the archive, PREVIEW, ROLLBACK,
// RERUN and RESET PASSWORD, driven as "pbem export", "pbem verify", "pbem
// preview", "pbem rollback", "pbem rerun" and "pbem password" drive them
// (the daemon's loops are not running; the mail path of the same commands
// is TestTrossianGameByMail's).

// trossianGame starts a Trossian game from the built-in scenario, without
// the daemon's loops.
func trossianGame(t *testing.T) *Game {
	t.Helper()
	d, _ := startTrossianDaemon(t, "scenarios/trossian")
	t.Cleanup(func() { d.Close() })
	return d.Game
}

// mailSheet hands the game a kingdom's order sheet as the intake would.
func mailSheet(t *testing.T, g *Game, uid uint32, nation string, turn int, orders ...string) {
	t.Helper()
	from := nation + "@pbem.localhost"
	raw := fmt.Sprintf("From: %s\nTo: orders@pbem.localhost\nSubject: orders\nMessage-ID: <sheet%d@pbem.localhost>\n\n%s",
		from, uid, trossianSheet(nation, turn, orders...))
	if err := g.HandleMail(context.Background(), storeMail(t, g, uid, from, raw, time.Now())); err != nil {
		t.Fatal(err)
	}
}

// referee runs referee commands written as in a mail ("pbem referee").
func referee(t *testing.T, g *Game, text string) []string {
	t.Helper()
	lines, ok, err := g.RunRefereeText(context.Background(), text)
	if err != nil || !ok {
		t.Fatalf("%q: %v\n%s", text, err, strings.Join(lines, "\n"))
	}
	return lines
}

const trossburgResult = "RESULT Trossburg\nOUTCOME win\nWINNER ostmark\nUNIT N1 line-infantry DESTROYED 2\nEND\n"

// playTrossian plays three turns: Norvale and Ostmark march on Trossburg
// (turn 1), fight there on the referee's table (turn 2, after a PREVIEW
// showing the battle's sheet while it waits), and a ruling gives Varn a courier
// (turn 3).
func playTrossian(t *testing.T, g *Game) {
	t.Helper()
	ctx := context.Background()
	mailSheet(t, g, 1, "norvale", 1, "MOVE N1 TO Trossburg", "ATTACK N1")
	mailSheet(t, g, 2, "ostmark", 1, "MOVE O1 TO Trossburg")
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := g.PreviewText(ctx)
	if err != nil || !strings.Contains(text, "Turn 2, Mid Spring 1801 cannot be resolved yet: it waits for the referee's result of the battle at Trossburg") ||
		!strings.Contains(text, "RESULT Trossburg") {
		t.Fatalf("PREVIEW of a turn waiting for its battle (%v):\n%s", err, text)
	}
	referee(t, g, trossburgResult)
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	referee(t, g, "RULE COURIERS varn +1")
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestTrossianArchiveVerifies: a Trossian game's archive, with a battle
// fought on the table, a ruling, and records voided by a rollback, verifies:
// every hash and link, every turn resolved again through the campaign seam
// to the same bytes. One byte changed fails with the line and turn; a
// forged tabletop result with every hash made again fails at its turn's
// re-resolution.
func TestTrossianArchiveVerifies(t *testing.T) {
	t.Parallel()
	g := trossianGame(t)
	g.TurnMailer = PlainTurnMail // the reports' PDFs are not in the archive
	ctx := context.Background()
	playTrossian(t, g)
	if _, err := g.Rollback(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Rerun(ctx, 3); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := g.Export(ctx, &buf)
	if err != nil || n != 4 {
		t.Fatalf("export: %d records, %v; want 4 (turns 0 to 3)", n, err)
	}
	arch := buf.Bytes()
	sum, err := VerifyArchive(bytes.NewReader(arch))
	if err != nil || sum.Resolved != 3 || sum.Records != 4 || sum.Ruleset != "trossian" || sum.Game != "tross" {
		t.Fatalf("verify: %+v, %v; want 3 Trossian turns resolved again", sum, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(arch), "\n"), "\n")
	for i, want := range []string{`"map":"map \"Trossia, 1801\"`, `"state":`, `"orders":[{"nation":"norvale"`, `"battles":[{"Province":"Trossburg"`, `"rulings":[`} {
		if !strings.Contains(strings.Join(lines[min(i, 3):], "\n"), want) {
			t.Errorf("the archive has no %s", want)
		}
	}

	// One byte of turn 2's record.
	i := strings.Index(lines[3], `"Turn":`)
	if i < 0 {
		t.Fatalf("turn 2's record has no state turn:\n%.300s", lines[3])
	}
	b := []byte(strings.Join(lines, "\n") + "\n")
	b[len(strings.Join(lines[:3], "\n"))+1+i+len(`"Turn":`)] ^= 0x01
	_, err = VerifyArchive(bytes.NewReader(b))
	var ae *ArchiveError
	if !errors.As(err, &ae) || ae.Line != 4 || ae.Turn != 2 || !strings.Contains(err.Error(), "line 4 (turn 2): the record's hash is") ||
		!strings.Contains(err.Error(), "the record was changed") {
		t.Errorf("one byte of turn 2 changed: %v", err)
	}

	// A forger gives Norvale a milder defeat and makes every hash again.
	forged := forge(t, lines, 3, func(rec map[string]json.RawMessage) {
		rec["battles"] = json.RawMessage(strings.Replace(string(rec["battles"]), `"Destroyed":2`, `"Destroyed":1`, 1))
	})
	_, err = VerifyArchive(bytes.NewReader(forged))
	if !errors.As(err, &ae) || ae.Turn != 2 || !strings.Contains(err.Error(), "resolved again, the ") {
		t.Errorf("a forged tabletop result of turn 2 with its chain made again: %v; want turn 2 to resolve otherwise", err)
	}

	// Under other rule tables the archive is refused, saying why.
	other := forgeHeader(t, lines, func(h map[string]json.RawMessage) { h["rules_version"] = json.RawMessage(`"0000000000000000"`) })
	if _, err = VerifyArchive(bytes.NewReader(other)); err == nil || !strings.Contains(err.Error(), "made under other tables of trossian") {
		t.Errorf("an archive of other tables: %v", err)
	}
}

// forgeHeader changes the header and makes every hash and link again.
func forgeHeader(t *testing.T, lines []string, edit func(map[string]json.RawMessage)) []byte {
	t.Helper()
	var l archiveLine
	if err := json.Unmarshal([]byte(lines[0]), &l); err != nil {
		t.Fatal(err)
	}
	var h map[string]json.RawMessage
	if err := json.Unmarshal(l.Header, &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	body, _ := json.Marshal(h)
	head, _ := json.Marshal(archiveLine{Hash: hashHex(body), Header: body})
	out := append([]string{string(head)}, lines[1:]...)
	return forge(t, out, 1, func(map[string]json.RawMessage) {})
}

// TestTrossianPreview: PREVIEW ("pbem preview") prints the Trossian turn
// open as it would resolve — the referee's report of it, with the turn's
// own dice — and saves and sends nothing.
func TestTrossianPreview(t *testing.T) {
	t.Parallel()
	g := trossianGame(t)
	ctx := context.Background()
	mailSheet(t, g, 1, "norvale", 1, "MOVE N1 TO Trossburg", "ATTACK N1")
	rows := len(allRows(t, g))
	text, err := g.PreviewText(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "PREVIEW of Turn 1, Early Spring 1801: nothing was saved or sent.") ||
		!strings.Contains(text, "Trossburg") || !strings.Contains(text, "No orders (NMR): carrowland, ostmark, selvenia, varn") {
		t.Fatalf("the preview:\n%s", text)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); rec.Turn != 0 {
		t.Fatalf("PREVIEW resolved turn 1")
	}
	if n := len(allRows(t, g)); n != rows {
		t.Errorf("PREVIEW queued %d mails", n-rows)
	}
	// The turn resolves as the preview said.
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	var report string
	for _, r := range allRows(t, g) {
		if r.Kind == MailRefereeReport {
			report = body(string(r.Raw))
		}
	}
	if pv := strings.SplitN(text, "\n\n", 2)[1]; !strings.Contains(report, strings.TrimSpace(pv)[:200]) {
		t.Errorf("the referee's report of turn 1 is not what the preview showed:\n%s\n---\n%s", pv, report)
	}
}

// TestTrossianRollbackRerun: ROLLBACK ("pbem rollback") sets Trossian
// turns aside and reopens the first; RERUN ("pbem rerun") with nothing
// changed restores the same bytes and sends nothing; a corrected tabletop
// RESULT after a rollback, then RERUN, resolves the battle again with it:
// the earlier result voided and corrected reports queued for every kingdom
// and the referee.
func TestTrossianRollbackRerun(t *testing.T) {
	t.Parallel()
	g := trossianGame(t)
	ctx := context.Background()
	// The three turns played first mail plain text (their area maps are
	// not the point); the corrected reports looked at below are the real
	// ones.
	g.TurnMailer = PlainTurnMail
	playTrossian(t, g)
	g.TurnMailer = nil
	t2, _ := g.DB.Turn(ctx, "tross", 2)
	t3, _ := g.DB.Turn(ctx, "tross", 3)

	line, err := g.Rerun(ctx, 1)
	if err != nil || !strings.Contains(line, "Turn 1, Early Spring 1801 resolves to the same result, byte for byte: nothing was changed or sent") {
		t.Fatalf("RERUN 1 with nothing changed: %q %v", line, err)
	}
	if _, err := g.Rerun(ctx, 5); !errors.Is(err, ErrNotResolved) {
		t.Errorf("RERUN 5 of a turn not resolved: %v", err)
	}
	rows := len(allRows(t, g))
	line, err = g.Rollback(ctx, 2)
	if err != nil || !strings.Contains(line, "Turn 2, Mid Spring 1801 is open again: 2 turn records set aside") {
		t.Fatalf("ROLLBACK 2: %q %v", line, err)
	}
	if cs, err := g.CampaignState(ctx); err != nil || cs.TurnLabel() != "Turn 2, Mid Spring 1801" {
		t.Fatalf("after ROLLBACK 2 the game stands at %v (%v)", cs, err)
	}
	for _, r := range []store.TurnRecord{t2, t3} {
		if v, _ := g.DB.TurnVersion(ctx, "tross", r.Turn, r.Version); v.Status != store.TurnVoided {
			t.Errorf("turn %d after the rollback is %s, want voided (kept)", r.Turn, v.Status)
		}
	}
	if due, _, _ := g.turnDue(ctx); due {
		t.Error("the reopened turn is due although the referee has not resolved it again")
	}
	line, err = g.Rerun(ctx, 2)
	if err != nil || !strings.Contains(line, "same result as before the rollback, byte for byte") {
		t.Fatalf("RERUN 2 after the rollback: %q %v", line, err)
	}
	if rec, _ := g.DB.LatestTurn(ctx, "tross"); rec.Turn != 2 || rec.Version != t2.Version || !sameResult(rec, t2) {
		t.Fatalf("after RERUN 2: turn %d v%d, want turn 2 v%d restored byte for byte", rec.Turn, rec.Version, t2.Version)
	}
	if n := len(allRows(t, g)); n != rows {
		t.Errorf("a rollback and a rerun with nothing changed queued %d mails", n-rows)
	}

	// The referee finds he misread the table: Norvale lost one stand, not two.
	if _, err := g.Rollback(ctx, 2); err != nil {
		t.Fatal(err)
	}
	lines := referee(t, g, strings.Replace(trossburgResult, "DESTROYED 2", "DESTROYED 1", 1))
	if !strings.Contains(lines[0], "The result of the battle at Trossburg is recorded in place of the one recorded before") {
		t.Errorf("a corrected RESULT after the rollback: %q", lines)
	}
	line, err = g.Rerun(ctx, 2)
	if err != nil || !strings.Contains(line, "Turn 2, Mid Spring 1801 resolved again with a different result") {
		t.Fatalf("RERUN 2 with the corrected result: %q %v", line, err)
	}
	rec, _ := g.DB.LatestTurn(ctx, "tross")
	if rec.Turn != 2 || rec.Version == t2.Version || sameResult(rec, t2) {
		t.Fatalf("after RERUN 2 with a correction: turn %d v%d, want a new version of turn 2", rec.Turn, rec.Version)
	}
	if v, _ := g.DB.TurnVersion(ctx, "tross", 2, t2.Version); v.Status != store.TurnVoided {
		t.Errorf("turn 2's first result is %s, want voided (kept)", v.Status)
	}
	corrected := map[string]bool{}
	for _, r := range allRows(t, g) {
		if subject := header(string(r.Raw), "Subject"); strings.Contains(subject, "Turn 2, Mid Spring 1801 resolved") &&
			strings.Contains(subject, "resolved again (correction)") {
			corrected[strings.Join(r.Recipients, ",")] = true
		}
	}
	if len(corrected) != 6 {
		t.Errorf("corrected reports of turn 2 went to %v, want the five kingdoms and the referee", corrected)
	}
	// The archive holds both results and verifies.
	var buf bytes.Buffer
	if _, err := g.Export(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if sum, err := VerifyArchive(&buf); err != nil || sum.Voided != 2 || sum.Resolved != 2 {
		t.Errorf("the archive after the correction: %+v %v", sum, err)
	}
}

// TestTrossianPasswordReset: "pbem password NATION NEW" (RESET PASSWORD)
// gives a Trossian kingdom a new order-sheet password from the open turn
// on; the kingdom is mailed it, a sheet with the new one is accepted and
// one with the old refused.
func TestTrossianPasswordReset(t *testing.T) {
	t.Parallel()
	g := trossianGame(t)
	ctx := context.Background()
	line, err := g.RunReferee(ctx, refcmd.PasswordReset{Nation: "norvale", Password: "frost-and-iron"}, 0)
	if err != nil || !strings.Contains(line, "Norvale's password is reset from Turn 1, Early Spring 1801 on") {
		t.Fatalf("RESET PASSWORD: %q %v", line, err)
	}
	var told string
	for _, r := range allRows(t, g) {
		if r.Kind == MailPasswordReset {
			told = strings.Join(r.Recipients, ",") + "\n" + body(string(r.Raw))
		}
	}
	if !strings.Contains(told, "norvale@pbem.localhost") || !strings.Contains(told, "PASSWORD frost-and-iron") ||
		!strings.Contains(told, "From Turn 1, Early Spring 1801 on") {
		t.Fatalf("Norvale's mail:\n%s", told)
	}
	if !g.VerifyPassword(ctx, "norvale", 1, "frost-and-iron") || g.VerifyPassword(ctx, "norvale", 1, "demo-norvale") {
		t.Fatal("the new password is not the one in force")
	}
	if _, err := g.RunReferee(ctx, refcmd.PasswordReset{Nation: "atlantis", Password: "frost-and-iron"}, 0); err == nil ||
		!strings.Contains(err.Error(), "atlantis is not a nation of this game") {
		t.Errorf("RESET PASSWORD of an unknown kingdom: %v", err)
	}
}

// TestTrossianStatusBeforeTheFirstTurn: "pbem status" on a Trossian game
// just made by "pbem new" (no "pbem run" yet, so no dice key) answers as an
// SYW game's does, rather than failing for want of the dice.
func TestTrossianStatusBeforeTheFirstTurn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := fmt.Sprintf(trossianConfig, "scenarios/trossian", imapWait)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte(text), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, err := Open(ctx, cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.Ensure(ctx); err != nil { // what "pbem new" does
		t.Fatal(err)
	}
	s, err := g.Status(ctx)
	if err != nil {
		t.Fatalf("status before the first turn: %v", err)
	}
	if s.Turn != 1 || len(s.Nations) != 5 {
		t.Errorf("status: turn %d, %d nations; want turn 1 and the 5 kingdoms", s.Turn, len(s.Nations))
	}
}
