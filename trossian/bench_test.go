package trossian

import "testing"

// BenchmarkDefaultTurn resolves the default scenario's first turn with the
// year test's orders (marches, a courier, a pacification).
func BenchmarkDefaultTurn(b *testing.B) {
	sc := loadDefault(b)
	rules := Trossian1801()
	st := sc.InitialState("bench", rules)
	in := Input{Map: sc.Map, Rules: rules, State: st, Orders: yearOrders(st), Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(in); err != nil {
			b.Fatal(err)
		}
	}
}
