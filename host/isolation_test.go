package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/daemon"
)

// TestOneGameFailingLeavesTheOthers: on one host, delta's store is
// damaged, bravo's turn panics and alpha's turn hangs; vier is played all
// the while — its sheets answered and its turn resolved — bravo and delta
// are held with their referee told, and alpha resolves once it is let go.
func TestOneGameFailingLeavesTheOthers(t *testing.T) {
	t.Parallel()
	dir := newHostFolder(t, gameSpec{"alpha", "syw-1752"}, gameSpec{"bravo", "syw-1752"}, gameSpec{"delta", "syw-1752"}, gameSpec{"vier", "syw-v4"})
	createStores(t, dir)
	// delta's store: overwritten with junk, as a failing disk might leave it.
	db := filepath.Join(GameDir(dir, "delta"), "data", "pbem.db")
	if err := os.WriteFile(db, []byte(strings.Repeat("not a database ", 4096)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(db + suffix)
	}

	release := make(chan struct{})
	var h *Host
	clock := &testClock{}
	h = startHost(t, dir, clock, func(name string) *daemon.Options {
		switch name {
		case "bravo":
			return &daemon.Options{TurnMailer: func(daemon.TurnMail) (daemon.Mailed, error) {
				panic("a bug in bravo's reports")
			}}
		case "alpha":
			return &daemon.Options{TurnMailer: func(m daemon.TurnMail) (daemon.Mailed, error) {
				<-release // alpha's turn hangs until the test lets it go
				g, _ := h.Game("alpha")
				return g.ReportMail(m)
			}}
		}
		return nil
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	ms := h.Mail()
	ref, refPW := "referee@pbem.localhost", mailPassword(t, dir, "referee@pbem.localhost")
	status := func(name string) GameInfo {
		for _, g := range h.Games() {
			if g.Name == name {
				return g
			}
		}
		t.Fatalf("no game %s", name)
		return GameInfo{}
	}
	if st := status("delta"); st.Status != StatusHeld {
		t.Fatalf("delta with a damaged store: %s %q", st.Status, st.Err)
	}
	waitMail(t, ms.IMAPAddr(), ref, refPW, func(m string) bool { return strings.Contains(header(m, "Subject"), "game delta is held") })

	turns := map[string]int{}
	for _, name := range []string{"alpha", "bravo", "vier"} {
		g, ok := h.Game(name)
		if !ok {
			t.Fatalf("game %s is not served: %+v", name, status(name))
		}
		turns[name] = turnOf(t, g)
	}
	// Every deadline passes: alpha hangs in its turn, bravo panics in its.
	clock.Advance(29 * 24 * time.Hour)
	for name := range turns {
		g, _ := h.Game(name)
		g.WakeTurns()
	}
	vier, _ := h.Game("vier")
	waitUntil(t, "vier resolves its turn", func() bool { return turnOf(t, vier) > turns["vier"] })
	waitUntil(t, "bravo is held", func() bool { return status("bravo").Status == StatusHeld })
	if st := status("bravo"); !strings.Contains(st.Err, "a bug in bravo's reports") {
		t.Errorf("bravo is held for %q, not its panic", st.Err)
	}
	held := waitMail(t, ms.IMAPAddr(), ref, refPW, func(m string) bool { return strings.Contains(header(m, "Subject"), "game bravo is held") })
	if !strings.Contains(held, "pbem host start bravo") {
		t.Errorf("the referee's note does not say how to start bravo again:\n%s", held)
	}

	// While alpha's turn hangs, a sheet for vier's next turn is answered.
	from := "eisenmark@pbem.localhost"
	sheet := "GAME vier\nNATION eisenmark\nPASSWORD " + nationPassword(t, GameDir(dir, "vier"), "eisenmark") + "\nTURN " +
		itoa(turnOf(t, vier)) + "\nEND\n"
	id, err := post(ms.SMTPAddr(), from, mailPassword(t, dir, from), "orders@pbem.localhost", "orders", sheet)
	if err != nil {
		t.Fatal(err)
	}
	ack := waitMail(t, ms.IMAPAddr(), from, mailPassword(t, dir, from), answers(id))
	if !strings.Contains(header(ack, "From"), "orders+vier@") {
		t.Errorf("the sheet for vier was answered by %s", header(ack, "From"))
	}
	alpha, _ := h.Game("alpha")
	if turnOf(t, alpha) != turns["alpha"] {
		t.Fatal("alpha resolved while its turn was hanging")
	}
	close(release)
	waitUntil(t, "alpha resolves once let go", func() bool { return turnOf(t, alpha) > turns["alpha"] })
	if st := status("alpha"); st.Status != StatusRunning {
		t.Errorf("alpha after its slow turn: %s %q", st.Status, st.Err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
