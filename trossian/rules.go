package trossian

import "fmt"

// Rules is one edition of the Trossian campaign's rules: every number the
// engine reads, each table named after the rule and quoting it. Where 004
// reads loosely the reading is a field here, with the quote it interprets
// and the plausible default; docs/rules-notes.md (§The Trossian campaign)
// lists them. Trossian1801 returns a fresh value; a game may change a
// parameter on its copy (WithParam).
type Rules struct {
	// ID is the ruleset's key in config and the store: "trossian".
	ID   string
	Name string

	Speeds     SpeedTable
	Costs      CostTable
	Income     IncomeTable
	PostBattle PostBattleTable
	Battles    BattleRules
	Leaderless LeaderlessRules
	Navies     NavyRules
	Frozen     FrozenRules
	Couriers   CourierRules
	Control    ControlRules
	Recruits   RecruitRules
	Chance     ChanceRules
	Intel      IntelRules
}

// SpeedTable is "Movement rates": provinces a phase.
type SpeedTable struct {
	// Foot is infantry's and artillery's ("Infantry and artillery move one
	// province per phase"), Mounted cavalry's and the HQ's ("Mounted move
	// two provinces per phase"), Courier a courier's ("Couriers move four
	// provinces per phase").
	Foot, Mounted, Courier int
	// RoadBonus: "An entire move along a road adds one province to any
	// unit's speed".
	RoadBonus int
	Rule      string
}

// Of returns the speed of a force with these stands: its slowest stand's.
func (t SpeedTable) Of(s Stands) int {
	speed := t.Mounted
	for _, x := range s {
		if !x.Type.Mounted() {
			speed = min(speed, t.Foot)
		}
	}
	return speed
}

// CostTable is "Troop costs from the rules" and what "players may purchase"
// besides, in AP; a type without a price cannot be bought. Value is what a
// stand is worth where 004 counts AP of troops (20AP to pacify, 20AP aboard
// a navy), including the unpriced militia.
type CostTable struct {
	Unit      map[UnitType]int
	Messenger int
	Navy      int
	// Value is each type's AP worth; HQ counts 0 for loading ("Couriers and
	// HQ do not count as an AP for loading purposes") through LoadFree.
	Value    map[UnitType]int
	LoadFree map[UnitType]bool
	Rule     string
}

// Worth returns the AP value of stands (pacification, sieges).
func (t CostTable) Worth(s Stands) int {
	n := 0
	for _, x := range s {
		n += t.Value[x.Type] * x.Count
	}
	return n
}

// Load returns the AP stands take aboard a navy.
func (t CostTable) Load(s Stands) int {
	n := 0
	for _, x := range s {
		if !t.LoadFree[x.Type] {
			n += t.Value[x.Type] * x.Count
		}
	}
	return n
}

// IncomeTable is "A national treasury receives AP after the Late Autumn".
type IncomeTable struct {
	Plain, Town, Port int
	Rule              string
}

// FateRow is one line of the post-battle sequence: units of one fate die
// one D6 each and are eliminated on EliminatedOn or less (0: they do not
// roll); Modified rows take the Guard/HQ/militia modifiers.
type FateRow struct {
	EliminatedOn int
	Modified     bool
	Rule         string
}

// OutcomeRows are the three lines of one outcome's list: units destroyed
// during the game, units remaining on the table, units routed off it.
type OutcomeRows struct {
	Destroyed, Remained, Routed FateRow
}

// PostBattleTable is "Post Battle Sequence" for the winner, the loser and a
// draw, and the modifiers' reading.
type PostBattleTable struct {
	Win, Loss, Draw OutcomeRows
	// Modifiers is the reading of the Guard/HQ/militia signs (ModifierTougher
	// or ModifierAsWritten).
	Modifiers string
	// Tough and Weak are the modifiers' sizes: 1 each.
	Tough, Weak int
	Rule        string
}

// The readings of the post-battle modifiers. "For the winning army: …
// (Guard and HQ units get a -1 to this roll, militia +1.)", the same for
// the loser, but "For a draw: … (Guard and HQ units get a +1 to this roll,
// militia -1.)" — with elimination on low rolls the draw's signs make Guard
// and HQ tougher and the others' weaker: a sign slip in one list.
const (
	// ModifierTougher (the default): Guard and HQ are the tougher in every
	// list — +1 to the roll, militia −1.
	ModifierTougher = "tougher"
	// ModifierAsWritten: the signs as 004 prints each list.
	ModifierAsWritten = "as-written"
)

