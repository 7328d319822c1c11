package daemon

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/killtest"
	"github.com/syw-pbem/pbem/store"
)

// The archive under SIGKILL: a child process exports a game of five turn
// records (ExportFile, what "pbem export --out" runs) over a good archive of
// the same game made three turns earlier, and is killed at a random instant,
// mostly while it resolves the turns again and writes. Every time, the file
// at the target path must be the good archive, untouched, or the complete
// new one, and "pbem verify" must accept it: a kill never leaves there a
// part of an archive (which verify takes for a complete but shorter game
// when the cut falls at a line's end: the test counts the temporary files
// left beside the target that are such parts).

const archiveHelperEnv = "PBEM_ARCHIVE_KILL_HELPER"

// archiveTarget is where the helper writes the archive, in its directory.
const archiveTarget = "game.archive"

// TestArchiveKillHelperProcess is the child: it exports the game in
// $PBEM_ARCHIVE_KILL_HELPER to game.archive there, and exits. It creates
// the file "opened" there once the game is open, when the export begins.
func TestArchiveKillHelperProcess(t *testing.T) {
	dir := os.Getenv(archiveHelperEnv)
	if dir == "" {
		t.Skip("the child process of TestExportSurvivesSIGKILL")
	}
	text, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(text, filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Open(context.Background(), cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := os.WriteFile(filepath.Join(dir, "opened"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ExportFile(context.Background(), filepath.Join(dir, archiveTarget)); err != nil {
		t.Fatal(err)
	}
}

// exportChild runs the helper on dir to its end and returns how long the
// export took (from the game open to the process's end).
func exportChild(t *testing.T, dir string) time.Duration {
	t.Helper()
	c := startHelper(t, "TestArchiveKillHelperProcess", archiveHelperEnv, dir)
	start := waitOpened(t, dir)
	if _, err := c.Wait(); err != nil {
		t.Fatalf("the export failed: %v", err)
	}
	return time.Since(start)
}

// waitOpened waits until the helper on dir has opened the game (and is
// about to export), and returns when it saw it.
func waitOpened(t *testing.T, dir string) time.Time {
	t.Helper()
	for start := time.Now(); time.Since(start) < waitLimit; time.Sleep(2 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "opened")); err == nil {
			os.Remove(filepath.Join(dir, "opened"))
			return time.Now()
		}
	}
	t.Fatal("the export helper did not open the game")
	return time.Time{}
}

// verifyFile runs VerifyArchive on a file, as "pbem verify" does.
func verifyFile(path string) (ArchiveSummary, error) {
	f, err := os.Open(path)
	if err != nil {
		return ArchiveSummary{}, err
	}
	defer f.Close()
	return VerifyArchive(f)
}

// TestExportSurvivesSIGKILL kills the export PBEM_KILL_POINTS times
// (default 4) at random instants and checks the file at the target path
// after each kill (see the top of the file).
func TestExportSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts the daemon and the export many times")
	}
	points := killtest.Points(4)
	template := turn1Template(t)
	// The good archive: the game after turn 1, two records.
	exportChild(t, template)
	good, err := os.ReadFile(filepath.Join(template, archiveTarget))
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := verifyFile(filepath.Join(template, archiveTarget)); err != nil || sum.Records != 2 {
		t.Fatalf("the archive after turn 1: %+v, %v", sum, err)
	}
	resolvePlain(t, template, 4)

	// An export never killed: the complete archive, and how long it takes.
	ref := t.TempDir()
	copyTree(t, template, ref)
	span := exportChild(t, ref)
	complete, err := os.ReadFile(filepath.Join(ref, archiveTarget))
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := verifyFile(filepath.Join(ref, archiveTarget)); err != nil || sum.Records != 5 {
		t.Fatalf("the archive after turn 4: %+v, %v", sum, err)
	}

	rng := killtest.Rand()
	var kept, replaced, other, leftovers, prefixes int
	for i := range points {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		copyTree(t, template, dir)
		target := filepath.Join(dir, archiveTarget)
		c := startHelper(t, "TestArchiveKillHelperProcess", archiveHelperEnv, dir)
		if i%10 != 0 { // now and then while it starts; mostly while it exports
			waitOpened(t, dir)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(span) + 1)))
		c.kill()
		got, err := os.ReadFile(target)
		if err != nil {
			t.Fatalf("kill %d: the good archive is gone: %v", i, err)
		}
		switch {
		case bytes.Equal(got, good):
			kept++
		case bytes.Equal(got, complete):
			replaced++
		default:
			other++
			sum, verr := verifyFile(target)
			t.Errorf("kill %d: the target holds %d bytes, neither the good archive (%d) nor the complete new one (%d); verify says %+v, %v",
				i, len(got), len(good), len(complete), sum, verr)
			continue
		}
		if _, err := verifyFile(target); err != nil {
			t.Errorf("kill %d: verify refuses the archive at the target: %v", i, err)
		}
		// What a kill leaves beside the target: a temporary file, which
		// is not the archive (a prefix of it cut at a line's end would
		// verify as a shorter game, which is why it is never renamed
		// into place unless complete).
		tmps, _ := filepath.Glob(filepath.Join(dir, "."+archiveTarget+".*.tmp"))
		for _, tmp := range tmps {
			leftovers++
			b, _ := os.ReadFile(tmp)
			if _, err := verifyFile(tmp); err == nil && !bytes.Equal(b, complete) {
				prefixes++
			}
		}
		for _, f := range mustGlob(t, dir, archiveTarget+"*") {
			if f != target {
				t.Errorf("kill %d: an unexpected file beside the archive: %s", i, f)
			}
		}
	}
	t.Logf("%d kills, an export takes %v from the game open to the process's end (an archive of %d bytes); at the target afterwards: "+
		"the good archive %d times, the complete new one %d times, anything else %d times; %d temporary files left "+
		"beside it, %d of them a part that verify would take for a shorter game",
		points, span, len(complete), kept, replaced, other, leftovers, prefixes)
}

