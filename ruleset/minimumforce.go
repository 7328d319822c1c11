package ruleset

// MinimumForceSizes are the rules' "Minimum Force Sizes": "A force of 9 or
// fewer figures in a foreign city is killed off by the local militia. A force
// of 9 or fewer figures not in a city, including at sea, deserts/dies off
// unless it has a general with it. A force of 4 or fewer figures in a friendly
// town without a general deserts."
type MinimumForceSizes struct {
	ForeignCityMilitia  int // ≤ 9 killed
	OutsideCityDeserts  int // ≤ 9 without a general
	FriendlyTownDeserts int // ≤ 4 without a general
}
