package houserules

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module path; every package of pbem is below it.
const module = "github.com/syw-pbem/pbem"

// A layer is a rank in the import graph: a package imports only packages
// of its own layer or lower ones. (Go refuses cycles, so within a layer
// the order is the compiler's business.)
type layer int

const (
	vocabulary    layer = iota + 1 // game, ruleset, hexmap, areamap, schedule: the words every package shares
	engine                         // pure turn resolution and what builds its input
	edge                           // the packages round the engine: mail in and out, parsing, reports, storage, config
	orchestration                  // the game at work: the daemon and what drives it
	command                        // the binary
)

func (l layer) String() string {
	return [...]string{"?", "vocabulary", "engine", "edge", "orchestration", "command"}[l]
}

// layerOf gives each package of the module (its path below the module) its
// layer. A new package needs a row here, and in docs/DEVELOPING.md's layout
// table.
var layerOf = map[string]layer{
	// The vocabulary: standard library, and one another.
	"game":              vocabulary,
	"ruleset":           vocabulary,
	"hexmap":            vocabulary,
	"areamap":           vocabulary,
	"schedule":          vocabulary,
	"scenarios":         vocabulary, // the embedded scenario files
	"internal/english":  vocabulary,
	"internal/backoff":  vocabulary,
	"internal/mailconn": vocabulary,
	"internal/doorbell": vocabulary, // the wake-up pipe beside the store

	// The engine and its campaigns: pure (see pure below), but for the
	// scenario loader, which reads the files the engine's state starts from.
	"engine":             engine,
	"engine/battle":      engine,
	"engine/enginegen":   engine,
	"engine/enginebench": engine,
	"trossian":           engine,
	"scenario":           engine,

	// The edge: what reads and writes the world round the engine.
	"parser":             edge,
	"refcmd":             edge,
	"trossian/sheet":     edge,
	"campaign":           edge, // a campaign as a value: its engine and its sheet's parser
	"reports":            edge,
	"reports/fonts":      edge,
	"reports/mapdraw":    edge,
	"reports/areadraw":   edge,
	"reports/narrative":  edge,
	"reports/reportmail": edge,
	"forecast":           edge, // a nation's turn run on its own view, beside the reports
	"templates":          edge,
	"inbox":              edge,
	"outbox":             edge,
	"mailserver":         edge,
	"store":              edge,
	"config":             edge,
	"password":           edge,
	"internal/imaptest":  edge, // test helper: a real Dovecot, a test mail provider
	"internal/killtest":  edge, // test helper: the SIGKILL harness
	"internal/testsetup": edge, // test helper: the TestMain shortcuts of packages that start games
	"internal/testtmp":   edge, // test helper: temporary files on tmpfs

	// The orchestration: the game at work, and what drives or checks it whole.
	"daemon":              orchestration,
	"host":                orchestration,
	"console":             orchestration,
	"demo":                orchestration,
	"doctor":              orchestration,
	"internal/gamecheck":  orchestration, // plays the demo's games in memory
	"internal/houserules": orchestration, // this package: tests only
	"internal/perfdoc":    orchestration, // reruns the benchmarks behind the README's table

	"cmd/pbem": command,
}

// never lists imports that the layers allow but the design does not: the
// edge packages take their own small options, never the app's config, and
// the intake knows nothing of the game.
var never = map[string][]string{
	"inbox":      {"config", "engine", "parser", "reports", "daemon"},
	"outbox":     {"config", "engine", "parser", "reports", "daemon"},
	"mailserver": {"config", "store", "engine"},
	"store":      {"config", "engine"},
	"refcmd":     {"daemon", "store"},
	"parser":     {"reports", "store", "config"},
	"reports":    {"store", "config", "parser"},
}

// pure are the packages that resolve a turn: state + orders + seed → state
// + events. They may not import I/O, the clock, a log or a global random
// source (impure below).
var pure = []string{"game", "ruleset", "engine", "engine/battle", "engine/enginegen", "trossian"}

// impure are standard packages a pure package may not import: a prefix
// ending in "/" covers the packages below it.
var impure = []string{
	"os", "os/", "io", "io/", "bufio", "net", "net/", "time", "log", "log/",
	"database/", "syscall", "math/rand", "crypto/rand", "embed", "runtime/", "unsafe",
}

// goPackage is what the layering test reads of `go list -json`.
type goPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Module     *struct{ Path string }
}

// listPackages lists the module's packages and every package they import.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// own reports a path of the module, and its path below the module.
func own(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

// TestLayering: every package of the module has a layer; none imports a
// package of a higher layer or one the design rules out (never); the pure
// packages import no I/O, clock, log or global dice.
func TestLayering(t *testing.T) {
	pkgs := listPackages(t)
	seen := 0
	for _, p := range pkgs {
		name, ok := own(p.ImportPath)
		if !ok {
			continue
		}
		seen++
		l, known := layerOf[name]
		if !known {
			t.Errorf("%s has no layer: add it to the table (internal/houserules/layers_test.go, layerOf) "+
				"and to docs/DEVELOPING.md's layout", name)
			continue
		}
		for _, imp := range p.Imports {
			dep, isOwn := own(imp)
			if !isOwn {
				if slices.Contains(pure, name) && impureImport(imp) {
					t.Errorf("%s is pure (state + orders + seed → state + events) and imports %s: "+
						"no I/O, clock, log or global dice in the engine", name, imp)
				}
				continue
			}
			dl, known := layerOf[dep]
			if known && dl > l {
				t.Errorf("%s (%s) imports %s (%s): dependencies point down — cmd/pbem → orchestration → "+
					"edge → engine → vocabulary", name, l, dep, dl)
			}
			if slices.Contains(never[name], dep) {
				t.Errorf("%s imports %s, which the design rules out (docs/DEVELOPING.md's layout says what it may import)", name, dep)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("go list found %d packages of the module; the test reads the wrong folder", seen)
	}
}

func impureImport(imp string) bool {
	for _, x := range impure {
		if imp == x || strings.HasSuffix(x, "/") && strings.HasPrefix(imp, x) {
			return true
		}
	}
	return false
}

// TestLayeringCatches: the checks above fail where they should (a test of
// the test, on made-up imports).
func TestLayeringCatches(t *testing.T) {
	if l := layerOf["engine"]; l >= layerOf["reports"] {
		t.Errorf("engine is at %s, reports at %s", l, layerOf["reports"])
	}
	for imp, want := range map[string]bool{"os": true, "os/exec": true, "io/fs": true, "time": true, "log/slog": true,
		"math/rand": true, "math/rand/v2": false, "fmt": false, "strings": false, "iotest": false} {
		if impureImport(imp) != want {
			t.Errorf("impureImport(%q) = %v, want %v", imp, !want, want)
		}
	}
}