// resolvePlain resolves the game in dir up to turn upto in this process,
// its mails plain text and left queued (no daemon runs to send them): the
// export reads the turn records alone.
func resolvePlain(t *testing.T, dir string, upto int) {
	t.Helper()
	path := filepath.Join(dir, "config.yaml")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(text, path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, err := Open(ctx, cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), TurnMailer: PlainTurnMail})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for {
		st, err := g.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Turn > upto {
			return
		}
		if err := g.ResolveTurn(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func mustGlob(t *testing.T, dir, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExportFileFailureKeepsArchive: an export that fails (here a turn
// whose stored inputs changed after it was resolved) leaves the archive at
// the target as it was, and no temporary file. (pbem export --out used to
// truncate the target first and delete it on an error.)
func TestExportFileFailureKeepsArchive(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g := d.Game
	ctx := context.Background()
	if err := g.ResolveTurn(ctx); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "game.archive")
	if n, err := g.ExportFile(ctx, target); err != nil || n != 2 {
		t.Fatalf("export: %d records, %v; want 2", n, err)
	}
	good, _ := os.ReadFile(target)
	if _, err := verifyFile(target); err != nil {
		t.Fatalf("verify: %v", err)
	}
	js, err := encodeOrders([]engine.Order{engine.SetStance{Force: "E1", Stance: game.Attack}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.DB.SaveSubmission(ctx, store.Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: KindOrders,
		RawText: "correction", CanonicalText: "STANCE E1 ATTACK", Valid: true, SubmittedAt: time.Now(), Orders: js,
		Ruleset: g.Rules.ID, RulesVersion: g.rulesVersion()}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.ExportFile(ctx, target); err == nil || !strings.Contains(err.Error(), "RERUN 1 first") {
		t.Fatalf("export after turn 1's inputs changed: %v, want the error naming RERUN 1", err)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, good) {
		t.Errorf("the failed export changed the archive at the target (%d bytes, was %d)", len(got), len(good))
	}
	if left := mustGlob(t, dir, ".game.archive.*"); len(left) != 0 {
		t.Errorf("the failed export left %v", left)
	}
}
