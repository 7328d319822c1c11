// Package ruleset holds the rule tables of the SYW Big Game Campaign, each in
// one place and named after the rule it implements, so that a referee can
// check it against the rulebook line by line.
//
// An edition of the rules is a value of type Ruleset, not a fork of the code:
// SYW1752() is the 1752 Edition, SYWV4() the revised V4. Each call returns a
// fresh value, so no caller can change an edition for another by accident;
// the list of editions (IDs, ByID) is the one source config validation,
// "pbem version" and the daemon read. The engine reads every
// number it needs from the Ruleset it is given. Where the rulebook is silent or
// ambiguous the reading chosen is documented on the field and in
// docs/rules-notes.md, and is a field here so a referee can change it.
package ruleset

import (
	"fmt"
)

// Ruleset is one edition of the campaign rules.
type Ruleset struct {
	// ID is the key used in config and the store: "syw-1752", "syw-v4".
	ID   string
	Name string

	Movement    MovementTable
	SeaMovement SeaMovementTable
	Cargo       TransportCargo
	Costs       CostChart
	Fieldworks  FieldworksRules
	PointValues PointValues
	Taxes       TaxValues
	YearEnd     YearEndRules

	SupplyAttrition AttritionRates
	Retreat         RetreatRules
	Supply          SupplyRules
	MinimumForce    MinimumForceSizes
	Capture         CaptureRules
	Overrun         OverrunRules
	SlowingEnemy    SlowingEnemyRules

	SizeClasses     IntelligenceSizeClasses
	ScoutingPoints  ScoutingPoints
	ScoutingResults ScoutingResults

	Assault AssaultTable
	Siege   SiegeRules
	// SeaBattle is the Sea Battle CRT and its rules (seabattle.go).
	SeaBattle SeaBattleCRT

	// Battle names the land-battle model (BattleModels): "simulation" (the
	// default) or "lgg". A game may choose another with WithBattle.
	Battle      string
	LandBattles LandBattleRules
	Regain      RegainRules
	Pursuit     PursuitRules
	Promotions  PromotionRules

	// DiceRounding: when a percentage loss leaves a fraction of a figure, roll
	// for it (a 2.4-figure loss is 2, plus 1 more with chance 0.4). The rules
	// say so for sea battles ("Roll for fractional chances"); pbem applies it
	// to every percentage loss. When false, fractions round half up.
	DiceRounding bool
}

// edition is one entry of the list of editions: its ID and the function
// that builds a fresh value of it.
type edition struct {
	id   string
	make func() *Ruleset
}

// editions lists every edition, sorted by ID. It is the one list of rulesets
// pbem knows; nothing may append to it at run time.
var editions = []edition{
	{"syw-1752", syw1752},
	{"syw-v4", sywV4},
}

// ByID returns a fresh value of the edition with the given ID. An unknown ID
// is an error: there is no default edition.
func ByID(id string) (*Ruleset, error) {
	for _, e := range editions {
		if e.id == id {
			return e.make(), nil
		}
	}
	return nil, fmt.Errorf("unknown ruleset %q: expected one of %v", id, IDs())
}

// IDs lists the known editions, sorted.
func IDs() []string {
	ids := make([]string, len(editions))
	for i, e := range editions {
		ids[i] = e.id
	}
	return ids
}

// Percent is a whole percentage (5 = 5%).
type Percent int

// Of returns the exact fraction of n, for the caller to round.
func (p Percent) Of(n int) float64 { return float64(n) * float64(p) / 100 }
