package forecast_test

import (
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
	"github.com/syw-pbem/pbem/forecast"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
)

// BenchmarkForecastReply is the cost the forecast adds to the answer to a
// sheet: docs/orders.md's example sheet for Eisenmark on the default
// scenario's first turn — the view, the engine's runs, the text and the
// one-page PDF map. reply-bytes is the forecast's text and map;
// cpu-ms/op the CPU time an answer takes (docs/forecast.md).
func BenchmarkForecastReply(b *testing.B) {
	r, ctx := exampleCheck(b)
	b.ReportAllocs()
	size := 0
	cpu := processCPU()
	for b.Loop() {
		forecastReply(b, r, ctx, &size)
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(size), "reply-bytes")
}

// BenchmarkWholeReply is the answer's content with the forecast: the
// sheet checked, the checker's text, the forecast and its map.
// reply-bytes is the text and the PDF together.
func BenchmarkWholeReply(b *testing.B) {
	_, ctx := exampleCheck(b)
	sheet := exampleSheetText(b)
	b.ReportAllocs()
	size := 0
	cpu := processCPU()
	for b.Loop() {
		r := parser.Check(sheet, ctx)
		text := r.Text()
		pdf := 0
		forecastReply(b, r, ctx, &pdf)
		size = len(text) + pdf
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(size), "reply-bytes")
}

// forecastReply makes the forecast of a checked sheet, its text and its
// map, and sets size to their bytes.
func forecastReply(b *testing.B, r *parser.Report, ctx parser.CheckContext, size *int) {
	v := engine.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
	fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
	if err != nil {
		b.Fatal(err)
	}
	text := fc.Text(ctx.Map)
	pdf, err := fc.PictureBytes(ctx.Map, ctx.Rules)
	if err != nil {
		b.Fatal(err)
	}
	*size = len(pdf) + len(text)
}

// BenchmarkForecastText is the forecast without its map.
func BenchmarkForecastText(b *testing.B) {
	r, ctx := exampleCheck(b)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		v := engine.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
		fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
		if err != nil {
			b.Fatal(err)
		}
		_ = fc.Text(ctx.Map)
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per operation since start
// (every goroutine's, the garbage collector's included).
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkForecastText40 is the forecast's text for one nation of a
// generated game of 40 nations with 100 forces each on a 200×200 map (the
// size internal/gamecheck plays): the view holds 4,000 foreign forces.
func BenchmarkForecastText40(b *testing.B) {
	g := enginegen.New(1, 200, 200, 40, 100)
	rules := ruleset.SYW1752()
	n := g.Map.Nations[0].ID
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		v := engine.View(g.Map, rules, g.State, n)
		fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: rules, View: v, Orders: ordersOf(g.Orders, n)})
		if err != nil {
			b.Fatal(err)
		}
		_ = fc.Text(g.Map)
	}
	reportCPU(b, cpu)
}

// BenchmarkForecastReply40 is the forecast with its map for one nation of
// the 40-nation game (see BenchmarkForecastText40).
func BenchmarkForecastReply40(b *testing.B) {
	g := enginegen.New(1, 200, 200, 40, 100)
	rules := ruleset.SYW1752()
	n := g.Map.Nations[0].ID
	b.ReportAllocs()
	size := 0
	cpu := processCPU()
	for b.Loop() {
		v := engine.View(g.Map, rules, g.State, n)
		fc, err := forecast.Make(forecast.Input{Map: g.Map, Rules: rules, View: v, Orders: ordersOf(g.Orders, n)})
		if err != nil {
			b.Fatal(err)
		}
		text := fc.Text(g.Map)
		pdf, err := fc.PictureBytes(g.Map, rules)
		if err != nil {
			b.Fatal(err)
		}
		size = len(text) + len(pdf)
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(size), "reply-bytes")
}
