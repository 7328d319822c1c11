package houserules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Budgets: a function a reader can hold at once, a file a reader can know.
const (
	maxFuncLines = 150
	maxFileLines = 800
)

// longFuncs are the functions allowed over maxFuncLines, each with the
// reason it is one piece ("file.go name" → why). An entry goes when its
// function is split; a new one needs a reason a reviewer accepts.
var longFuncs = map[string]string{
	"engine/supply.go stepSupply":    "the supply rule read top to bottom in the rule's order (depots, cities, at sea, then the losses), each part using the last's tallies",
	"daemon/turn.go decideFrom":      "the turn from its inputs (state, ledger, rulings, table results) to every record its commit writes; to be split into reading, running and writing, which the daemon's split (issue 23) left whole",
	"daemon/sheet.go handleSheet":    "an order sheet from its password to the answer, in the order the answer tells it; to be split like decideFrom",
	"store/migrate_meta.go moveGame": "migration 9: every untyped meta key of a game moved to its typed table, one case a key, kept whole as the schema it moves from",
	"hexmap/format_write.go Format":  "writes every section of the map file in the file's canonical order, the mirror of docs/map-format.md",

	// Tests: tables and end-to-end walks, read as data or as a story.
	"reports/mapdraw/continent_test.go continent":                    "a test fixture: the whole continent map as a literal",
	"engine/cases_test.go runCase":                                   "the rules-case runner: every section of a case file (state, orders, rulings, events, after-state) compared in the file's order",
	"trossian/cases_post_test.go checkTrPost":                        "the Trossian cases' after-state: every section compared in the case file's order",
	"cmd/pbem/democmd_test.go TestDemoCommand":                       "one walk of everything pbem demo writes, as a new user would read it",
	"cmd/pbem/demo_test.go TestDemoEndToEnd":                         "the README's main walk-through, step by step as the README tells it",
	"inbox/extract_test.go TestExtractClientQuirks":                  "a table: one row a mail client's quirk",
	"store/migrate_meta_test.go TestUpgradeFromSchema8MovesEveryKey": "one schema-8 database with every meta key, each read back from its table",
	"parser/grammar_test.go TestGrammar":                             "a table: one row a grammar case",
	"parser/check_test.go TestCheck":                                 "a table: one row a checker case",
	"host/bench_test.go BenchmarkHost":                               "docs/hosting.md's scale run as one story (start, idle, burst, burst again, ten deadlines), each phase measured on the host the last one left",
}

// longFiles are the files allowed over maxFileLines, with why.
var longFiles = map[string]string{
	"hexmap/format.go":     "the map text format's reader: one directive a function, the grammar in the package comment; docs/map-format.md is its twin",
	"engine/cases_test.go": "the rules-case file format and its runner, beside each other",
}

// goFiles walks the module's Go files (not testdata, not hidden folders).
func goFiles(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && p != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" || e.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestSizeBudgets: no function over maxFuncLines lines and no file over
// maxFileLines, but for the allowlisted ones, and no allowlist entry whose
// function or file has come within the budget (remove it then).
func TestSizeBudgets(t *testing.T) {
	fset := token.NewFileSet()
	usedFunc, usedFile := map[string]bool{}, map[string]bool{}
	for _, rel := range goFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join("../..", rel), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
			if _, ok := longFiles[rel]; ok {
				usedFile[rel] = true
			} else {
				t.Errorf("%s has %d lines, over the budget of %d: split it by what its parts do "+
					"(or add it to longFiles in internal/houserules/sizes_test.go with the reason it is one piece)", rel, n, maxFileLines)
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n <= maxFuncLines {
				continue
			}
			key := rel + " " + fd.Name.Name
			if _, ok := longFuncs[key]; ok {
				usedFunc[key] = true
				continue
			}
			t.Errorf("%s:%d: %s has %d lines, over the budget of %d: split it into steps with names "+
				"(or add %q to longFuncs in internal/houserules/sizes_test.go with the reason it is one piece)",
				rel, fset.Position(fd.Pos()).Line, fd.Name.Name, n, maxFuncLines, key)
		}
	}
	for key := range longFuncs {
		if !usedFunc[key] {
			t.Errorf("longFuncs lists %q, which is gone or within %d lines now: remove the entry", key, maxFuncLines)
		}
	}
	for rel := range longFiles {
		if !usedFile[rel] {
			t.Errorf("longFiles lists %s, which is gone or within %d lines now: remove the entry", rel, maxFileLines)
		}
	}
	for key, why := range longFuncs {
		if strings.TrimSpace(why) == "" {
			t.Errorf("longFuncs: %s says no reason", key)
		}
	}
}
