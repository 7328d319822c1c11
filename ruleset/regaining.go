package ruleset

// Fraction is num/den of something, as the post-battle rules give them.
type Fraction struct{ Num, Den int }

// RegainRules are "Regaining Battle Losses", for the winner and the loser:
// the fraction of killed figures and of figures routed off or rout hits that
// return. 1752: winner 3/4 and all, loser 1/2 and 3/4. V4: winner 1/2 and 2/3,
// loser 1/4 and 1/3.
type RegainRules struct {
	WinnerKilled, WinnerRouted Fraction
	LoserKilled, LoserRouted   Fraction
}

func regain1752() RegainRules {
	return RegainRules{WinnerKilled: Fraction{3, 4}, WinnerRouted: Fraction{1, 1}, LoserKilled: Fraction{1, 2}, LoserRouted: Fraction{3, 4}}
}

func regainV4() RegainRules {
	return RegainRules{WinnerKilled: Fraction{1, 2}, WinnerRouted: Fraction{2, 3}, LoserKilled: Fraction{1, 4}, LoserRouted: Fraction{1, 3}}
}