// Modifier returns the roll's modifier for a stand of a fate row of an
// outcome ("win", "loss", "draw").
func (t PostBattleTable) Modifier(outcome string, row FateRow, s Stand) int {
	if !row.Modified {
		return 0
	}
	tough := s.Guard || s.Type == HQ
	weak := s.Type == Militia && !s.Guard
	sign := 1 // tougher: a higher roll survives
	if t.Modifiers == ModifierAsWritten && outcome != "draw" {
		sign = -1
	}
	switch {
	case tough:
		return sign * t.Tough
	case weak:
		return -sign * t.Weak
	}
	return 0
}

// Rows returns an outcome's rows.
func (t PostBattleTable) Rows(outcome string) OutcomeRows {
	switch outcome {
	case "win":
		return t.Win
	case "loss":
		return t.Loss
	}
	return t.Draw
}

// BattleRules are the movement rules that follow a battle.
type BattleRules struct {
	// VictorStands: "An army victorious in the field must spend one full
	// phase stationary"; DrawStands: "Both armies must retreat one province
	// and cannot move in the following phase". Phases.
	VictorStands, DrawStands int
	// CitiesStopMarches: a march ends on entering a hostile town or port
	// ("Every city possesses a garrison of troops that will defend the city
	// from invasion").
	CitiesStopMarches bool
	Rule              string
}

// The readings of "An army that loses its last HQ will either hunker down
// and wait for orders or will march to the nearest Home City for safety."
const (
	LeaderlessHunker = "hunker"
	LeaderlessHome   = "home"
)

// LeaderlessRules are "On the issue of Generals and Detachments".
type LeaderlessRules struct {
	// NoContact: "An army without an HQ will not move to contact an enemy
	// force, but may be attacked."
	NoContact bool
	// OnLoss is LeaderlessHunker (the default) or LeaderlessHome.
	OnLoss string
	// DetachNeedsHQ: "4AP: HQ (Required for every detachment)".
	DetachNeedsHQ bool
	Rule          string
}

// NavyRules are "Naval Considerations".
type NavyRules struct {
	Actions      int // "Navies can take four actions per phase"
	Capacity     int // "A single navy can transport up to 20AP worth of units at a time"
	PortLoad     int // "Embark/Disembark up to 20AP worth of troops at a friendly port"
	BeachLoad    int // "Embark/Disembark 10AP worth of units at a non-port province"
	PortCapacity int // "Each port can hold a maximum of two navies"
	// UnitLostOn: "any result of 1 indicating a loss of that unit".
	UnitLostOn int
	// NoRetreatLost: a beaten navy with no lane to retreat to is lost (the
	// reading of "The losing navy will retreat one sea lane").
	NoRetreatLost bool
	Rule          string
}

// The readings of when navies in a frozen lane are lost: "Navies that are
// present in these lanes in Late Autumn are presumed lost at sea".
const (
	FrozenLossAtStart = "start" // the default: the lanes "freeze early", as Late Autumn begins
	FrozenLossAtEnd   = "end"   // at the end of the Late Autumn phase
)

// FrozenRules are the snowflake lanes: "Navies cannot enter these sea lanes
// in Early Spring or Late Autumn."
type FrozenRules struct {
	Closed []Phase
	// LostIn is the phase navies still in a frozen lane are lost in, and
	// LossAt when in it (FrozenLossAtStart or FrozenLossAtEnd).
	LostIn Phase
	LossAt string
	// CouriersToo: couriers by sea cannot enter a frozen lane either (the
	// ice stops "a small fishing vessel" as it stops a navy).
	CouriersToo bool
	Rule        string
}

// IsClosed reports whether the frozen lanes are closed in a phase.
func (f FrozenRules) IsClosed(p Phase) bool {
	for _, c := range f.Closed {
		if c == p {
			return true
		}
	}
	return false
}

// CourierRules are "Messengers".
type CourierRules struct {
	// InterceptOn: "with each province entered, there is a 1 in 6 chance of
	// failure to pass through" — failure on this or less on a D6.
	InterceptOn int
	// Fates of a courier that fails: "1: Captured!", "2-5: Killed", "6:
	// Captured! False messages/plans" — CapturedOn or less is captured,
	// FalseFrom or more false plans, the rest killed.
	CapturedOn, FalseFrom int
	// Returns: a courier that delivered rides back to the King's seat
	// (and runs the same risks).
	Returns bool
	Rule    string
}

