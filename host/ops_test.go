package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/daemon"
)

// TestStopStartArchiveRemoveWhileOthersRun: on a running host, bravo is
// stopped (mail to it waits, alpha's is answered), started again (the
// waiting sheet answered), archived (its archive verifies) and removed,
// while alpha runs throughout.
func TestStopStartArchiveRemoveWhileOthersRun(t *testing.T) {
	t.Parallel()
	dir := newHostFolder(t, gameSpec{"alpha", "syw-1752"}, gameSpec{"bravo", "syw-1752"})
	h := startHost(t, dir, &testClock{}, nil)
	ms := h.Mail()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	status := func(name string) Status {
		for _, g := range h.Games() {
			if g.Name == name {
				return g.Status
			}
		}
		return ""
	}
	sheet := func(game string) string {
		g, ok := h.Game(game)
		turn := 1
		if ok {
			turn = turnOf(t, g)
		}
		return "GAME " + game + "\nNATION eisenmark\nPASSWORD " + nationPassword(t, GameDir(dir, game), "eisenmark") +
			"\nTURN " + itoa(turn) + "\nEND\n"
	}
	from := "eisenmark@pbem.localhost"
	pw := mailPassword(t, dir, from)
	sendAndWait := func(game string) {
		t.Helper()
		id, err := post(ms.SMTPAddr(), from, pw, "orders@pbem.localhost", "orders", sheet(game))
		if err != nil {
			t.Fatal(err)
		}
		waitMail(t, ms.IMAPAddr(), from, pw, answers(id))
	}

	if err := StopGame(dir, "bravo"); err != nil {
		t.Fatal(err)
	}
	if err := WaitStopped(ctx, dir, "bravo"); err != nil {
		t.Fatal(err)
	}
	if st := status("bravo"); st != StatusStopped {
		t.Fatalf("bravo after stop: %s", st)
	}
	if _, ok := h.Game("bravo"); ok {
		t.Error("a stopped game is still given out by Game")
	}
	waiting, err := post(ms.SMTPAddr(), from, pw, "orders@pbem.localhost", "orders", sheet("bravo"))
	if err != nil {
		t.Fatalf("a sheet for a stopped game is refused: %v", err)
	}
	sendAndWait("alpha")

	if err := StartGame(dir, "bravo"); err != nil {
		t.Fatal(err)
	}
	waitMail(t, ms.IMAPAddr(), from, pw, answers(waiting)) // answered once bravo runs again
	if st := status("bravo"); st != StatusRunning {
		t.Errorf("bravo after start: %s", st)
	}

	out, n, err := ArchiveGame(ctx, dir, "bravo")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := daemon.VerifyArchive(f)
	f.Close()
	if err != nil || sum.Records != n || sum.Game != "bravo" {
		t.Errorf("bravo's archive: %+v, %v (%d records written)", sum, err, n)
	}
	waitUntil(t, "the host sees bravo archived", func() bool { return status("bravo") == StatusArchived })
	sendAndWait("alpha")

	if err := RemoveGame(ctx, dir, "alpha"); err == nil || !strings.Contains(err.Error(), "is running") {
		t.Errorf("removing a running game: %v", err)
	}
	if err := RemoveGame(ctx, dir, "bravo"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the host drops bravo", func() bool { return status("bravo") == "" })

	// A game added while the host runs is started, its address routed.
	scen, _ := filepath.Abs("../scenarios/default")
	if _, err := AddGame(dir, "charlie", AddOptions{Scenario: scen}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the host starts charlie", func() bool { return status("charlie") == StatusRunning })
	sendAndWait("charlie")
	if _, err := os.Stat(ArchiveDir(dir, "bravo")); !os.IsNotExist(err) {
		t.Errorf("bravo's folder is still there: %v", err)
	}
	sendAndWait("alpha")
}
