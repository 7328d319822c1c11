package ruleset

// YearEndRules are the readings pbem makes of "Collecting Taxes, Buying and
// Fielding Troops", "Your Capitol City" and the victory condition where the
// rulebook is silent (docs/rules-notes.md §The year-end). Both editions
// print the same year-end rules; these are parameters so a referee can choose.
type YearEndRules struct {
	// Unfielded says what happens at the year-end to a force or depot that
	// the nation's sheet neither fields nor disbands ("You must then field
	// any existing troops you want to keep"): UnfieldedKeep (the default)
	// fields it after the sheet's own orders, in force order then depot
	// order, while the treasury can pay, and disbands the rest; a nation
	// that sends no year-end sheet keeps what it can pay for.
	// UnfieldedDisband reads the rule strictly: only what the sheet fields
	// is kept.
	Unfielded UnfieldedDefault
	// VictoryTie says what a tie at the largest tax base among nations at or
	// above the victory tax base means ("If several players fulfil this
	// condition the same year, the player with the largest tax base is the
	// winner"; a tie is not covered): TieShared (the default) declares every
	// tied nation a winner; TiePlayOn declares no winner, and the game goes
	// on into the next year.
	VictoryTie TieRule
}

// UnfieldedDefault is the fate of a unit the year-end sheet forgot.
type UnfieldedDefault uint8

// The choices for units nobody fielded.
const (
	UnfieldedKeep UnfieldedDefault = iota
	UnfieldedDisband
)

// String names the choice as the docs write it.
func (u UnfieldedDefault) String() string {
	if u == UnfieldedDisband {
		return "disband"
	}
	return "keep"
}

// TieRule is how a victory tie is settled.
type TieRule uint8

// The tie rules.
const (
	TieShared TieRule = iota
	TiePlayOn
)

// String names the tie rule as the docs write it.
func (t TieRule) String() string {
	if t == TiePlayOn {
		return "play-on"
	}
	return "shared"
}
