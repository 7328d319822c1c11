package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module's root, from this package's folder.
const root = "../.."

// TestEveryDocumentedFigureHasABenchmark fails when README's performance
// section holds a figure that no benchmark stands behind: a row outside the
// generated table, a row of the table that rows.go does not have (or the
// reverse), or a row whose benchmark does not exist. It also fails when
// README or a page of docs/ names a benchmark that does not exist (renamed
// or removed since the figure beside it was taken).
func TestEveryDocumentedFigureHasABenchmark(t *testing.T) {
	t.Parallel()
	benches := benchmarksIn(t, root)
	exists := func(pkg, name string) bool {
		name, _, _ = strings.Cut(name, "/")
		for _, dir := range benches[name] {
			if pkg == "" || filepath.Clean(dir) == filepath.Clean(filepath.Join(root, pkg)) {
				return true
			}
		}
		return false
	}

	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, _, err := splitBlock(string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	rows := parseTable(block)
	if len(rows) != len(readmeRows) {
		t.Errorf("README's performance table has %d rows, internal/perfdoc/rows.go %d: run go run ./internal/perfdoc", len(rows), len(readmeRows))
	}
	for i, r := range rows {
		if r.bench == "" {
			t.Errorf("README's performance table: %q names no benchmark", r.what)
			continue
		}
		if !exists(r.pkg, r.bench) {
			t.Errorf("README's performance table: %q names %s in %s, which does not exist", r.what, r.bench, r.pkg)
		}
		if i < len(readmeRows) && (readmeRows[i].Bench != r.bench || readmeRows[i].What != r.what) {
			t.Errorf("README's performance table row %d is %q (%s), rows.go has %q (%s): run go run ./internal/perfdoc", i+1, r.what, r.bench, readmeRows[i].What, readmeRows[i].Bench)
		}
	}
	for _, r := range readmeRows {
		if !exists(r.Pkg, r.Bench) {
			t.Errorf("rows.go: %q names %s in %s, which does not exist", r.What, r.Bench, r.Pkg)
		}
	}

	// No figure in README's performance section outside the generated table.
	sec := section(string(readme), "## Performance")
	if sec == "" {
		t.Fatal("README.md has no ## Performance section")
	}
	outside := strings.Replace(sec, block, "", 1)
	for _, line := range strings.Split(outside, "\n") {
		if splitRow(line) != nil {
			t.Errorf("README's performance section has a table row outside the generated table: %s", line)
		}
	}

	// Every benchmark named in README and docs exists.
	named := regexp.MustCompile(`\bBenchmark[A-Z][A-Za-z0-9_]*`)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range append(docs, filepath.Join(root, "README.md")) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range named.FindAllString(string(b), -1) {
			if !exists("", n) {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s names %s, which no test file defines", rel, n)
			}
		}
	}
}

// benchmarksIn returns the folders defining each benchmark function of the
// module's test files.
func benchmarksIn(t *testing.T, dir string) map[string][]string {
	t.Helper()
	def := regexp.MustCompile(`(?m)^func (Benchmark[A-Za-z0-9_]*)\(`)
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != dir || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range def.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = append(out[m[1]], filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// section returns the text of a Markdown section, from its heading to the
// next heading of the same level.
func section(text, heading string) string {
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		return ""
	}
	rest := text[i+1+len(heading):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
