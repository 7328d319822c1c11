package ruleset

// RetreatRules are the rules' "Retreat before Battle". Each hex retreated
// costs the RetreatAttrition rates: "A = 5%, B = 10%, C = 15%, D and guns =
// 25%". The editions differ in what follows:
//
//	1752: "… with the same percentage becoming exhausted."
//	V4:   "A force only suffers retreat losses if it is in the same hex with
//	      the enemy, or is retreating past its normal movement allowance."
type RetreatRules struct {
	Attrition AttritionRates
	// ExhaustSamePercent (1752): the same percentage of the survivors becomes
	// exhausted.
	ExhaustSamePercent bool
	// LossOnlyInContactOrBeyondMA (V4): no loss for a retreat that starts from
	// an adjacent hex and stays within the force's movement allowance.
	LossOnlyInContactOrBeyondMA bool
}
