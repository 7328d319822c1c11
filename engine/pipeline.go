package engine

// The pipeline: a turn is resolved by a fixed list of named steps, run in
// order, each a function of the working turn that emits events. A referee
// reading an event's Step finds the step here; a later issue fills its own
// step in place without touching the others.
//
// Monthly turn (monthlySteps):
//
//  1. orders        — sanitise: every order is checked for its nation, turn and
//     kind, and sorted into the step that carries it out; of two orders of
//     a kind for one force, the first counts (onceKey).
//     rulings       — the referee's approved rulings (Input.Rulings): treasury
//     changes, units added or removed, forces placed, loyalty, treaty
//     breaches and lifted penalties (rulings.go).
//     treaties      — public treaties attested by every party during the
//     turn are published (yearend_treaties.go).
//  2. organisation  — standing orders (stance, retreat, pursue, continue,
//     slow, fleet stance), then split, merge, assign and detach leaders,
//     garrison, depot grants, special requests; minimum sizes after splits.
//  3. supply        — the start-of-turn supply trace ("unsupplied unless at
//     the start of the current turn it can trace an LOS"): sets
//     Force.Unsupplied.
//  4. movement      — land and sea movement on one 120-tick clock, with
//     contact: embarking, overruns, cavalry slowing, Grenzers filtering,
//     retreat before battle and pursuit, fleets meeting, debarking and
//     landings (movement.go, contact.go, sea.go).
//  5. scouting      — forces in adjacent hexes at the end of movement scout
//     each other (scouting at contact happens in movement).
//  6. battles       — land battles (battles.go, engine/battle): fieldworks
//     dug, each battle set up, fought by the ruleset's model (or taken from a
//     referee's tabletop result), the post-battle rules applied, the beaten
//     side retreated; a LandBattle event each.
//  7. sieges        — sieges and masking, assaults, siege losses,
//     overcrowding, counter-battery fire, breaches and surrender, walls
//     repaired (sieges.go).
//  8. sea-battles   — sea battles on the Sea Battle CRT, prizes and
//     escapes; prisoners landed (seabattle.go). Repairs are the repairs step
//     before end-of-turn (repairs.go).
//  9. attrition     — supply attrition of forces unsupplied at the start of
//     the turn (A 5, B and guns 10, C 15, D 25%).
//  10. minimum-sizes — forces with nothing left leave the game; minimum force
//     sizes (militia, desertion).
//  11. captures     — cities captured, garrisons killed by the townsfolk.
//     repairs       — damaged ships that spent the whole turn in their own
//     port under a REPAIR order are repaired and paid for (repairs.go).
//  12. end-of-turn  — exhaustion recovery, scouting intelligence stored in
//     State.Intel, Turn+1, normalised state.
//
// Year-end turn (yearEndSteps, selected when the calendar says the turn is
// the year-end): orders, rulings, then treaties (yearend_treaties.go), taxes
// (yearend_taxes.go), loyalty (yearend_loyalty.go), fielding
// (yearend_fielding.go), purchases (yearend_buy.go), transfers
// (yearend_transfers.go) and end-of-turn.
type pipelineStep struct {
	Name string
	run  func(*turn)
}

var monthlySteps = []pipelineStep{
	{"orders", (*turn).stepOrders},
	{"rulings", (*turn).stepRulings},
	{"treaties", (*turn).stepTreaties},
	{"organisation", (*turn).stepOrganisation},
	{"supply", (*turn).stepSupply},
	{"movement", (*turn).stepMovement},
	{"scouting", (*turn).stepScouting},
	{"battles", (*turn).stepBattles},
	{"sieges", (*turn).stepSieges},
	{"sea-battles", (*turn).stepSeaBattles},
	{"attrition", (*turn).stepAttrition},
	{"minimum-sizes", (*turn).stepMinimumSizes},
	{"captures", (*turn).stepCaptures},
	{"repairs", (*turn).stepRepairs},
	{"end-of-turn", (*turn).stepEndOfTurn},
}

var yearEndSteps = []pipelineStep{
	{"orders", (*turn).stepOrders},
	{"rulings", (*turn).stepRulings},
	{"treaties", (*turn).stepYearEndTreaties},
	{"taxes", (*turn).stepYearEndTaxes},
	{"loyalty", (*turn).stepYearEndLoyalty},
	{"fielding", (*turn).stepYearEndFielding},
	{"purchases", (*turn).stepYearEndPurchases},
	{"transfers", (*turn).stepYearEndTransfers},
	{"end-of-turn", (*turn).stepEndOfTurn},
}

// Steps lists the names of the pipeline's steps, in order: the monthly
// pipeline, or the year-end one.
func Steps(yearEnd bool) []string {
	steps := monthlySteps
	if yearEnd {
		steps = yearEndSteps
	}
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Name
	}
	return out
}

// The year-end steps (treaties, taxes, loyalty, fielding, purchases,
// transfers) are in yearend_*.go; they read their orders through
// ordersOfKind.
