package console

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/daemon"
)

// The desk of a Trossian game (seed 004: the campaign played through the
// daemon's seam, with no hex map and no SYW rules): what applies to it is
// shown and done, nothing panics on what it lacks.

const trossianConfig = `
data_dir: data
log_level: warn
game:
  id: tross
  name: Trossian Console Game
  ruleset: trossian
  scenario: scenarios/trossian
  referee: referee@pbem.localhost
  referee_password: {password: %s}
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  nations:
    norvale: {addresses: [norvale@pbem.localhost], password: demo-norvale}
    ostmark: {addresses: [ostmark@pbem.localhost], password: demo-ostmark}
    varn: {addresses: [varn@pbem.localhost], password: demo-varn}
    carrowland: {addresses: [carrowland@pbem.localhost], password: demo-carrowland}
    selvenia: {addresses: [selvenia@pbem.localhost], password: demo-selvenia}
mail:
  mode: embedded
  address: orders@pbem.localhost
  embedded:
    domain: pbem.localhost
    imap_listen: 127.0.0.1:0
    smtp_listen: 127.0.0.1:0
    accounts:
      - {user: orders@pbem.localhost, password: pw-orders}
      - {user: referee@pbem.localhost, password: pw-referee}
      - {user: norvale@pbem.localhost, password: pw-norvale}
      - {user: ostmark@pbem.localhost, password: pw-ostmark}
      - {user: varn@pbem.localhost, password: pw-varn}
      - {user: carrowland@pbem.localhost, password: pw-carrowland}
      - {user: selvenia@pbem.localhost, password: pw-selvenia}
  imap:
    idle: true
    poll_interval: 1s
`

// startTrossianGame runs a Trossian game (the built-in scenario) as "pbem
// run" does.
func startTrossianGame(t testing.TB) *liveGame {
	return startLiveGameWith(t, func(string) string { return fmt.Sprintf(trossianConfig, liveRefereePassword) })
}

// trossianSheet is a kingdom's sheet for a turn.
func trossianSheet(nation string, turn int, orders ...string) string {
	return fmt.Sprintf("GAME tross\nNATION %s\nPASSWORD demo-%s\nTURN %d\n%s\nEND\n", nation, nation, turn, strings.Join(orders, "\n"))
}

