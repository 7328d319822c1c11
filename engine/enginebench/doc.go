// Package enginebench benchmarks the engine on the default scenario: it
// loads scenarios/default with package scenario (which imports the engine,
// so the benchmarks live here rather than in the engine's own tests), gives
// every nation plausible orders — armies march on the nearest city they do
// not hold, on attack and pursuing; fleets put to sea and cruise — and times
// engine.Resolve. The package has no code of its own: run
//
//	go test -run XXX -bench . -benchmem ./engine/enginebench
package enginebench
