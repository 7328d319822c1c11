package enginebench_test

import (
	"encoding/json"

	"github.com/syw-pbem/pbem/engine"
)

func jsonOf(st *engine.State) (string, error) {
	b, err := json.Marshal(st)
	return string(b), err
}