// TestTrossianDesk: a Trossian game's desk shows the open turn on the
// campaign's calendar and its deadline, each kingdom's sheet as the
// campaign's checker read it, the rulings of the turn; offers the commands
// the game takes (a RULE recorded from the desk, the deadline extended, the
// turn previewed, resolved and rolled back) and not those it does not
// (requests, treaties, the SYW battle model), saying why; serves the
// campaign's reports; and a battle that waits for the table shows its
// sheet, answered from the desk with its RESULT block.
func TestTrossianDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("a live game: not under -short")
	}
	t.Parallel()
	l := startTrossianGame(t)
	r := newRigFor(t, New(Single(l.d.Game), nil))
	if resp, body := r.get("/g/tross/login"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the sign-in page: %s\n%s", resp.Status, body)
	}
	_, page := r.get("/g/tross/login")
	if resp, body := r.post("/g/tross/login", url.Values{"csrf": {r.csrf(page)}, "password": {liveRefereePassword}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %s\n%s", resp.Status, body)
	}

	l.send("norvale@pbem.localhost", "orders", trossianSheet("norvale", 1, "MOVE N1 TO Trossburg", "ATTACK N1"))
	l.send("ostmark@pbem.localhost", "orders", trossianSheet("ostmark", 1, "MOVE O1 TO Trossburg"))
	l.send("carrowland@pbem.localhost", "orders", trossianSheet("carrowland", 1, "MOVE C1 TO Nowhere"))
	v := l.waitDesk("three sheets", func(v *daemon.DeskView) bool {
		return v.Sheets[0].Receipt != "" && v.Sheets[1].Receipt != "" && v.Sheets[2].Receipt != ""
	})
	// Each sheet as the campaign's checker reads it again: Carrowland's
	// mistake by its line, Norvale's clean (no password to check again).
	if p := v.Sheets[0].Problems; len(p) == 0 || !strings.HasPrefix(p[0], "line 5: error:") {
		t.Errorf("Carrowland's sheet's problems on the desk: %q", p)
	}
	if p := v.Sheets[1].Problems; len(p) > 0 {
		t.Errorf("Norvale's good sheet shows problems: %q", p)
	}
	resp, desk := r.get("/g/tross/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the desk: %s\n%s", resp.Status, desk)
	}
	for _, want := range []string{"Turn 1, Early Spring 1801", "countdown", `id="sheet-norvale"`, "MOVE N1 TO Trossburg", "Rulings for this turn",
		`action="/g/tross/act/rule"`, `action="/g/tross/act/extend"`, `action="/g/tross/act/resolve"`, "Commands this game does not take",
		"campaign&#39;s games do not take this command"} {
		if !strings.Contains(desk, want) {
			t.Errorf("the desk lacks %q", want)
		}
	}
	for _, not := range []string{"Requests and SPECIALs", `id="treaties"`, `id="result-box"`, "act/table", "mapimg/"} {
		if strings.Contains(desk, not) {
			t.Errorf("the desk offers %q, which a Trossian game does not take", not)
		}
	}

	// A ruling and a longer deadline from the desk, through the registry.
	act := func(action string, form url.Values) string {
		t.Helper()
		_, page := r.get("/g/tross/")
		form.Set("csrf", r.csrf(page))
		if resp, body := r.post("/g/tross/act/"+action, form); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: %s\n%s", action, resp.Status, body)
		}
		_, page = r.get("/g/tross/")
		return page
	}
	if page := act("rule", url.Values{"turn": {"1"}, "ruling": {"COURIERS varn +1"}}); !strings.Contains(page, "recorded for Turn 1, Early Spring 1801") ||
		!strings.Contains(page, "<code>RULE COURIERS varn &#43;1</code>") {
		t.Fatalf("the ruling from the desk:\n%s", page)
	}
	before := l.waitDesk("the deadline", func(*daemon.DeskView) bool { return true }).Deadline
	act("extend", url.Values{"turn": {"1"}, "duration": {"2d"}})
	if v := l.waitDesk("the deadline", func(*daemon.DeskView) bool { return true }); !v.Deadline.After(before) {
		t.Errorf("the deadline extended from the desk: %v, was %v", v.Deadline, before)
	}

	// The reports of the opening: the campaign's PDFs; no image of its map,
	// said plainly rather than failed.
	for path, want := range map[string]int{"/g/tross/report/0/referee.pdf": 200, "/g/tross/report/0/norvale.pdf": 200, "/g/tross/report/0/map.pdf": 200,
		"/g/tross/report/0/eisenmark.pdf": 404, "/g/tross/report/9/referee.pdf": 404, "/g/tross/mapimg/0/referee.svg": 404,
		"/g/tross/reports?turn=0&nation=norvale": 200, "/g/tross/preview": 200, "/g/tross/archive": 200} {
		resp, body := r.get(path)
		if resp.StatusCode != want || want == 200 && strings.HasSuffix(path, ".pdf") && !strings.HasPrefix(body, "%PDF") {
			t.Errorf("GET %s: %s, want %d\n%.200s", path, resp.Status, want, body)
		}
	}
	if _, body := r.get("/g/tross/preview"); !strings.Contains(body, `id="preview"`) || strings.Contains(body, `class="error"`) {
		t.Errorf("the preview of a Trossian turn:\n%s", body)
	}

	// Turn 1 resolved from the desk; turn 2 stops at a battle at Trossburg.
	act("resolve", url.Values{"turn": {"1"}})
	l.waitDesk("turn 1 resolved", func(v *daemon.DeskView) bool { return v.LastTurn == 1 })
	act("resolve", url.Values{"turn": {"2"}})
	v = l.waitDesk("the battle at Trossburg", func(v *daemon.DeskView) bool { return len(v.Battles) == 1 && v.Battles[0].Answer != "" })
	if b := v.Battles[0]; b.Hex != "Trossburg" || !strings.Contains(b.Sheet, "Trossburg") || !strings.HasPrefix(b.Answer, "RESULT Trossburg") {
		t.Fatalf("the battle on the desk: %+v", b)
	}
	if _, page := r.get("/g/tross/"); !strings.Contains(page, "RESULT Trossburg") || !strings.Contains(page, "PENDING") {
		t.Fatalf("the desk does not show the battle waiting:\n%s", page)
	}
	page = act("commands", url.Values{"text": {"RESULT Trossburg\nOUTCOME win\nWINNER ostmark\nUNIT N1 line-infantry DESTROYED 2\nEND\n"}})
	if !strings.Contains(page, "recorded") {
		t.Fatalf("the result from the desk:\n%s", page)
	}
	l.waitDesk("turn 2 resolved with the result", func(v *daemon.DeskView) bool { return v.LastTurn == 2 })
	if resp, body := r.get("/g/tross/report/2/ostmark.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("Ostmark's report of turn 2: %s", resp.Status)
	}

	// A kingdom's own page: its reports, no map image to fail.
	n := newRigFor(t, r.console)
	_, page = n.get("/g/tross/nation/login")
	if resp, body := n.post("/g/tross/nation/login", url.Values{"csrf": {n.csrf(page)}, "nation": {"norvale"}, "password": {"demo-norvale"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("Norvale's sign-in: %s\n%s", resp.Status, body)
	}
	if resp, body := n.get("/g/tross/nation/"); resp.StatusCode != http.StatusOK || strings.Contains(body, ".svg") || !strings.Contains(body, "/nation/report/2.pdf") {
		t.Errorf("Norvale's page: %s\n%s", resp.Status, body)
	}
	if resp, body := n.get("/g/tross/nation/report/2.pdf"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(body, "%PDF") {
		t.Errorf("Norvale's report of turn 2: %s", resp.Status)
	}

	// Rolled back from the desk, after its confirmation: turn 2 open again.
	if page := act("rollback", url.Values{"turn": {"3"}, "target": {"2"}, "confirm": {"yes"}}); !strings.Contains(page, "ROLLBACK 2") {
		t.Fatalf("the rollback from the desk:\n%s", page)
	}
	l.waitDesk("turn 2 open again", func(v *daemon.DeskView) bool { return v.Turn == 2 && v.LastTurn == 1 })
}
