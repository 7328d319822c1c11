package ruleset

// SlowingEnemyRules are the rules' "Slowing the Enemy": "If you outnumber the
// enemy's cavalry 2:1, and have at least 1 cavalry figure per 3 enemy infantry,
// and gun models, you can force them to stop and give battle. If they refuse,
// you kill 1 figure per cavalry model you send after them, in excess of the
// enemy's cavalry."
type SlowingEnemyRules struct {
	CavalryOdds        int // 2
	InfantryPerCavalry int // 3
}
