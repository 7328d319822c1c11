package engine_test

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
)

var (
	updateGenHashes = flag.Bool("genhashes.update", false, "rewrite testdata/genhashes.txt from this engine's results")
	bigGenHashes    = flag.Bool("genhashes.big", false, "also resolve the 16k- and 64k-force generated games (seconds each)")
)

// genSize is one generated game of the hash file and of BenchmarkResolveGrowth.
type genSize struct {
	name               string
	seed               uint64
	side, nations, per int
	growth             bool // enginegen.Growth(seed, per); side is its map's
	big                bool // resolved only with -genhashes.big
}

// genSizes are the generated games whose results testdata/genhashes.txt
// records. The growth sizes are those of BenchmarkResolveGrowth
// (enginegen.Growth): the map and each nation's spread grow with the forces,
// so the density of forces, battles and sieges per hex is the same at every
// size.
var genSizes = []genSize{
	{name: "small-1", seed: 1, side: 60, nations: 8, per: 40},
	{name: "small-2", seed: 2, side: 60, nations: 8, per: 40},
	{name: "small-3", seed: 3, side: 60, nations: 8, per: 40},
	{name: "1k", seed: 1, side: 100, nations: 40, per: 25, growth: true},
	{name: "4k", seed: 1, side: 200, nations: 40, per: 100, growth: true},
	{name: "16k", seed: 1, side: 400, nations: 40, per: 400, growth: true, big: true},
	{name: "64k", seed: 1, side: 800, nations: 40, per: 1600, growth: true, big: true},
}

// TestGeneratedGameHashes resolves generated games and compares the SHA-256
// of each result (state, events, rolls) with testdata/genhashes.txt, so
// that a change meant only to make the engine faster shows at once if it
// changed any result. A change of rules changes the hashes on purpose: then
// rerun with
//
//	go test -run TestGeneratedGameHashes ./engine -args -genhashes.update -genhashes.big
//
// (the big games are resolved only with -genhashes.big) and
// say in the commit why the results moved.
func TestGeneratedGameHashes(t *testing.T) {
	path := filepath.Join("testdata", "genhashes.txt")
	want, err := readGenHashes(path)
	if err != nil && !*updateGenHashes {
		t.Fatal(err)
	}
	got := map[string]string{}
	for name, h := range want {
		got[name] = h
	}
	for _, sz := range genSizes {
		if sz.big && !*bigGenHashes {
			continue
		}
		if testing.Short() && sz.name != "small-1" {
			continue
		}
		g := sz.game()
		res, err := engine.Resolve(g.input(sz.seed))
		if err != nil {
			t.Fatalf("%s: %v", sz.name, err)
		}
		h := fmt.Sprintf("%x", sha256.Sum256(encodeResult(t, res)))
		got[sz.name] = h
		if *updateGenHashes {
			continue
		}
		if w, ok := want[sz.name]; !ok {
			t.Errorf("%s: no hash in %s: run with -genhashes.update", sz.name, path)
		} else if w != h {
			t.Errorf("%s (%d forces): the result's hash is %s, %s has %s: the engine's results changed", sz.name, len(g.state.Forces), h, path, w)
		}
	}
	if *updateGenHashes {
		var b strings.Builder
		b.WriteString("# SHA-256 of the result (state, events, rolls) of each generated game of\n# engine/genhash_test.go; rewrite with\n#   go test -run TestGeneratedGameHashes ./engine -args -genhashes.update -genhashes.big\n")
		for _, sz := range genSizes {
			if h, ok := got[sz.name]; ok {
				fmt.Fprintf(&b, "%s %s\n", sz.name, h)
			}
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readGenHashes(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, h, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("%s: %q: expected a name and a hash", path, line)
		}
		out[name] = h
	}
	return out, sc.Err()
}

// game generates the game.
func (sz genSize) game() *genGame {
	if sz.growth {
		g := enginegen.Growth(sz.seed, sz.per)
		return &genGame{m: g.Map, state: g.State, orders: g.Orders}
	}
	return newGenGame(sz.seed, sz.side, sz.side, sz.nations, sz.per)
}
