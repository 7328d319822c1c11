package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTrossianGameOnHost: a Trossian game (added with --scenario trossian)
// served beside two SYW games: a kingdom's sheet to the host's one address
// is routed by its GAME line and answered from the game's address; the
// deadline passes in every game and each resolves its turn — the
// Trossian one through the campaign seam — with none held; then the
// Trossian game is archived while the others run, its archive written.
func TestTrossianGameOnHost(t *testing.T) {
	t.Parallel()
	dir := newHostFolder(t, gameSpec{"alpha", "syw-1752"}, gameSpec{"vier", "syw-v4"})
	if _, err := AddGame(dir, "tross", AddOptions{Scenario: "trossian"}); err != nil {
		t.Fatal(err)
	}
	createStores(t, dir)
	clock := &testClock{}
	h := startHost(t, dir, clock, nil)
	for _, gi := range h.Games() {
		if gi.Status != StatusRunning {
			t.Fatalf("game %s: %s %s", gi.Name, gi.Status, gi.Err)
		}
	}
	ms := h.Mail()
	from := "norvale@pbem.localhost"
	sheet := fmt.Sprintf("GAME tross\nNATION norvale\nPASSWORD %s\nTURN 1\nMOVE N1 TO Trossburg\nEND\n", nationPassword(t, GameDir(dir, "tross"), "norvale"))
	id, err := post(ms.SMTPAddr(), from, mailPassword(t, dir, from), "orders@pbem.localhost", "orders", sheet)
	if err != nil {
		t.Fatal(err)
	}
	ack := waitMail(t, ms.IMAPAddr(), from, mailPassword(t, dir, from), answers(id))
	if got := header(ack, "From"); !strings.Contains(got, "orders+tross@") || !strings.Contains(header(ack, "Subject"), "orders received, receipt") {
		t.Fatalf("Norvale's sheet answered from %q: %s", got, header(ack, "Subject"))
	}

	clock.Advance(29 * 24 * time.Hour)
	for _, name := range []string{"alpha", "vier", "tross"} {
		g, ok := h.Game(name)
		if !ok {
			t.Fatalf("game %s is not served", name)
		}
		g.WakeTurns()
		waitUntil(t, name+" resolves its turn", func() bool { return turnOf(t, g) > 1 })
	}
	for _, gi := range h.Games() {
		if gi.Status != StatusRunning {
			t.Errorf("after the turns, game %s: %s %s", gi.Name, gi.Status, gi.Err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	// Archived while the others run: its archive written, its folder moved.
	out, n, err := ArchiveGame(ctx, dir, "tross")
	if err != nil {
		t.Fatalf("archiving tross: %v", err)
	}
	if b, err := os.ReadFile(out); err != nil || len(b) == 0 || n < 2 {
		t.Errorf("tross's archive %s: %v, %d turn records", out, err, n)
	}
	if _, err := os.Stat(filepath.Join(ArchiveDir(dir, "tross"), "data", "pbem.db")); err != nil {
		t.Errorf("tross's store was not archived with its folder: %v", err)
	}
	if _, ok := h.Game("alpha"); !ok {
		t.Error("alpha stopped when tross was archived")
	}
}
