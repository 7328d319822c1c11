package ruleset

// SupplyRules are the rules' "Supply" section.
type SupplyRules struct {
	// RangeMP: "An LOS may be up to 12 MP long (18 MP for Grenzlers)", traced
	// at the artillery rate.
	RangeMP, GrenzerRangeMP int
	// BlockingFigures: "A force of 100 or more infantry and/or cavalry figures
	// blocks an LOS through its hex … It also blocks LOS through an adjacent
	// hex empty of enemy troops."
	BlockingFigures int
	// ProtectRadius: "unless there is a larger force acting to protect the LOS
	// within 2 hexes of the blocking force".
	ProtectRadius int
	// CityBlocksAs: "An enemy city acts as a 100-figure force for purposes of
	// blocking LOS. It must be loyal to the player doing the blocking."
	CityBlocksAs int
	// UnsuppliedPenalty: "-1 on shooting and morale die rolls and -1 combat
	// point" (carried to the battle resolver).
	UnsuppliedPenalty int
}
