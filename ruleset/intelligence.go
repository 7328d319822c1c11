package ruleset

// IntelligenceSizeClasses are the rules' "General Intelligence": "Small: 3 or
// fewer ships, 100 or fewer land troops. Large: 4-8 ships, 101-300 land troops.
// Huge: 9+ ships, 301+ land troops. Generals, gunners, and guns do not count
// toward these totals."
type IntelligenceSizeClasses struct {
	SmallTroops, LargeTroops int // ≤100 small, ≤300 large, above huge
	SmallShips, LargeShips   int // ≤3, ≤8
}

// SizeClass is the general-intelligence description of a foreign force.
type SizeClass string

// The size classes.
const (
	Small SizeClass = "small"
	Large SizeClass = "large"
	Huge  SizeClass = "huge"
)

// Troops classifies a count of land troops (infantry and cavalry).
func (s IntelligenceSizeClasses) Troops(n int) SizeClass {
	switch {
	case n <= s.SmallTroops:
		return Small
	case n <= s.LargeTroops:
		return Large
	}
	return Huge
}

// Ships classifies a count of ships.
func (s IntelligenceSizeClasses) Ships(n int) SizeClass {
	switch {
	case n <= s.SmallShips:
		return Small
	case n <= s.LargeShips:
		return Large
	}
	return Huge
}
