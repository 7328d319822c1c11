package reports

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// Input is what a nation's report is built from. Build takes the nation's
// View of State and EventsFor(Events, Nation) itself, so a caller cannot hand
// it more than the nation may know.
type Input struct {
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// State is the game after the turn: its Turn is the turn the next
	// orders are for.
	State *engine.State
	// Events are every event of the turn just resolved, as engine.Resolve
	// returned them; empty for the starting report.
	Events []engine.Event
	Nation game.NationID
	// GameName is the game's title for the cover; default the map's name.
	GameName string
	// Deadline is when the next orders are due (zero: none printed), Zone
	// the game's time zone to print it in (nil: Deadline's own).
	Deadline time.Time
	Zone     *time.Location
	// Rulings are the referee's rulings of the turn (plain data until the
	// rulings are typed engine input); a nation sees the public ones and
	// those naming it.
	Rulings []Ruling
	// Previous is the nation's report of the turn before, for last-seen
	// intelligence and the treasury brought forward; nil for none. Build
	// reads only its Turn, Foreign, LastSeen and Treasury.Total, and what it
	// carries of Foreign (the forces seen beyond their size, each with its
	// ID) does not depend on that turn's events: a report built only to be
	// the Previous of the next may leave Events out
	// (TestChainWithoutEarlierEvents).
	Previous *Model
	// Notes are the daemon's notices to the nation about the turn (it sent
	// no orders and held on defend; the report corrects an earlier one),
	// put first in the month's summary.
	Notes []string
	// Narrate tells the battles, sieges and encounters among the nation's
	// events; nil means Narrate (the package's plain sentences). It must
	// read only the events it is given.
	Narrate func(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative
	// Ledger turns the nation's money events into ledger lines; nil means
	// MoneyLedger.
	Ledger func(m *hexmap.Map, nation game.NationID, events []engine.Event) []LedgerLine
}

// Ruling is one ruling of the referee.
type Ruling struct {
	Text    string
	Nations []game.NationID `json:",omitempty"`
	Public  bool            `json:",omitempty"`
}

// Build makes a nation's report model: from engine.View of the state and
// engine.EventsFor of the turn's events for that nation, and from the map,
// the ruleset, the calendar and the deadline. It is a pure function of its
// input.
func Build(in Input) (*Model, error) {
	if in.Map == nil || in.Rules == nil || in.State == nil {
		return nil, errors.New("report: the map, the ruleset and the state are required")
	}
	nat, ok := in.Map.Nation(in.Nation)
	if !ok {
		return nil, fmt.Errorf("report: nation %q is not in the game", in.Nation)
	}
	st := in.State
	view := engine.View(in.Map, in.Rules, st, in.Nation)
	seen := engine.EventsFor(in.Events, in.Nation)
	b := &builder{in: in, m: in.Map, rules: in.Rules, nation: in.Nation, seen: seen}
	md := &Model{
		Schema:     SchemaVersion,
		Ruleset:    in.Rules.ID,
		Game:       st.Game,
		GameName:   in.GameName,
		Nation:     in.Nation,
		NationName: nat.Name,
		Letter:     nat.Letter,
		Turn:       st.Turn,
		TurnLabel:  st.Calendar.Label(st.Turn),
		// A quiet month (no event the nation saw) after the first turn
		// is not the opening.
		Starting: len(in.Events) == 0 && st.Turn <= 1,
		YearEnd:  st.Calendar.Date(st.Turn).IsYearEnd(),
		Deadline: FormatDeadline(in.Deadline, in.Zone),
	}
	if md.GameName == "" {
		md.GameName = in.Map.Name
	}
	if !md.Starting {
		md.ResolvedTurn = max(st.Turn-1, 1)
		md.Resolved = st.Calendar.Label(md.ResolvedTurn)
	}
	b.known = knownIDs(seen)
	b.supply = map[game.ForceID]*engine.SupplyTraced{}
	for _, e := range seen {
		if s, ok := e.(*engine.SupplyTraced); ok {
			b.supply[s.Force] = s
		}
	}
	b.own(md, view)
	b.foreign(md, view)
	b.cities(md, view)
	b.treasury(md, view)
	b.treaties(md, view, st.Calendar)
	for _, r := range in.Rulings {
		if r.Public || slices.Contains(r.Nations, in.Nation) {
			md.Rulings = append(md.Rulings, r.Text)
		}
	}
	for _, n := range view.Nations {
		name := string(n.ID)
		if gn, ok := in.Map.Nation(n.ID); ok {
			name = gn.Name
		}
		md.Nations = append(md.Nations, NationLine{ID: n.ID, Name: name, Eliminated: n.Eliminated})
	}
	md.Scouting = b.scouting()
	narrate, ledger := in.Narrate, in.Ledger
	if narrate == nil {
		narrate = Narrate
	}
	if ledger == nil {
		ledger = Ledger
	}
	md.Battles = narrate(in.Map, in.Nation, seen)
	md.Movements = b.movements()
	md.Treasury.Ledger = append(md.Treasury.Ledger, ledger(in.Map, in.Nation, seen)...)
	md.Summary = append(slices.Clone(in.Notes), b.summary(md)...)
	md.Template = Template(md)
	return md, nil
}

// builder carries one Build call.
type builder struct {
	in     Input
	m      *hexmap.Map
	rules  *ruleset.Ruleset
	nation game.NationID
	seen   []engine.Event
	// known are the strings the nation's events carry: a foreign force's ID
	// among them was named to the nation this turn.
	known  map[string]bool
	supply map[game.ForceID]*engine.SupplyTraced
}

// knownIDs collects every string value the events carry: the force IDs
// (and names) the nation was told this turn, whatever the event kind.
func knownIDs(events []engine.Event) map[string]bool {
	out := map[string]bool{}
	for _, e := range events {
		engine.EventStrings(e, func(s string) { out[s] = true })
	}
	return out
}

// Where prints a place for people: "0812 (Konigsfeld)", "S2 (Baltic)".
func Where(m *hexmap.Map, p game.Place) string {
	if p.IsSea() {
		if s, ok := m.Sea(p.Sea); ok && s.Name != "" {
			return fmt.Sprintf("%s (%s)", s.ID, s.Name)
		}
		return string(p.Sea)
	}
	if p.Hex.IsZero() {
		return ""
	}
	return m.HexLabel(p.Hex)
}

// FormatDeadline prints a deadline in the game's zone, or "" for none.
func FormatDeadline(t time.Time, zone *time.Location) string {
	if t.IsZero() {
		return ""
	}
	if zone != nil {
		t = t.In(zone)
	}
	return t.Format("Monday 2 January 2006, 15:04 MST")
}

func (b *builder) own(md *Model, v *engine.NationView) {
	aboard := map[game.ForceID][]game.ForceID{}
	for _, f := range v.Own {
		if f.Aboard != "" {
			aboard[f.Aboard] = append(aboard[f.Aboard], f.ID)
		}
	}
	for i := range v.Own {
		f := &v.Own[i]
		o := OwnForce{
			ID: f.ID, Nation: f.Nation, At: f.At, Where: Where(b.m, f.At), Aboard: f.Aboard,
			Troops: f.Troops, Guns: f.Guns, Leaders: f.Leaders,
			Figures: f.Figures(), Size: b.rules.SizeClasses.Troops(f.FightingFigures()),
			Stance: f.Stance.String(), Standing: standing(f.Standing),
			Unsupplied: f.Unsupplied, Garrison: f.Garrison, Fieldworks: f.Fieldworks,
		}
		for _, t := range f.Troops {
			o.Exhausted += t.Exhausted
		}
		if s, ok := b.supply[f.ID]; ok {
			if s.Supplied {
				o.SupplyAt = b.sourcePlace(v, s.Source)
			}
			switch {
			case s.Supplied && s.MP > 0:
				o.Supply = fmt.Sprintf("%s, %d MP", s.Source, s.MP)
			case s.Supplied:
				o.Supply = s.Source
			default:
				o.Supply = "unsupplied: " + s.Reason
			}
		}
		if f.IsFleet() {
			sh := f.Ships
			o.Ships = &sh
			o.Stance = "seek battle"
			if f.Standing.AvoidBattle {
				o.Stance = "avoid battle"
			}
			o.MP = b.rules.SeaMovement.FleetMP(f.Ships)
			o.Size = b.rules.SizeClasses.Ships(f.Ships.Total())
			o.Cargo = aboard[f.ID]
			o.CargoCapacity = f.Ships.AllTransports() * b.rules.Cargo.Capacity
			for _, id := range o.Cargo {
				for j := range v.Own {
					if v.Own[j].ID == id {
						o.CargoPoints += b.rules.Cargo.PointsOf(&v.Own[j])
					}
				}
			}
			md.Fleets = append(md.Fleets, o)
			continue
		}
		if row, ok := b.rules.Movement.Rows[ruleset.ClassOf(f)]; ok {
			o.MP = row.MP
		}
		md.Forces = append(md.Forces, o)
	}
	for _, d := range v.Depots {
		md.Depots = append(md.Depots, Depot{ID: d.ID, Nation: d.Nation, Where: Where(b.m, d.At), Aboard: d.Aboard, GrantedTo: d.GrantedTo})
	}
}

// sourcePlace finds where a supply trace's source ("depot E-D1", "city
// Altburg") stands, or nil.
func (b *builder) sourcePlace(v *engine.NationView, source string) *game.Place {
	kind, name, _ := strings.Cut(source, " ")
	switch kind {
	case "depot":
		for _, d := range v.Depots {
			if d.ID == name {
				p := d.At
				return &p
			}
		}
	case "city":
		if c, ok := b.m.City(name); ok {
			p := game.AtHex(c.Hex)
			return &p
		}
	}
	return nil
}

// standing prints standing orders.
func standing(s game.StandingOrders) string {
	var parts []string
	switch {
	case s.RetreatBelow < 0:
		parts = append(parts, "always retreat")
	case s.RetreatBelow > 0:
		parts = append(parts, "retreat at "+ratio(s.RetreatBelow))
	}
	if s.Pursue {
		parts = append(parts, "pursue")
	}
	if s.Continue {
		parts = append(parts, "continue after contact")
	}
	if s.SlowEnemy {
		parts = append(parts, "slow enemy")
	}
	return strings.Join(parts, ", ")
}

// ratio prints 1.5 as "3:2" and 2 as "2:1".
func ratio(x float64) string {
	for d := 1; d <= 4; d++ {
		n := x * float64(d)
		if n == float64(int(n)) {
			return fmt.Sprintf("%d:%d", int(n), d)
		}
	}
	return fmt.Sprintf("%.2f:1", x)
}

func (b *builder) foreign(md *Model, v *engine.NationView) {
	now := map[game.ForceID]bool{}
	for _, ff := range v.Foreign {
		f := Foreign{Nation: ff.Nation, At: ff.At, Where: Where(b.m, ff.At), Size: ff.Size, Ships: ff.Ships}
		if b.known[string(ff.ID)] || ff.Level > ruleset.LevelSize {
			f.ID = ff.ID
		}
		if ff.Level > ruleset.LevelSize {
			now[ff.ID] = true
			fillRevealed(&f, ff)
		}
		md.Foreign = append(md.Foreign, f)
	}
	if b.in.Previous == nil {
		return
	}
	cal := b.in.State.Calendar
	for _, src := range [][]Foreign{b.in.Previous.Foreign, b.in.Previous.LastSeen} {
		for _, f := range src {
			if f.ID == "" || f.Level == "" || f.Level == "size" || now[f.ID] {
				continue
			}
			if slices.ContainsFunc(md.LastSeen, func(x Foreign) bool { return x.ID == f.ID }) {
				continue
			}
			if f.SeenTurn == 0 {
				// Intelligence in the previous report was gathered in
				// the turn it told of.
				f.SeenTurn = max(b.in.Previous.Turn-1, 1)
			}
			f.Seen = seenLabel(cal, f.SeenTurn)
			f.Age = b.in.State.Turn - 1 - f.SeenTurn
			md.LastSeen = append(md.LastSeen, f)
		}
	}
	slices.SortStableFunc(md.LastSeen, func(a, b Foreign) int { return game.CompareForceIDs(a.ID, b.ID) })
}

// seenLabel prints the month of a turn without "Turn n, ": "May 1752".
func seenLabel(c game.Calendar, turn int) string {
	l := c.Label(turn)
	if _, after, ok := strings.Cut(l, ", "); ok {
		return after
	}
	return l
}

func fillRevealed(f *Foreign, ff engine.ForeignForce) {
	f.Level = engine.LevelName(ff.Level)
	f.Arms = ff.Arms
	f.HasGeneral = ff.HasGeneral
	f.Approx = approxTexts(ff)
	f.ShipCounts = ff.ShipCounts
	f.LeaderNames = ff.LeaderNames
	f.Troops = ff.Troops
	f.Guns = ff.Guns
	f.Leaders = ff.Leaders
	f.Unsupplied = ff.Unsupplied
}

func (b *builder) cities(md *Model, v *engine.NationView) {
	for _, c := range v.Cities {
		s := ""
		if c.Siege != game.NotBesieged {
			s = c.Siege.String()
		}
		md.Cities = append(md.Cities, City{Name: c.Name, Hex: c.Hex, Controller: c.Controller, Loyalty: c.Loyalty, Siege: s})
	}
}

func (b *builder) treasury(md *Model, v *engine.NationView) {
	md.Treasury.Cities, md.Treasury.Total = heldTreasuries(b.m, b.in.State, b.nation)
	if p := b.in.Previous; p != nil && p.Treasury.Total != md.Treasury.Total {
		md.Treasury.Ledger = append(md.Treasury.Ledger,
			LedgerLine{What: "brought forward", Crowns: p.Treasury.Total},
			LedgerLine{What: "change this turn", Crowns: md.Treasury.Total - p.Treasury.Total})
	}
}

func (b *builder) treaties(md *Model, v *engine.NationView, cal game.Calendar) {
	for _, t := range v.Treaties {
		tr := Treaty{ID: t.ID, Title: t.Title, Parties: t.Parties, Text: t.Text, Attested: t.Attested}
		if t.Published > 0 {
			tr.Published = cal.Label(t.Published)
		}
		md.Treaties = append(md.Treaties, tr)
	}
}

func (b *builder) scouting() []Scouting {
	var out []Scouting
	for _, e := range b.seen {
		s, ok := e.(*engine.Scouted)
		if !ok || s.Nation != b.nation {
			continue
		}
		out = append(out, Scouting{
			Scouts: s.Scouts, Target: s.Target, Of: s.TargetNation,
			Where: Where(b.m, s.Learned.At), Level: s.LevelName, Learned: describeForeign(b.m, s.Learned),
		})
	}
	return out
}

// describeForeign says in words what a scouting result shows.
func describeForeign(m *hexmap.Map, ff engine.ForeignForce) string {
	var parts []string
	if ff.Size != "" {
		parts = append(parts, "size "+string(ff.Size))
	}
	if ff.Ships != "" {
		parts = append(parts, "fleet "+string(ff.Ships))
	}
	switch {
	case len(ff.Troops) > 0 || len(ff.Guns) > 0:
		var ts []string
		for _, t := range ff.Troops {
			ts = append(ts, troopText(t))
		}
		for _, g := range ff.Guns {
			ts = append(ts, gunsText(g))
		}
		parts = append(parts, strings.Join(ts, ", "))
	case len(ff.Approx) > 0 || ff.ApproxGuns > 0:
		parts = append(parts, strings.Join(approxTexts(ff), ", "))
	case len(ff.Arms) > 0:
		parts = append(parts, "arms: "+strings.Join(ff.Arms, ", "))
	}
	if ff.ShipCounts != nil {
		parts = append(parts, shipsText(*ff.ShipCounts))
	}
	switch {
	case len(ff.Leaders) > 0:
		var ls []string
		for _, l := range ff.Leaders {
			ls = append(ls, leaderText(l))
		}
		parts = append(parts, "led by "+strings.Join(ls, ", "))
	case len(ff.LeaderNames) > 0:
		parts = append(parts, "led by "+strings.Join(ff.LeaderNames, ", "))
	case ff.HasGeneral:
		parts = append(parts, "with a general")
	}
	if ff.Unsupplied {
		parts = append(parts, "unsupplied")
	}
	return strings.Join(parts, "; ")
}

// troopText prints troops for people: "84 B infantry", "12 C grenzers", "1
// C gunner" (the order template prints the order keywords instead).
func troopText(t game.Troops) string {
	s := fmt.Sprintf("%d %s %s", t.Count, t.Grade, armNoun(t.Count, t.Arm))
	if t.Exhausted > 0 {
		s += fmt.Sprintf(" (%d exhausted)", t.Exhausted)
	}
	return s
}

// armNoun is an arm's name as a count of n figures needs it: the order
// keyword ("infantry", "light-cavalry", "grenzer"), in the plural for any
// count but one ("12 C grenzers", "1 C gunner", "8 C gunners").
func armNoun(n int, a game.Arm) string {
	noun := a.String()
	if a == game.Gunners {
		noun = "gunner"
	}
	return english.Noun(n, noun)
}

// gunsText prints gun models for people: "1 field-gun", "4 heavy-guns".
func gunsText(g game.Guns) string { return english.Count(g.Count, g.Kind.String()) }

func shipsText(s game.Ships) string {
	var parts []string
	add := func(n int, noun string) {
		if n > 0 {
			parts = append(parts, english.Count(n, noun))
		}
	}
	add(s.Warships, "warship")
	add(s.DamagedWarships, "damaged warship")
	add(s.Transports, "transport")
	add(s.DamagedTransports, "damaged transport")
	return strings.Join(parts, ", ")
}

func leaderText(l game.Leader) string {
	s := l.Name
	if s == "" {
		s = l.ID
	}
	if l.ID != "" && l.ID != l.Name {
		s += " [" + l.ID + "]"
	}
	if l.Experience > 0 {
		s += fmt.Sprintf(", experience %d", l.Experience)
	}
	return s
}

// movements tells the month's news of the nation's own forces, its money
// and its orders (SectionOrders).
func (b *builder) movements() []string {
	var out []string
	for _, e := range b.seen {
		if SectionOf(e) == SectionOrders && !Routine(e) {
			out = append(out, Sentence(b.m, b.nation, e))
		}
	}
	return out
}

func (b *builder) summary(md *Model) []string {
	var out []string
	if md.Starting {
		out = append(out, fmt.Sprintf("The campaign opens. %s has %s and %s; the first orders are for %s.",
			md.NationName, english.Count(len(md.Forces), "land force"), english.Count(len(md.Fleets), "fleet"), md.TurnLabel))
	}
	if n := len(md.Battles); n > 0 {
		out = append(out, fmt.Sprintf("Your forces were in %s this month.", english.Count(n, "engagement")))
	}
	for _, e := range b.seen {
		if t := textFor(e); t.Section == SectionNews || t.News {
			out = append(out, Sentence(b.m, b.nation, e))
		}
	}
	// A treaty is told in the month its publication was resolved (the
	// TreatyPublished event, mailed with this report), not again in the
	// next month's, the turn its Published label names.
	for _, e := range b.seen {
		if t, ok := e.(*engine.TreatyPublished); ok {
			out = append(out, fmt.Sprintf("Treaty %s, %q, was published.", t.Treaty, t.Title))
		}
	}
	if n := len(md.Rulings); n > 0 {
		verb := "concern"
		if n == 1 {
			verb = "concerns"
		}
		out = append(out, fmt.Sprintf("The referee made %s that %s you.", english.Count(n, "ruling"), verb))
	}
	if n := len(md.Scouting); n > 0 {
		out = append(out, fmt.Sprintf("Your scouts reported on %s.", english.Count(n, "foreign force")))
	}
	if len(out) == 0 {
		out = append(out, "A quiet month: no battles, no cities changed hands.")
	}
	return out
}

func nationName(m *hexmap.Map, n game.NationID) string {
	if n == "" {
		return "neutral"
	}
	if x, ok := m.Nation(n); ok {
		return x.Name
	}
	return string(n)
}

// heldTreasuries are the treasuries a nation holds (engine.HeldTreasuries:
// each crown of the game in one nation's list at most) and their sum.
func heldTreasuries(m *hexmap.Map, st *engine.State, n game.NationID) ([]CityMoney, int) {
	var out []CityMoney
	total := 0
	for _, h := range engine.HeldTreasuries(m, st, n) {
		out = append(out, CityMoney{City: h.City, Crowns: h.Crowns})
		total += h.Crowns
	}
	return out, total
}
