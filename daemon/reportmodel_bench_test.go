package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/game"
)

// BenchmarkCarriedReports folds the five nations' reports of the demo's
// year from the archive, from the opening, as a daemon does once after a
// start (after that it folds one turn a turn): what rebuilding the reports
// instead of storing them costs.
func BenchmarkCarriedReports(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		b.Fatal(err)
	}
	unzipTB(b, "../store/testdata/schema8-demo.db.gz", filepath.Join(dir, "data", "pbem.db"))
	scen, _ := filepath.Abs("../scenarios/default")
	cfg, err := config.Parse([]byte(fmt.Sprintf(demoConfig, scen)), filepath.Join(dir, "config.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	g, err := Open(ctx, cfg, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	var ns []game.NationID
	for _, id := range cfg.NationIDs() {
		ns = append(ns, game.NationID(id))
	}
	b.ReportAllocs()
	for b.Loop() {
		g.folded.last = nil
		if _, err := g.carriedReports(ctx, 6, ns); err != nil {
			b.Fatal(err)
		}
	}
}