// ControlRules are "Siege Works".
type ControlRules struct {
	// PacifyAP: "20AP worth of troops must spend a full phase".
	PacifyAP int
	// Phases is "a full phase (three months)": 1, the default, reads "a
	// full phase" as 004's unit of time ("each phase lasts approximately one
	// month"); 3 reads the parenthesis (three months, three phases).
	Phases int
	// PortWinterExtra: "the limited shipping during winter months increases
	// the siege cost by one phase".
	PortWinterExtra int
	// WinterCounts: a town's siege goes on through the winter and the
	// winter counts as a phase of it ("Sieges can extend through the
	// winter").
	WinterCounts bool
	Rule         string
}

// The readings of where recruits appear: "Units bought this way will spawn
// in his capital city" (Timing and Scale) against "appear in any controlled
// city province at the start of the Early Spring" (Recruiting).
const (
	RecruitAnyCity = "city" // the default: Recruiting's own words, which the banking rule assumes
	RecruitCapital = "capital"
)

// RecruitRules are "Recruiting".
type RecruitRules struct {
	At string
	// Census: "no force can march with more units than those detailed on
	// the Nations Page" — a kingdom's stands of a type never exceed its
	// census.
	Census bool
	Rule   string
}

// ChanceRules are "Chance Cards": "the umpire will roll 1d10 for each
// nation … On a roll of 10, the umpire shall roll twice, ignoring any
// additional results of 10."
type ChanceRules struct {
	Die, Again, Extra int
	Rule              string
}

// IntelRules say what a kingdom learns of foreign forces: their place when
// they are in or next to its provinces, armies or navies, and their size
// (004 is silent; the SYW rules' general intelligence).
type IntelRules struct {
	SmallStands, LargeStands int
}

// SizeOf names an army's size class.
func (t IntelRules) SizeOf(stands int) string {
	switch {
	case stands <= t.SmallStands:
		return "small"
	case stands <= t.LargeStands:
		return "large"
	}
	return "huge"
}

// Trossian1801 returns the rules of the Trossian campaign (seed 004), each
// doubtful reading at its plausible default.
func Trossian1801() *Rules {
	return &Rules{
		ID:   "trossian",
		Name: "The Trossian Campaign (1801)",
		Speeds: SpeedTable{Foot: 1, Mounted: 2, Courier: 4, RoadBonus: 1,
			Rule: "004 Timing and Scale ¶Movement rates"},
		Costs: CostTable{
			Unit: map[UnitType]int{HQ: 4, LightInfantry: 2, LineInfantry: 2, HeavyInfantry: 3,
				LightCavalry: 3, HeavyCavalry: 3, FootArtillery: 3},
			Messenger: 1, Navy: 10,
			Value: map[UnitType]int{HQ: 4, LightInfantry: 2, LineInfantry: 2, HeavyInfantry: 3, Militia: 2,
				LightCavalry: 3, HeavyCavalry: 3, FootArtillery: 3},
			LoadFree: map[UnitType]bool{HQ: true},
			Rule:     "004 Recruiting ¶Troop costs",
		},
		Income: IncomeTable{Plain: 2, Town: 4, Port: 6, Rule: "004 Recruiting ¶A national treasury receives AP after the Late Autumn"},
		PostBattle: PostBattleTable{
			Win: OutcomeRows{
				Destroyed: FateRow{EliminatedOn: 2, Modified: true, Rule: "\"Dice for all units destroyed during the game. On a 1 or 2 the unit … is eliminated\""},
				Remained:  FateRow{EliminatedOn: 1, Rule: "\"Dice for units remaining on the tabletop … eliminated from the game on a roll of 1\""},
				Routed:    FateRow{EliminatedOn: 1, Rule: "\"Dice for units forced off the table by routing. (Eliminated on a 1.)\""},
			},
			Loss: OutcomeRows{
				Destroyed: FateRow{EliminatedOn: 3, Modified: true, Rule: "\"Dice for all units destroyed during the game. On a 1 to 3 the unit … is eliminated\""},
				Remained:  FateRow{EliminatedOn: 1, Rule: "\"Dice for units remaining on the tabletop … eliminated from the game on a roll of 1\""},
				Routed:    FateRow{EliminatedOn: 2, Rule: "\"Dice for units forced off the table by routing. (Eliminated on a 1 or 2.)\""},
			},
			Draw: OutcomeRows{
				Destroyed: FateRow{EliminatedOn: 2, Modified: true, Rule: "\"Dice for all units destroyed during the game. On a 1 or 2 the unit … is eliminated\""},
				Remained:  FateRow{EliminatedOn: 0, Rule: "the draw's list has no line for units remaining on the table: they do not roll"},
				Routed:    FateRow{EliminatedOn: 1, Rule: "\"Dice for units forced off the table by routing. (All units eliminated on a 1.)\""},
			},
			Modifiers: ModifierTougher, Tough: 1, Weak: 1,
			Rule: "004 Post Battle Sequence",
		},
		Battles: BattleRules{VictorStands: 1, DrawStands: 1, CitiesStopMarches: true,
			Rule: "004 Timing and Scale ¶Movement rates"},
		Leaderless: LeaderlessRules{NoContact: true, OnLoss: LeaderlessHunker, DetachNeedsHQ: true,
			Rule: "004 Timing and Scale ¶Generals and Detachments"},
		Navies: NavyRules{Actions: 4, Capacity: 20, PortLoad: 20, BeachLoad: 10, PortCapacity: 2, UnitLostOn: 1, NoRetreatLost: true,
			Rule: "004 Naval Considerations"},
		Frozen: FrozenRules{Closed: []Phase{EarlySpring, LateAutumn}, LostIn: LateAutumn, LossAt: FrozenLossAtStart, CouriersToo: true,
			Rule: "004 Naval Considerations ¶The four northern sea lanes"},
		Couriers: CourierRules{InterceptOn: 1, CapturedOn: 1, FalseFrom: 6, Returns: true, Rule: "004 Messengers"},
		Control:  ControlRules{PacifyAP: 20, Phases: 1, PortWinterExtra: 1, WinterCounts: true, Rule: "004 Siege Works"},
		Recruits: RecruitRules{At: RecruitAnyCity, Census: true, Rule: "004 Recruiting"},
		Chance:   ChanceRules{Die: 10, Again: 10, Extra: 2, Rule: "004 Chance Cards"},
		Intel:    IntelRules{SmallStands: 6, LargeStands: 16},
	}
}

