package main

import "fmt"

// row is one line of a generated performance table: what it measures, the
// benchmark behind it, how to run that benchmark, and how its figure is
// written from the benchmark's metrics.
type row struct {
	What  string   // the first cell
	Pkg   string   // the package, from the module root: "./engine"
	Bench string   // the benchmark, with a sub-benchmark after a slash
	Args  []string // go test flags besides -run, -bench and -benchmem
	Doc   string   // the page with the details
	Runs  int      // how many runs (go test -count); 0: perfdoc's -count
	// Figure writes the figure cell from the benchmark's metrics (the
	// fastest of the runs: see measure).
	Figure func(m metrics) string
}

// readmeRows are README's performance table, in its order.
var readmeRows = []row{
	{What: "a turn of the default scenario", Pkg: "./engine/enginebench", Bench: "BenchmarkDefaultScenarioTurn1",
		Args: []string{"-cpu", "1"}, Doc: "docs/engine.md", Figure: timeAndAlloc},
	{What: "a generated 200×200-hex, 40-nation, 4,000-force turn", Pkg: "./engine", Bench: "BenchmarkResolveLarge",
		Args: []string{"-cpu", "1"}, Doc: "docs/engine.md", Figure: timeAndAlloc},
	{What: "the year-end of that game (taxes, fielding, buying for 40 nations)", Pkg: "./engine", Bench: "BenchmarkYearEndLarge",
		Args: []string{"-cpu", "1"}, Doc: "docs/engine.md", Figure: timeAndAlloc},
	{What: "the generated game at 1,000 forces (100×100 hexes)", Pkg: "./engine", Bench: "BenchmarkResolveGrowth/1k",
		Args: []string{"-benchtime", "5x"}, Doc: "docs/engine.md", Figure: cpuAndAlloc},
	{What: "… at 4,000 forces (200×200 hexes)", Pkg: "./engine", Bench: "BenchmarkResolveGrowth/4k",
		Args: []string{"-benchtime", "3x"}, Doc: "docs/engine.md", Figure: cpuAndAlloc},
	{What: "… at 16,000 forces (400×400 hexes)", Pkg: "./engine", Bench: "BenchmarkResolveGrowth/16k",
		Args: []string{"-benchtime", "2x"}, Doc: "docs/engine.md", Figure: cpuAndAlloc},
	{What: "… at 64,000 forces (800×800 hexes)", Pkg: "./engine", Bench: "BenchmarkResolveGrowth/64k", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/engine.md", Figure: cpuAndAlloc},
	{What: "checking a 500-line order sheet", Pkg: "./parser", Bench: "BenchmarkCheck500",
		Doc: "docs/orders.md", Figure: timeAndAlloc},
	{What: "a 2,000-figure land battle (default model)", Pkg: "./engine/battle", Bench: "BenchmarkSimulation2000",
		Doc: "docs/engine.md", Figure: timeAndAlloc},
	{What: "drawing the default map (A3 PDF)", Pkg: "./reports/mapdraw", Bench: "BenchmarkRenderDefaultMap",
		Doc: "docs/reports.md", Figure: timeAndPDF},
	{What: "one nation's turn report (model + PDF), default map", Pkg: "./reports", Bench: "BenchmarkNationReport",
		Args: []string{"-benchtime", "20x"}, Doc: "docs/reports.md", Figure: cpuAndPDF},
	{What: "the referee's master report", Pkg: "./reports", Bench: "BenchmarkRefereeReport",
		Args: []string{"-benchtime", "20x"}, Doc: "docs/reports.md", Figure: cpuAndPDF},
	{What: "a nation's report in the generated 40-nation game", Pkg: "./reports", Bench: "BenchmarkNationReportLarge",
		Args: []string{"-benchtime", "3x"}, Doc: "docs/reports.md", Figure: cpuAndPDF},
	{What: "a turn of the default game resolved by the turn runner (six PDF reports, one commit)", Pkg: "./daemon", Bench: "BenchmarkResolveTurn",
		Args: []string{"-benchtime", "10x"}, Doc: "docs/turns.md", Figure: timeAndAlloc},
	{What: "deadline to every report (six PDF reports) accepted by SMTP (default game, embedded server)", Pkg: "./daemon", Bench: "BenchmarkDeadlineToReports",
		Args: []string{"-benchtime", "10x"}, Doc: "docs/turns.md", Figure: timeOnly},
	{What: "the referee's RESOLVE NOW by mail to every report (six PDF reports) accepted by SMTP (default game, embedded server)", Pkg: "./daemon", Bench: "BenchmarkResolveNowByMail",
		Args: []string{"-benchtime", "10x"}, Doc: "docs/turns.md", Figure: timeOnly},
	{What: "resolving with `pbem resolve` beside a running `pbem run`, to every report accepted by SMTP", Pkg: "./daemon", Bench: "BenchmarkResolveBesideRun",
		Args: []string{"-benchtime", "10x"}, Doc: "docs/turns.md", Figure: timeOnly},
	{What: "arrival to acknowledgment, 10 sheets a second", Pkg: "./daemon", Bench: "BenchmarkAcknowledgePaced", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/intake.md", Figure: latency},
	{What: "500 sheets in one burst", Pkg: "./daemon", Bench: "BenchmarkAcknowledge500", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/intake.md", Figure: burst},
	{What: "100 sheets a second for 60 s", Pkg: "./daemon", Bench: "BenchmarkAcknowledgeSustained", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/intake.md", Figure: latency},
	{What: "memory of `pbem run` fed 30 MB mails, the bomb set and 9–10 MiB mails at once", Pkg: "./cmd/pbem", Bench: "BenchmarkRunMemory", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/intake.md", Figure: peakRSS},
	{What: "100 games of five nations in one process (`pbem run --host`)", Pkg: "./host", Bench: "BenchmarkHost", Runs: 1,
		Args: []string{"-benchtime", "1x"}, Doc: "docs/hosting.md", Figure: hosting},
}

// The figure writers.

func timeAndAlloc(m metrics) string {
	return fmt.Sprintf("%s, %s", duration(m["ns/op"]), bytesOf(m["B/op"]))
}

func timeOnly(m metrics) string { return duration(m["ns/op"]) }

func cpuAndAlloc(m metrics) string {
	return fmt.Sprintf("%s CPU, %s", duration(m["cpu-ns/op"]), bytesOf(m["B/op"]))
}

func timeAndPDF(m metrics) string {
	return fmt.Sprintf("%s, %s PDF", duration(m["ns/op"]), bytesOf(m["pdf-bytes"]))
}

func cpuAndPDF(m metrics) string {
	return fmt.Sprintf("%s CPU, %s PDF", duration(m["cpu-ms/op"]*1e6), bytesOf(m["pdf-bytes"]))
}

func latency(m metrics) string {
	return fmt.Sprintf("median %.0f ms, 99th percentile %.0f ms", m["p50-ms"], m["p99-ms"])
}

func burst(m metrics) string {
	return fmt.Sprintf("%.0f mails/s, 99th percentile %.0f ms", m["mails/s"], m["p99-ms"])
}

func hosting(m metrics) string {
	return fmt.Sprintf("idle RSS %.0f MB; 500 sheets at once, each its player's first, all answered in %.1f s (99th percentile %.1f s, bcrypt-bound), again in %.1f s (99th percentile %.2f s); ten deadlines in one minute %.1f s",
		m["idle-RSS-MB"], m["burst-all-s"], m["burst-p99-ms"]/1000, m["burst-again-s"], m["burst-again-p99-ms"]/1000, m["ten-deadlines-s"])
}

func peakRSS(m metrics) string { return fmt.Sprintf("peak RSS %.0f MB", m["peak-RSS-MB"]) }

// duration writes nanoseconds in the unit that suits them.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e7:
		return fmt.Sprintf("%.0f ms", ns/1e6)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", ns/1e6)
	default:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
}

// bytesOf writes a byte count in KB or MB (of 1,000 and 1,000,000).
func bytesOf(b float64) string {
	switch {
	case b >= 1e8:
		return fmt.Sprintf("%.0f MB", b/1e6)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	default:
		return fmt.Sprintf("%.0f KB", b/1e3)
	}
}
