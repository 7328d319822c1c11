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
	// WallsStopOverrun: forces holding a city (the city's controller and
	// its allies in its hex) are never overrun. Both editions put a zone
	// round every city's walls that is "all the stuff that keeps you from
	// just overrunning the place" (1752 and V4, Representing Cities During
	// Battles): a garrison is taken by siege or assault, not by odds.
	WallsStopOverrun bool
}