// IDs lists the Trossian editions.
func IDs() []string { return []string{"trossian"} }

// ByID returns a fresh value of an edition.
func ByID(id string) (*Rules, error) {
	if id == "trossian" {
		return Trossian1801(), nil
	}
	return nil, fmt.Errorf("unknown Trossian ruleset %q: expected one of %v", id, IDs())
}

// Params lists the parameters WithParam sets, each a doubtful reading of
// 004 (docs/rules-notes.md): name, the values it takes, the default.
var Params = []struct{ Name, Values, Default string }{
	{"post-battle-modifiers", "tougher | as-written", ModifierTougher},
	{"pacify-phases", "1 | 2 | 3", "1"},
	{"recruits-at", "city | capital", RecruitAnyCity},
	{"leaderless", "hunker | home", LeaderlessHunker},
	{"frozen-loss", "start | end", FrozenLossAtStart},
	{"courier-returns", "yes | no", "yes"},
	{"winter-siege", "yes | no", "yes"},
}

// WithParam sets one parameter by name (Params); a referee's config or a
// rules case names them.
func (r *Rules) WithParam(name, value string) error {
	yes := func() (bool, error) {
		switch value {
		case "yes", "true":
			return true, nil
		case "no", "false":
			return false, nil
		}
		return false, fmt.Errorf("%s=%s: expected yes or no", name, value)
	}
	switch name {
	case "post-battle-modifiers":
		if value != ModifierTougher && value != ModifierAsWritten {
			return fmt.Errorf("%s=%s: expected tougher or as-written", name, value)
		}
		r.PostBattle.Modifiers = value
	case "pacify-phases":
		switch value {
		case "1", "2", "3":
			r.Control.Phases = int(value[0] - '0')
		default:
			return fmt.Errorf("%s=%s: expected 1, 2 or 3", name, value)
		}
	case "recruits-at":
		if value != RecruitAnyCity && value != RecruitCapital {
			return fmt.Errorf("%s=%s: expected city or capital", name, value)
		}
		r.Recruits.At = value
	case "leaderless":
		if value != LeaderlessHunker && value != LeaderlessHome {
			return fmt.Errorf("%s=%s: expected hunker or home", name, value)
		}
		r.Leaderless.OnLoss = value
	case "frozen-loss":
		if value != FrozenLossAtStart && value != FrozenLossAtEnd {
			return fmt.Errorf("%s=%s: expected start or end", name, value)
		}
		r.Frozen.LossAt = value
	case "courier-returns":
		v, err := yes()
		if err != nil {
			return err
		}
		r.Couriers.Returns = v
	case "winter-siege":
		v, err := yes()
		if err != nil {
			return err
		}
		r.Control.WinterCounts = v
	default:
		return fmt.Errorf("unknown parameter %q", name)
	}
	return nil
}
