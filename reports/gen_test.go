package reports_test

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/enginegen"
	"github.com/syw-pbem/pbem/hexmap"
)

// genGame is a generated game (engine/enginegen) as these tests use it.
type genGame struct {
	m      *hexmap.Map
	state  *engine.State
	orders []engine.Orders
}

func newGenGame(seed uint64, cols, rows, nations, forcesPer int) *genGame {
	g := enginegen.New(seed, cols, rows, nations, forcesPer)
	return &genGame{m: g.Map, state: g.State, orders: g.Orders}
}
