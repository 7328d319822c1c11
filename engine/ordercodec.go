package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// orderKinds decodes an order envelope of each kind. It is only looked up.
var orderKinds = map[string]func([]byte) (Order, error){
	"move":              decodeOrder[Move],
	"stance":            decodeOrder[SetStance],
	"retreat":           decodeOrder[Retreat],
	"pursue":            decodeOrder[Pursue],
	"on-contact":        decodeOrder[OnContact],
	"slow":              decodeOrder[SlowEnemy],
	"split":             decodeOrder[Split],
	"merge":             decodeOrder[Merge],
	"assign":            decodeOrder[AssignLeader],
	"detach":            decodeOrder[DetachLeader],
	"garrison":          decodeOrder[Garrison],
	"fieldworks":        decodeOrder[Fieldworks],
	"besiege":           decodeOrder[Besiege],
	"assault":           decodeOrder[Assault],
	"bombard":           decodeOrder[Bombard],
	"embark":            decodeOrder[Embark],
	"sail":              decodeOrder[Sail],
	"debark":            decodeOrder[Debark],
	"fleet-stance":      decodeOrder[FleetStance],
	"repair":            decodeOrder[Repair],
	"supply":            decodeOrder[GrantSupply],
	"special":           decodeOrder[Special],
	"buy":               decodeOrder[Buy],
	"field":             decodeOrder[Field],
	"disband":           decodeOrder[Disband],
	"transfer":          decodeOrder[Transfer],
	"treasury":          decodeOrder[MoveTreasury],
	"temporary-capitol": decodeOrder[TemporaryCapitol],
}

func decodeOrder[T Order](b []byte) (Order, error) {
	var v T
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// OrderKinds lists the order keywords, sorted.
func OrderKinds() []string {
	out := make([]string, 0, len(orderKinds))
	for k := range orderKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// MarshalOrder encodes an order as a JSON envelope {"kind":"move", …fields}.
func MarshalOrder(o Order) ([]byte, error) {
	o = orderValue(o)
	body, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("order %s: %w", o.Kind(), err)
	}
	return envelope(o.Kind(), body), nil
}

// UnmarshalOrder decodes an envelope written by MarshalOrder. The order is
// returned as a value (Move, not *Move).
func UnmarshalOrder(data []byte) (Order, error) {
	var k struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("order envelope: %w", err)
	}
	dec, ok := orderKinds[k.Kind]
	if !ok {
		return nil, fmt.Errorf("order kind %q: expected one of %v", k.Kind, OrderKinds())
	}
	o, err := dec(data)
	if err != nil {
		return nil, fmt.Errorf("order %s: %w", k.Kind, err)
	}
	return o, nil
}

// orderValue turns a pointer to an order (*Move) into the order value (Move),
// so that the engine handles both alike.
func orderValue(o Order) Order {
	v := reflect.ValueOf(o)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if x, ok := v.Elem().Interface().(Order); ok {
			return x
		}
	}
	return o
}
