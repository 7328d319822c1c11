package ruleset

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// BuyField is a line of the Cost Chart: crowns to buy one, and to field one
// (keep it) at the year-end. Buy 0 means it cannot be bought.
type BuyField struct {
	Buy, Field int
}

// CostChart is the rulebook's "Cost Chart for Troops (Buy/Field)":
//
//	Infantry and Gunners      Cavalry            Artillery and Other
//	Grade C: 4/2              Grade D: 8/4       Light gun: 20/10
//	Grade D: 3/2              Grade C: 10/5      Field gun: 30/15
//	Grade B: 6/3              Grade B: 15/7      Heavy gun: 40/20
//	Regular light: +4/+0      Heavy: +5/+2       Depot: 100/50
//	D Irreg. light*: 3/2                         Warship: 100/50
//	(Grenzlers, Unterreich only)                 Transport: 20/10
//	                                             General or admiral: 50/25
//	                                             Repair warship: 20
//	                                             Repair transport: 10
//	                                             Fieldworks, per 4": 1
//
// "Grade A troops: You cannot buy Grade A troops … Grade A troops cost 3 points
// to field." The rulebook gives no field cost for Grade A cavalry; pbem reads
// "3 points" as the infantry figure and charges Grade A cavalry as Grade B
// (7), a parameter here (docs/rules-notes.md §Costs).
type CostChart struct {
	Infantry        map[game.Grade]BuyField // line infantry and gunners
	Cavalry         map[game.Grade]BuyField // light or medium cavalry
	RegularLight    BuyField                // added to the infantry grade's cost
	Heavy           BuyField                // added to the cavalry grade's cost
	IrregularLight  BuyField                // Grade D only
	Guns            map[game.GunKind]BuyField
	Depot           BuyField
	Warship         BuyField
	Transport       BuyField
	Leader          BuyField // general or admiral
	RepairWarship   int
	RepairTransport int
	// FieldworksPer4Inches: "1 crown per 4" rounded up".
	FieldworksPer4Inches int
}

// Figure returns the buy/field cost of one figure of arm and grade. ok is false
// for a combination the chart does not list (e.g. Grade B Grenzlers); Buy is 0
// for Grade A, which can only be fielded.
func (c CostChart) Figure(a game.Arm, g game.Grade) (BuyField, bool) {
	switch {
	case a == game.IrregularLight:
		if g != game.GradeD {
			return BuyField{}, false
		}
		return c.IrregularLight, true
	case a.IsCavalry():
		bf, ok := c.Cavalry[g]
		if !ok {
			return BuyField{}, false
		}
		if a == game.HeavyCavalry {
			bf.Field += c.Heavy.Field
			if bf.Buy > 0 {
				bf.Buy += c.Heavy.Buy
			}
		}
		return bf, true
	case a == game.LineInfantry, a == game.Gunners, a == game.LightInfantry:
		bf, ok := c.Infantry[g]
		if !ok {
			return BuyField{}, false
		}
		if a == game.LightInfantry {
			bf.Field += c.RegularLight.Field
			if bf.Buy > 0 {
				bf.Buy += c.RegularLight.Buy
			}
		}
		return bf, true
	}
	return BuyField{}, false
}

// Gun returns the cost of a gun model.
func (c CostChart) Gun(k game.GunKind) BuyField { return c.Guns[k] }

// Fieldworks returns the crowns for inches of fieldworks, rounded up.
func (c CostChart) Fieldworks(inches int) int {
	return (inches + 3) / 4 * c.FieldworksPer4Inches
}

// ErrNotForSale explains why a purchase is refused.
type ErrNotForSale struct{ What, Why string }

func (e ErrNotForSale) Error() string { return fmt.Sprintf("%s cannot be bought: %s", e.What, e.Why) }

func syw1752Costs() CostChart {
	return CostChart{
		Infantry: map[game.Grade]BuyField{
			game.GradeA: {Buy: 0, Field: 3},
			game.GradeB: {Buy: 6, Field: 3},
			game.GradeC: {Buy: 4, Field: 2},
			game.GradeD: {Buy: 3, Field: 2},
		},
		Cavalry: map[game.Grade]BuyField{
			game.GradeA: {Buy: 0, Field: 7},
			game.GradeB: {Buy: 15, Field: 7},
			game.GradeC: {Buy: 10, Field: 5},
			game.GradeD: {Buy: 8, Field: 4},
		},
		RegularLight:   BuyField{Buy: 4, Field: 0},
		Heavy:          BuyField{Buy: 5, Field: 2},
		IrregularLight: BuyField{Buy: 3, Field: 2},
		Guns: map[game.GunKind]BuyField{
			game.LightGun: {Buy: 20, Field: 10},
			game.FieldGun: {Buy: 30, Field: 15},
			game.HeavyGun: {Buy: 40, Field: 20},
		},
		Depot:                BuyField{Buy: 100, Field: 50},
		Warship:              BuyField{Buy: 100, Field: 50},
		Transport:            BuyField{Buy: 20, Field: 10},
		Leader:               BuyField{Buy: 50, Field: 25},
		RepairWarship:        20,
		RepairTransport:      10,
		FieldworksPer4Inches: 1,
	}
}
