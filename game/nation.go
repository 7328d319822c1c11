package game

// NationID names a nation in orders, reports, the store and the config: a
// lower-case word such as "eisenmark". Neutral provinces and cities have the
// empty NationID.
type NationID string

// Neutral is the NationID of no nation: the loyalty of a neutral city, the
// controller of an ungarrisoned neutral city.
const Neutral NationID = ""

// Nation is the fixed description of a playing nation, as a scenario defines
// it. Its changing state (treasury, temporary capitol) lives in the engine's
// State.
type Nation struct {
	ID   NationID
	Name string // "Eisenmark"
	// Letter prefixes the nation's force IDs ("E" → E1, E2 …). Unique per game.
	Letter string
	// Capitol is the name of the nation's capitol city. It never changes.
	Capitol string
	// Provinces are the letters of the nation's home provinces.
	Provinces []string
	// Traits are the national characteristics of the rules' "The Nations"
	// section that the campaign engine must know about.
	Traits Traits
}

// Traits are a nation's army characteristics. The fire-test bonuses matter only
// to the battle resolver; IrregularLight matters to buying.
type Traits struct {
	// IrregularLight: may buy Grade D irregular light infantry (Grenzlers).
	IrregularLight bool `yaml:"irregular_light,omitempty" json:",omitempty"`
	// VolleyRoutHit: "If a unit loses a fire test when hit by steady musketry,
	// it suffers 1 extra rout hit" (Eisenmark).
	VolleyRoutHit bool `yaml:"volley_rout_hit,omitempty" json:",omitempty"`
	// StationaryFireBonus: infantry +1 on fire tests if stationary on its prior
	// move (Morgronskia).
	StationaryFireBonus bool `yaml:"stationary_fire_bonus,omitempty" json:",omitempty"`
	// AdvanceFireBonus: infantry +1 on fire tests if it advanced full on its
	// prior move (Fromande).
	AdvanceFireBonus bool `yaml:"advance_fire_bonus,omitempty" json:",omitempty"`
	// CavalryAdvanceBonus: cavalry +1 on fire tests if it advanced half speed
	// or more on its prior turn (Hispardia).
	CavalryAdvanceBonus bool `yaml:"cavalry_advance_bonus,omitempty" json:",omitempty"`
}
