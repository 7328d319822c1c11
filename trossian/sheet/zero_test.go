package sheet

import (
	"reflect"

	"github.com/syw-pbem/pbem/engine"
)

type engineOrder = engine.Order

// reflectZeroLine returns a copy of an order with its sheet line 0.
func reflectZeroLine(o engine.Order) engine.Order {
	v := reflect.New(reflect.TypeOf(o)).Elem()
	v.Set(reflect.ValueOf(o))
	if f := v.FieldByName("At"); f.IsValid() {
		f.FieldByName("Line").SetInt(0)
	}
	return v.Interface().(engine.Order)
}
