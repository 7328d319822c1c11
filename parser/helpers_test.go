package parser

import (
	"fmt"
	"reflect"

	"github.com/syw-pbem/pbem/engine"
)

// withoutLine returns the order with its sheet line cleared.
func withoutLine(o engine.Order) engine.Order {
	v := reflect.New(reflect.TypeOf(o)).Elem()
	v.Set(reflect.ValueOf(o))
	if f := v.FieldByName("At"); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
	return v.Interface().(engine.Order)
}

// fmtStatement prints a statement's content in full, for comparisons.
func fmtStatement(s Statement) string {
	switch {
	case s.Order != nil:
		return fmt.Sprintf("%#v", withoutLine(s.Order))
	case s.Treaty != nil:
		return fmt.Sprintf("%#v", *s.Treaty)
	case s.Attest != nil:
		return fmt.Sprintf("%#v", *s.Attest)
	case s.Request != nil:
		return fmt.Sprintf("%#v", *s.Request)
	case s.Withdraw != nil:
		return fmt.Sprintf("%#v", *s.Withdraw)
	case s.Password != nil:
		return fmt.Sprintf("%#v", *s.Password)
	}
	return "empty"
}
