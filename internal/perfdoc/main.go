// Command perfdoc reruns the benchmarks behind README's performance table
// and rewrites the table with their figures, so that no figure there is
// older than its benchmark or comes from nowhere. Run it from the module
// root on a machine as idle as can be had:
//
//	go run ./internal/perfdoc               # every row
//	go run ./internal/perfdoc -run Report   # the rows whose benchmark matches
//	go run ./internal/perfdoc -count 5      # the fastest of 5 runs each
//
// The table lies between the markers <!-- perfdoc --> and <!-- /perfdoc -->
// in README.md; its rows are rows.go's, in that order. Each row gives the
// date and the load average (from /proc/loadavg, before its runs) it was
// measured at; a row not rerun keeps its figure and date. Each figure is
// from the run with the lowest time per operation (on a shared machine the
// fastest run is the least disturbed one). TestEveryDocumentedFigureHasABenchmark
// checks that the table and rows.go agree and that every benchmark named in
// README and docs exists.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

const (
	beginMarker = "<!-- perfdoc -->"
	endMarker   = "<!-- /perfdoc -->"
)

// metrics are one benchmark result line's values by unit ("ns/op", "B/op",
// "cpu-ns/op", "pdf-bytes" …).
type metrics map[string]float64

func main() {
	run := flag.String("run", "", "rerun only the rows whose benchmark matches this regular expression")
	count := flag.Int("count", 3, "runs of each benchmark (the fastest is kept), unless its row says otherwise")
	readme := flag.String("readme", "README.md", "the file holding the table")
	flag.Parse()
	if err := regenerate(*readme, *run, *count); err != nil {
		fmt.Fprintln(os.Stderr, "perfdoc:", err)
		os.Exit(1)
	}
}

func regenerate(path, run string, count int) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	before, old, after, err := splitBlock(string(text))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var match *regexp.Regexp
	if run != "" {
		if match, err = regexp.Compile(run); err != nil {
			return fmt.Errorf("-run: %w", err)
		}
	}
	kept := map[string][2]string{} // bench → figure, measured
	for _, r := range parseTable(old) {
		kept[r.bench] = [2]string{r.figure, r.measured}
	}
	var out []tableRow
	for _, r := range readmeRows {
		tr := tableRow{what: r.What, bench: r.Bench, pkg: r.Pkg, doc: r.Doc}
		if k, ok := kept[r.Bench]; ok {
			tr.figure, tr.measured = k[0], k[1]
		}
		if match == nil || match.MatchString(r.Bench) {
			load := loadAverage()
			runs := r.Runs
			if runs == 0 {
				runs = count
			}
			fmt.Fprintf(os.Stderr, "perfdoc: %s %s (%d runs, load %s)\n", r.Pkg, r.Bench, runs, load)
			m, err := measure(r, runs)
			if err != nil {
				return fmt.Errorf("%s %s: %w", r.Pkg, r.Bench, err)
			}
			tr.figure = r.Figure(m)
			tr.measured = fmt.Sprintf("%s, load %s", time.Now().UTC().Format("2006-01-02"), load)
			if runs > 1 {
				tr.measured += fmt.Sprintf(", fastest of %d", runs)
			}
		}
		if tr.figure == "" {
			tr.figure, tr.measured = "not measured yet", "—"
		}
		out = append(out, tr)
	}
	block := renderBlock(out)
	return os.WriteFile(path, []byte(before+block+after), 0o644)
}

// splitBlock cuts text at the markers: what comes before the block (with
// its begin marker), the block's lines, and what follows (from its end
// marker).
func splitBlock(text string) (before, block, after string, err error) {
	i := strings.Index(text, beginMarker)
	j := strings.Index(text, endMarker)
	if i < 0 || j < i {
		return "", "", "", fmt.Errorf("no %s … %s block", beginMarker, endMarker)
	}
	i += len(beginMarker)
	return text[:i] + "\n", strings.Trim(text[i:j], "\n"), text[j:], nil
}

// tableRow is one row as written in the table.
type tableRow struct{ what, figure, measured, bench, pkg, doc string }

var benchCell = regexp.MustCompile("`(Benchmark[A-Za-z0-9_]+(?:/[A-Za-z0-9_]+)?)`(?: in `([^`]+)`)?")

// parseTable reads the rows of the block's table.
func parseTable(block string) []tableRow {
	var out []tableRow
	for _, line := range strings.Split(block, "\n") {
		cells := splitRow(line)
		if len(cells) != 4 || strings.HasPrefix(cells[0], "---") || cells[0] == "what" {
			continue
		}
		r := tableRow{what: cells[0], figure: cells[1], measured: cells[2]}
		if m := benchCell.FindStringSubmatch(cells[3]); m != nil {
			r.bench, r.pkg = m[1], m[2]
		}
		out = append(out, r)
	}
	return out
}

// splitRow returns a Markdown table row's cells, trimmed; nil for a line
// that is not a row.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil
	}
	cells := strings.Split(line[1:len(line)-1], " | ")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func renderBlock(rows []tableRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Written by `go run ./internal/perfdoc` from the benchmarks named (its rows are in\n"+
		"`internal/perfdoc/rows.go`: do not edit the table by hand). Machine: %s. Each row says when it was\n"+
		"measured and under what load average: above the number of cores, other work shared them and slowed the figure.\n\n", machine())
	b.WriteString("| what | figure | measured | benchmark |\n| --- | --- | --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` in `%s`, [details](%s) |\n", r.what, r.figure, r.measured, r.bench, r.pkg, r.doc)
	}
	return b.String()
}

// measure runs one benchmark runs times and returns the metrics of the
// run with the lowest ns/op.
func measure(r row, runs int) (metrics, error) {
	name, sub, _ := strings.Cut(r.Bench, "/")
	pattern := "^" + name + "$"
	if sub != "" {
		pattern += "/^" + sub + "$"
	}
	args := append([]string{"test", "-run", "^$", "-bench", pattern, "-benchmem", "-count", strconv.Itoa(runs)}, r.Args...)
	args = append(args, r.Pkg)
	cmd := exec.Command("go", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	best := metrics(nil)
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		m, ok := parseResult(sc.Text(), r.Bench)
		if ok && (best == nil || m["ns/op"] < best["ns/op"]) {
			best = m
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no result line for %s in:\n%s", r.Bench, out.String())
	}
	return best, nil
}

// parseResult reads a benchmark result line: "BenchmarkX/sub-2  3  123 ns/op
// 45 B/op …".
func parseResult(line, bench string) (metrics, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], bench) {
		return nil, false
	}
	rest := strings.TrimPrefix(f[0], bench)
	if rest != "" && !regexp.MustCompile(`^-\d+$`).MatchString(rest) {
		return nil, false // another benchmark whose name begins with this one's
	}
	m := metrics{}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, false
		}
		m[f[i+1]] = v
	}
	return m, true
}

// loadAverage is the one-minute load average, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}

// machine names the processor and its count of cores.
func machine() string {
	model := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.Join(strings.Fields(v), " ")
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores, %s/%s", model, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
}
