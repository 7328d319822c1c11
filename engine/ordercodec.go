package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// decodeOrderOf decodes an envelope into a value of the kind's Zero type.
func decodeOrderOf(k OrderKind, b []byte) (Order, error) {
	v := reflect.New(reflect.TypeOf(k.Zero))
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v.Interface()); err != nil {
		return nil, err
	}
	return v.Elem().Interface().(Order), nil
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
	kind, ok := KindOf(k.Kind)
	if !ok {
		return nil, fmt.Errorf("order kind %q: expected one of %v", k.Kind, OrderKinds())
	}
	o, err := decodeOrderOf(kind, data)
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
