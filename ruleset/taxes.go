package ruleset

// TaxValues is the rulebook's tax scale (Collecting Taxes): "100 points for
// each inland city, 200 points for inland cities on a river, 300 points for
// ports, and 400 points for ports on rivers." A city's tax value is also the
// number of figures it can supply.
type TaxValues struct {
	Inland, InlandRiver, Port, PortRiver int
	// CapitolLostFraction: taxes collected while the capitol is lost ("3/4").
	CapitolLostNum, CapitolLostDen int
	// Foreign cities pay half ("You collect half taxes for foreign cities"),
	// masked cities half, besieged cities nothing.
	ForeignNum, ForeignDen int
	MaskedNum, MaskedDen   int
	// VictoryTaxBase: "The first player to end a game-year with a tax base of
	// 4800 points is the winner."
	VictoryTaxBase int
	// StartingTaxBase: "Each player starts with a 1600-point tax base."
	StartingTaxBase int
	// TreatyPenalty: "a penalty of 200 tax points per year".
	TreatyPenalty int
}

// Of returns the tax value of a city.
func (t TaxValues) Of(port, river bool) int {
	switch {
	case port && river:
		return t.PortRiver
	case port:
		return t.Port
	case river:
		return t.InlandRiver
	}
	return t.Inland
}
