package ruleset

// OverrunRules are the rules' "Force Sizes and Overrun Attacks": "If the odds
// are 7:1 or greater the attackers overrun the defenders at no MP cost. If the
// odds are 6:1 or greater they must use an extra 1/6 of a move (rounded up to
// the nearest MP) … For overruns I will use the assault table to decide the
// damage the defenders inflict before they are wiped out."
type OverrunRules struct {
	FreeOdds       int // 7
	OneSixthOdds   int // 6
	BattleFraction int // a battle, assault or costly overrun uses 1/6 of a move: 6
}
