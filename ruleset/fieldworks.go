package ruleset

// FieldworksRules are the rules' "Fieldworks": how many inches a force may
// build from its infantry.
//
//	1752: "You may build 1" of fieldworks per infantry figure in your force."
//	V4:   "You may buy 1 4" section of fieldworks per 4 infantry figures in
//	      your force, up to 6 sections maximum."
type FieldworksRules struct {
	// A force may build one section of SectionInches for every
	// InfantryPerSection infantry figures.
	SectionInches, InfantryPerSection int
	// MaxSections caps the sections (0: no cap).
	MaxSections int
	// Rule says the limit in words, for the order checker's messages.
	Rule string
}

// Limit returns the most inches of fieldworks a force with the given
// infantry may build.
func (f FieldworksRules) Limit(infantry int) int {
	if f.InfantryPerSection <= 0 {
		return 0
	}
	sections := infantry / f.InfantryPerSection
	if f.MaxSections > 0 {
		sections = min(sections, f.MaxSections)
	}
	return sections * f.SectionInches
}
