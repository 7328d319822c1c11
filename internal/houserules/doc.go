// Package houserules holds the tests of the house rules that no compiler
// checks: the layering of the packages (dependencies point down, from
// cmd/pbem through the orchestration and the edge packages to the engine
// and the vocabulary; the engine imports no I/O, clock or log), and the size
// budgets of functions and files, with an allowlist that says why each
// exception stands. It has no code of its own; `go test ./internal/houserules`
// runs the checks, and .ci/run runs them with the rest.
//
// The layering test reads the real import graph (`go list -deps -json`), so
// a new package fails it until it has a row in the table (layers.go's
// layerOf): choose its layer from what it imports and what imports it, and
// say it in docs/DEVELOPING.md's layout table too.
package houserules
