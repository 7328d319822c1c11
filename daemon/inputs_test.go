package daemon

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// marchSheet is Eisenmark's sheet with orders that make events: a split, a
// march and stances.
const marchSheet = `GAME syw
NATION eisenmark
PASSWORD demo-eisenmark
TURN 1
SPLIT E1 AS E4 24 C infantry
GARRISON E4 Konigsfeld
MOVE E1 TO Dresna
STANCE E1 ATTACK
STANCE E2 DEFEND
END
`

// resolveWith resolves the game's open turn with the given orders and a
// fixed seed, and returns the events as JSON.
func resolveWith(t *testing.T, g *Game, orders []engine.Orders) []byte {
	t.Helper()
	st, err := g.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Resolve(engine.Input{Map: g.Map, Rules: g.Rules, State: st, Orders: orders, Seed: 1757})
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.MarshalEvents(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStoredOrdersOutliveTheParser: a checked sheet is stored as engine
// orders; after a restart with a parser that reads sheets differently, the
// stored orders are decoded, not parsed again, and resolve to the same
// events as before — while checking the sheet again would have given other
// orders.
func TestStoredOrdersOutliveTheParser(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	d, _ := startGame(t, dir, nil)
	g := d.Game
	raw := "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: o\nMessage-ID: <march@x>\n\n" + marchSheet
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", raw, time.Now())
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	sheets, err := g.SheetsInForce(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != 1 || sheets[0].Nation != "eisenmark" || len(sheets[0].List) != 5 {
		t.Fatalf("sheets in force: %+v, want Eisenmark's 5 orders", sheets)
	}
	before := resolveWith(t, g, sheets)
	if !bytes.Contains(before, []byte("E1")) {
		t.Fatalf("the orders made no events about E1: %s", before)
	}
	sub, err := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Ruleset != "syw-1752" || sub.RulesVersion != rulesVersion(ruleset.SYW1752()) || !bytes.HasPrefix(sub.Orders, []byte(`[{"kind":"split"`)) {
		t.Errorf("stored sheet: ruleset %q version %q orders %s", sub.Ruleset, sub.RulesVersion, sub.Orders)
	}
	d.Close()

	// The restart, with a parser that now drops every MOVE and reads
	// ATTACK as DEFEND.
	d, _ = startGame(t, dir, nil)
	defer d.Close()
	g = d.Game
	g.check = func(text string, cc parser.CheckContext) *parser.Report {
		return parser.Check(strings.NewReplacer("MOVE E1 TO Dresna\n", "", "ATTACK", "DEFEND").Replace(text), cc)
	}
	after, err := g.SheetsInForce(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := resolveWith(t, g, after); !bytes.Equal(got, before) {
		t.Errorf("the stored orders resolve differently after the restart:\nbefore %s\nafter  %s", before, got)
	}
	st, _ := g.State(ctx)
	again := g.check(marchSheet, parser.CheckContext{Map: g.Map, Rules: g.Rules, State: st, Game: "syw", Nation: "eisenmark",
		VerifyPassword: func(game.NationID, string) bool { return true }})
	if got := resolveWith(t, g, []engine.Orders{again.Orders}); bytes.Equal(got, before) {
		t.Error("the changed parser gives the same events: the test shows nothing")
	}
}

// TestRulesVersion: the version changes with any number in the tables.
func TestRulesVersion(t *testing.T) {
	t.Parallel()
	a := rulesVersion(ruleset.SYW1752())
	if a == "" || a != rulesVersion(ruleset.SYW1752()) {
		t.Fatalf("rulesVersion not stable: %q", a)
	}
	if a == rulesVersion(ruleset.SYWV4()) {
		t.Error("two editions have the same rules version")
	}
	changed := ruleset.SYW1752()
	changed.Fieldworks.MaxSections++
	if rulesVersion(changed) == a {
		t.Error("a changed table keeps the rules version")
	}
}

func TestMaskPasswords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"PASSWORD demo-eisenmark", "PASSWORD ****"},
		{"password: demo-eisenmark", "password: ****"},
		{"PASSWORD:demo-eisenmark TURN 1", "PASSWORD:**** TURN 1"},
		{"GAME syw NATION eisenmark PASSWORD s3cret TURN 1", "GAME syw NATION eisenmark PASSWORD **** TURN 1"},
		{"> PASSWORD demo-eisenmark", "> PASSWORD ****"},
		{">PASSWORD demo-eisenmark", ">PASSWORD ****"},
		{"PASSWORD CHANGE newpass", "PASSWORD CHANGE ****"},
		{"  Password   x", "  Password   ****"},
		{"my word is demo-eisenmark.", "my word is ****."},
		{"pw=demo-eisenmark", "pw=****"},
		{"PASSWORDS are secret", "PASSWORDS are secret"},
		{"MOVE E1 TO Dresna", "MOVE E1 TO Dresna"},
	} {
		if got := maskPasswords(c.in, "demo-eisenmark", "newpass", "s3cret"); got != c.want {
			t.Errorf("maskPasswords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNoStoredSheetTextHoldsAPassword: sheets with the password in the
// header (on its own line, run on with a colon, on one line with the other
// fields, quoted in a reply) and with a PASSWORD CHANGE are stored with
// every password masked, in every submission text.
func TestNoStoredSheetTextHoldsAPassword(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	sheets := []string{
		goodSheet,
		strings.Replace(goodSheet, "PASSWORD demo-eisenmark", "Password: demo-eisenmark", 1),
		"GAME syw NATION eisenmark PASSWORD demo-eisenmark TURN 1\nSTANCE E1 DEFEND\nREQUEST \"A word, demo-eisenmark\"\nEND\n",
		strings.ReplaceAll("> "+strings.ReplaceAll(goodSheet, "\n", "\n> "), "> -- ", "-- "),
		strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nPASSWORD CHANGE kronprinz-1740", 1),
	}
	for i, sh := range sheets {
		raw := "From: eisenmark@pbem.localhost\nTo: orders@pbem.localhost\nSubject: o\nMessage-ID: <pw" + string(rune('a'+i)) + "@x>\n\n" + sh
		m := storeMail(t, g, uint32(i+1), "eisenmark@pbem.localhost", raw, time.Now())
		if err := g.HandleMail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	subs, err := g.DB.Submissions(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	orders := 0
	for _, s := range subs {
		if s.Kind == KindOrders {
			orders++
		}
		for _, text := range []string{s.RawText, s.CanonicalText, string(s.Orders)} {
			for _, pw := range []string{"demo-eisenmark", "kronprinz-1740"} {
				if strings.Contains(text, pw) {
					t.Errorf("stored %s submission %d holds the password %q:\n%s", s.Kind, s.ID, pw, text)
				}
			}
		}
	}
	if orders != len(sheets) {
		t.Errorf("%d order sheets stored, want %d (each was accepted)", orders, len(sheets))
	}
}

// TestDeadlineStoredWhenTheGameOpens: turn 1 opens with the schedule's
// deadline, stored, and a restart keeps it.
func TestDeadlineStoredWhenTheGameOpens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	d, _ := startGame(t, dir, nil)
	dl, err := d.Game.DB.TurnDeadline(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	w := dl.At.In(d.Game.Zone)
	if dl.Source != store.DeadlineSchedule || w.Hour() != 18 || w.Minute() != 0 || dl.At.Before(time.Now().Add(27*24*time.Hour)) {
		t.Errorf("turn 1's deadline %v (%s), want 18:00 London some 28 days on, from the schedule", w, dl.Source)
	}
	d.Close()
	// A restart keeps it (it is not worked out again from the clock).
	d, _ = startGame(t, dir, nil)
	defer d.Close()
	again, err := d.Game.DB.TurnDeadline(ctx, "syw", 1)
	if err != nil || !again.At.Equal(dl.At) {
		t.Errorf("after a restart the deadline is %v (%v), want %v", again.At, err, dl.At)
	}
}

// deadlineLine returns the Deadline line of an acknowledgment.
func deadlineLine(ack string) string {
	for _, l := range strings.Split(body(ack), "\n") {
		if strings.HasPrefix(l, "Deadline:") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestDeadlineExtendTakesEffect: the referee's DEADLINE EXTEND moves the
// stored deadline (whole days keep the time of day), the referee is told the
// new one, and the next acknowledgment shows it; a DEADLINE SET in the past
// is refused and changes nothing.
func TestDeadlineExtendTakesEffect(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	ctx := context.Background()
	g := h.d.Game
	first := h.send("eisenmark@pbem.localhost", "orders", goodSheet)
	ack, _ := h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(first))
	old, err := g.DB.TurnDeadline(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Deadline: " + g.showTime(old.At); deadlineLine(ack) != want {
		t.Fatalf("first acknowledgment shows %q, want %q", deadlineLine(ack), want)
	}

	cmd := h.send("referee@pbem.localhost", "deadline", "PASSWORD "+refereePassword+"\nDEADLINE EXTEND 2d\nDEADLINE SET 2001-01-01 12:00\n")
	refAck, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	moved, err := g.DB.TurnDeadline(ctx, "syw", 1)
	if err != nil {
		t.Fatal(err)
	}
	w, ow := moved.At.In(g.Zone), old.At.In(g.Zone)
	if moved.Source != store.DeadlineReferee || w.YearDay() != ow.AddDate(0, 0, 2).YearDay() || w.Hour() != ow.Hour() || w.Minute() != ow.Minute() {
		t.Errorf("after DEADLINE EXTEND 2d the stored deadline is %v (%s), want 2 days after %v at the same time", w, moved.Source, ow)
	}
	for _, want := range []string{"is now " + g.showTime(moved.At), "was " + g.showTime(old.At), "2001", "REFUSED", "already past"} {
		if !strings.Contains(body(refAck), want) {
			t.Errorf("the referee's acknowledgment lacks %q:\n%s", want, body(refAck))
		}
	}

	// Every nation is told the new deadline at once.
	for _, n := range []string{"eisenmark", "fromande"} {
		notice, _ := h.waitFor(n+"@pbem.localhost", "pw-"+n, func(m string) bool {
			return strings.Contains(header(m, "Subject"), "new deadline")
		})
		if !strings.Contains(body(notice), "now due by "+g.showTime(moved.At)) {
			t.Errorf("%s was not told the new deadline:\n%s", n, body(notice))
		}
	}

	second := h.send("eisenmark@pbem.localhost", "orders v2", strings.Replace(goodSheet, "ATTACK", "DEFEND", 1))
	ack, _ = h.waitFor("eisenmark@pbem.localhost", "pw-eisenmark", replyTo(second))
	if want := "Deadline: " + g.showTime(moved.At); deadlineLine(ack) != want {
		t.Errorf("the acknowledgment after the extension shows %q, want %q", deadlineLine(ack), want)
	}
}

// TestRawMailPurgedAfterResolution: with keep_raw_days 0, the raw text of a
// handled sheet (with its PASSWORD line) is cleared once its turn is
// resolved, and mail that came after the resolution keeps its text; with
// -1 nothing is cleared.
func TestRawMailPurgedAfterResolution(t *testing.T) {
	t.Parallel()
	for _, keep := range []int{0, -1} {
		d, cfg := startGame(t, t.TempDir(), nil)
		cfg.Mail.KeepRawDays = keep
		g, ctx := d.Game, context.Background()
		t0 := time.Now().Add(-time.Hour)
		old := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("old@x", ""), t0)
		if err := g.HandleMail(ctx, old); err != nil {
			t.Fatal(err)
		}
		if _, err := g.DB.SaveTurn(ctx, store.TurnRecord{GameID: "syw", Turn: 1, Status: store.TurnResolved,
			State: []byte("{}"), ResolvedAt: t0.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		newer := storeMail(t, g, 2, "eisenmark@pbem.localhost", sheetMail("new@x", ""), t0.Add(2*time.Minute))
		g.DB.SetMailStatus(ctx, newer.ID, store.MailAcknowledged, ClassOrders, "")
		n, err := g.purgeRawMail(ctx)
		if err != nil {
			t.Fatal(err)
		}
		oldRaw, newRaw := string(mailRow(t, g, old.ID).Raw), string(mailRow(t, g, newer.ID).Raw)
		if keep == 0 && (n != 1 || strings.Contains(oldRaw, "demo-eisenmark") || !strings.Contains(newRaw, "demo-eisenmark")) {
			t.Errorf("keep 0: cleared %d; the resolved turn's mail holds %q; the next turn's %q", n, oldRaw, newRaw)
		}
		if keep == -1 && (n != 0 || !strings.Contains(oldRaw, "demo-eisenmark")) {
			t.Errorf("keep -1: cleared %d", n)
		}
		d.Close()
	}
}

// TestDeadlinesAcrossDST: across both daylight-saving changes of the
// game's zone, the schedule's deadlines and DEADLINE EXTEND by days keep the
// time of day; a listed date in the spring gap moves forward.
func TestDeadlinesAcrossDST(t *testing.T) {
	t.Parallel()
	lon, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip(err)
	}
	cfg := config.Default()
	cfg.Game.Deadline = config.Deadline{Time: "18:00", EveryDays: 14, Dates: []string{"2026-03-20", "2026-10-18 01:30"}}
	g := &Game{Config: cfg, Zone: lon}
	show := func(t time.Time) string { return t.In(lon).Format("2006-01-02 15:04 MST") }

	// Spring: 20 March (GMT), then every 14 days at 18:00, now BST.
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	first, _ := g.scheduled(time.Time{}, start)
	second, _ := g.scheduled(first, first)
	if show(first) != "2026-03-20 18:00 GMT" || show(second) != "2026-10-18 01:30 BST" {
		t.Errorf("listed dates: %s, %s", show(first), show(second))
	}
	third, _ := g.scheduled(second, second)
	if show(third) != "2026-11-01 18:00 GMT" {
		t.Errorf("14 days after 18 October 01:30 BST, across the autumn change: %s, want 2026-11-01 18:00 GMT", show(third))
	}
	cfg.Game.Deadline = config.Deadline{Time: "18:00", EveryDays: 14}
	if next, _ := g.scheduled(first, first); show(next) != "2026-04-03 18:00 BST" {
		t.Errorf("14 days after 20 March 18:00 GMT, across the spring change: %s", show(next))
	}

	for _, c := range []struct {
		from string
		by   time.Duration
		want string
	}{
		{"2026-03-27 18:00", 48 * time.Hour, "2026-03-29 18:00 BST"}, // spring: 47 hours pass
		{"2026-10-23 18:00", 48 * time.Hour, "2026-10-25 18:00 GMT"}, // autumn: 49 hours pass
		{"2026-03-28 18:00", 36 * time.Hour, "2026-03-30 06:00 BST"}, // a day (to 18:00 BST), then 12 elapsed hours
		{"2026-03-29 00:30", 24 * time.Hour, "2026-03-30 00:30 BST"},
	} {
		from, err := time.ParseInLocation("2006-01-02 15:04", c.from, lon)
		if err != nil {
			t.Fatal(err)
		}
		if got := show(g.extendDeadline(from, c.by)); got != c.want {
			t.Errorf("DEADLINE EXTEND %v from %s = %s, want %s", c.by, c.from, got, c.want)
		}
	}
}

// FuzzMaskPasswords: masking never panics, keeps the lines, and leaves no
// password of four or more characters in the text.
func FuzzMaskPasswords(f *testing.F) {
	f.Add("GAME syw\nPASSWORD demo-eisenmark\nTURN 1", "demo-eisenmark")
	f.Add("PASSWORD:x PASSWORD CHANGE y", "yyyy")
	f.Fuzz(func(t *testing.T, text, pw string) {
		got := maskPasswords(text, pw)
		if strings.Count(got, "\n") != strings.Count(text, "\n") {
			t.Errorf("lines changed: %q → %q", text, got)
		}
		if len(pw) >= 4 && !strings.Contains("****", pw) && strings.Contains(got, pw) {
			t.Errorf("password %q left in %q", pw, got)
		}
	})
}

// FuzzMaskCopyText: the masking of the copy kept in the processed mailbox
// never panics, keeps the lines, leaves nothing but **** after a PASSWORD
// keyword on any line, and no secret it found (of four or more characters,
// not itself part of the word PASSWORD) anywhere in the text.
func FuzzMaskCopyText(f *testing.F) {
	f.Add("GAME syw\nPASSWORD demo-eisenmark\nTURN 1\nmy password is demo-eisenmark\n")
	f.Add("PASSWORD:x\r\nPASSWORD CHANGE y-new-secret\r\nRESET PASSWORD eisenmark s3cr3t-new\r\n> PASSWORD quoted\n")
	f.Add("password\n:PASSWORD:\nPASSWORDPASSWORD x")
	g := &Game{Config: &config.Config{}}
	f.Fuzz(func(t *testing.T, text string) {
		secrets := g.secretsIn(text)
		got := maskCopyText(text, secrets)
		if strings.Count(got, "\n") != strings.Count(text, "\n") {
			t.Fatalf("lines changed: %q → %q", text, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if _, rest, ok := afterPasswordWord(line); ok {
				if r := strings.TrimSpace(strings.TrimSuffix(rest, "\r")); r != "" && r != "****" {
					t.Fatalf("line %q keeps %q after PASSWORD", line, r)
				}
			}
		}
		for _, s := range secrets {
			if len(s) >= 4 && !strings.Contains("****", s) && !strings.Contains(strings.ToUpper("PASSWORD:"), strings.ToUpper(s)) &&
				strings.Contains(got, s) {
				t.Fatalf("secret %q left in %q (from %q)", s, got, text)
			}
		}
	})
}
