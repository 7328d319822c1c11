package forecast_test

import (
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/forecast"
)

// BenchmarkForecastReply is the cost the forecast adds to the answer to a
// sheet: docs/orders.md's example sheet for Eisenmark on the default
// scenario's first turn — the view, the engine's runs, the text and the
// one-page PDF map. pdf-bytes is the map's size (docs/forecast.md).
func BenchmarkForecastReply(b *testing.B) {
	r, ctx := exampleCheck(b)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		v := engine.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
		fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
		if err != nil {
			b.Fatal(err)
		}
		_ = fc.Text(ctx.Map)
		pdf, err := fc.PictureBytes(ctx.Map, ctx.Rules)
		if err != nil {
			b.Fatal(err)
		}
		size = len(pdf)
	}
	b.ReportMetric(float64(size), "pdf-bytes")
}

// BenchmarkForecastText is the forecast without its map.
func BenchmarkForecastText(b *testing.B) {
	r, ctx := exampleCheck(b)
	b.ReportAllocs()
	for b.Loop() {
		v := engine.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
		fc, err := forecast.Make(forecast.Input{Map: ctx.Map, Rules: ctx.Rules, View: v, Orders: r.Orders})
		if err != nil {
			b.Fatal(err)
		}
		_ = fc.Text(ctx.Map)
	}
}
