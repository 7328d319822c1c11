package sheet

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/trossian"
)

// Format writes an order in canonical form: the form the reply prints,
// which reads back as the same order. A courier's orders follow its line,
// one a line.
func Format(o engine.Order) string {
	switch x := o.(type) {
	case trossian.Move:
		if x.Dest != "" {
			return fmt.Sprintf("MOVE %s TO %s", x.Force, x.Dest)
		}
		return fmt.Sprintf("MOVE %s %s", x.Force, strings.Join(x.Path, " "))
	case trossian.SetStance:
		return fmt.Sprintf("STANCE %s %s", x.Force, strings.ToUpper(x.Stance.String()))
	case trossian.Hold:
		return "HOLD " + string(x.Force)
	case trossian.Retreat:
		return fmt.Sprintf("RETREAT %s TO %s", x.Force, x.To)
	case trossian.Detach:
		s := fmt.Sprintf("DETACH %s %s", x.Force, x.Stands)
		if x.As != "" {
			s += " AS " + string(x.As)
		}
		return s
	case trossian.Merge:
		return fmt.Sprintf("MERGE %s INTO %s", x.Force, x.Into)
	case trossian.Pacify:
		return "PACIFY " + string(x.Force)
	case trossian.Besiege:
		return "BESIEGE " + string(x.Force)
	case trossian.NavyOrders:
		return x.String()
	case trossian.SendCourier:
		s := "COURIER TO " + string(x.To)
		if len(x.Via) > 0 {
			s += " VIA " + strings.Join(x.Via, " ")
		}
		for _, c := range x.Carries {
			s += "\n" + Format(c)
		}
		return s
	case trossian.Buy:
		var parts []string
		if len(x.Stands) > 0 {
			parts = append(parts, x.Stands.String())
		}
		if x.Navies > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.Navies, plural(x.Navies, "navy", "navies")))
		}
		if x.Messengers > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.Messengers, plural(x.Messengers, "messenger", "messengers")))
		}
		return fmt.Sprintf("BUY %s AT %s", strings.Join(parts, ", "), x.City)
	case trossian.Bank:
		return fmt.Sprintf("BANK %d AT %s", x.AP, x.City)
	}
	return "# " + o.Kind()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
