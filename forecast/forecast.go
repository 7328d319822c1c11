package forecast

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// Input is what a forecast is made from: the nation's view of the game
// before the turn and its accepted orders for the turn. Nothing else of the
// game's state is read.
type Input struct {
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// View is the nation's view before the turn (engine.View).
	View *engine.NationView
	// Orders are the nation's accepted orders (parser.Report.Orders).
	Orders engine.Orders
	// Hostile decides whether two nations are enemies; nil is
	// engine.DefaultHostility, as the engine's.
	Hostile func(a, b game.NationID) bool
}

// Forecast is what a nation's orders would do this turn if no foreign force
// moved.
type Forecast struct {
	Nation  game.NationID
	Turn    int
	Label   string
	YearEnd bool
	// Forces are the nation's land forces (those made by its SPLIT orders
	// included), by ID.
	Forces []ForceForecast
	// Fleets are its fleets, by ID.
	Fleets []FleetForecast
	// Sieges are its BESIEGE, ASSAULT and BOMBARD orders, city by city.
	Sieges []SiegeForecast
	// Captures are the cities its forces would take at the captures step.
	Captures []string
	// Treasury is the crowns in the treasuries the nation holds now;
	// After what the turn would leave there. Spent is what its orders
	// spend (repairs, purchases), Income what the turn brings (taxes).
	Treasury, After, Spent, Income int
	// Costs are what the crowns are spent on, as the engine charges them.
	Costs []Cost
	// Ignored are orders the engine would not carry out, with its reason.
	Ignored []Ignored
	// view is what the forecast was made from, for its picture.
	view *engine.NationView
	// LandingOdds and WarshipAsInfantry are the rules' coastal landing
	// ratio and what a warship counts for in it.
	LandingOdds, WarshipAsInfantry int
	// Blocking is the rules' strength that blocks a supply line (infantry
	// and cavalry figures in a hex).
	Blocking int
}

// Cost is one charge on the treasury (Crowns below 0: crowns coming in,
// such as taxes).
type Cost struct {
	What   string
	Crowns int
}

// Ignored is an order the engine would not carry out.
type Ignored struct {
	Line   int
	Order  string
	Reason string
}

// Step is one hex (or sea area) entered, with the MP spent so far.
type Step struct {
	At game.Place
	// Cost is the MP this step costs; MP the total spent when there.
	Cost, MP int
	// Road, River: what the step crossed (land).
	Road, River bool
}

// Contact is a known foreign force the forecast meets: in a hex the force
// enters or ends in, or a sea area the fleet sails through.
type Contact struct {
	At     game.Place
	Force  game.ForceID
	Nation game.NationID
	// Size is the force's size class as the view shows it; Ships its
	// fleet's.
	Size  ruleset.SizeClass
	Ships ruleset.SizeClass
}

// ForceForecast is one land force's turn.
type ForceForecast struct {
	ID    game.ForceID
	Start game.Place
	// New is set for a force a SPLIT order makes this turn.
	New bool
	// Path is the march hex by hex; empty for a force that stays.
	Path []Step
	// MP and MA: the MP the march uses of the force's allowance.
	MP, MA int
	End    game.Place
	// Stopped says why the force stops short of its orders ("" when it
	// carries them out or has none to carry out); StopNext is the hex it
	// could not enter.
	Stopped  string
	StopNext game.Hex
	// Ordered is set when the force has a MOVE order.
	Ordered bool
	// Aboard is the fleet the force ends the turn aboard.
	Aboard game.ForceID
	// Embarked is set when it goes aboard a fleet this turn.
	Embarked bool
	// Landed is the hex it debarks at; LandingRefused the engine's
	// reason when the landing fails.
	Landed         game.Hex
	LandingRefused string
	// Supplied, SupplySource, SupplyMP, SupplyReason: the start-of-turn
	// supply trace. SupplyAtRisk is set when foreign forces the view shows
	// could block the line (supplyRisk).
	Supplied     bool
	SupplySource string
	SupplyMP     int
	SupplyReason string
	SupplyAtRisk bool
	// SupplyBlocked is set when they block it even at the least strength
	// their size classes allow: the force will be unsupplied unless they
	// move.
	SupplyBlocked bool
	// NeedsSupply is false for forces of leaders alone (no supply needed).
	NeedsSupply bool
	// Attrition is the supply attrition it would suffer, stack by stack,
	// with the odds of the dice.
	Attrition []engine.LossOdds
	// Disbanded is the engine's reason when the force leaves the game
	// (minimum force sizes).
	Disbanded string
	// Contacts are known foreign forces on its way.
	Contacts []Contact
	// Figures is its size at the start (after organisation).
	Figures int
}

// FleetForecast is one fleet's turn.
type FleetForecast struct {
	ID       game.ForceID
	Start    game.Place
	Path     []Step
	MP, MA   int
	End      game.Place
	Stopped  string
	Ordered  bool
	Cargo    []game.ForceID
	Used     int
	Capacity int
	Contacts []Contact
}

// SiegeForecast is what the nation's siege orders against one city face.
type SiegeForecast struct {
	City       string
	Hex        game.Hex
	Controller game.NationID
	Loyal      bool // the city is loyal to the nation
	Status     game.SiegeStatus
	Breaches   int
	Forces     []game.ForceID
	// Attackers is the infantry and cavalry the nation's forces there
	// bring; Garrison what the view holds of the defenders.
	Attackers int
	Garrison  []Contact
	// GarrisonFigures is the defenders' infantry and cavalry where
	// scouting counted them exactly; GarrisonKnown says so.
	GarrisonFigures int
	GarrisonKnown   bool
	// Needed is the infantry and cavalry a siege needs against the
	// garrison (3:1, 100 before a foreign city) when GarrisonKnown, else the
	// foreign minimum alone.
	Needed   int
	MaskOnly bool
	// HeavyGuns bombarding, and the odds of the breaches they make
	// (index = breaches after the turn) and of the surrender roll.
	HeavyGuns int
	Breach    []float64
	Surrender float64
	// Assault are the assault table's odds for an ASSAULT order
	// (AssaultOrdered) when the garrison is known exactly; nil otherwise.
	Assault        []engine.OutcomeOdds
	AssaultOrdered bool
	AssaultPV      int
	DefenderPV     int
}

// Make forecasts a nation's turn. It fails only when the engine cannot
// resolve the view (no map, no ruleset).
func Make(in Input) (*Forecast, error) {
	if in.View == nil || in.Map == nil || in.Rules == nil {
		return nil, errors.New("forecast: the view, the map and the ruleset are required")
	}
	v := in.View
	hostile := in.Hostile
	if hostile == nil {
		hostile = engine.DefaultHostility
	}
	orders := in.Orders
	orders.Nation, orders.Turn = v.Nation, v.Turn
	st := engine.StateOfView(v)
	res, err := engine.Resolve(engine.Input{Map: in.Map, Rules: in.Rules, State: st, Orders: []engine.Orders{orders}, Hostile: hostile})
	if err != nil {
		return nil, fmt.Errorf("forecast: %w", err)
	}
	fc := &Forecast{Nation: v.Nation, Turn: v.Turn, Label: v.Label, YearEnd: v.Calendar.Date(v.Turn).IsYearEnd(),
		Blocking: in.Rules.Supply.BlockingFigures, view: v,
		LandingOdds: in.Rules.SeaMovement.CoastalLandingOdds, WarshipAsInfantry: in.Rules.SeaMovement.WarshipAsInfantry}
	for _, c := range v.Cities {
		if c.Controller == v.Nation {
			fc.Treasury += c.Treasury
		}
	}
	for _, c := range res.State.Cities {
		if c.Controller == v.Nation {
			fc.After += c.Treasury
		}
	}
	// The forces as the movement step finds them: organised as the sheet
	// says (splits, merges, leaders), supplied or not.
	last := "supply"
	if fc.YearEnd {
		last = "rulings"
	}
	early, err := engine.ResolveSteps(engine.Input{Map: in.Map, Rules: in.Rules, State: st, Orders: []engine.Orders{orders}, Hostile: hostile}, last)
	if err != nil {
		return nil, fmt.Errorf("forecast: %w", err)
	}
	b := &builder{in: in, fc: fc, hostile: hostile, forces: map[game.ForceID]*ForceForecast{}, fleets: map[game.ForceID]*FleetForecast{}}
	for i := range early.State.Forces {
		f := &early.State.Forces[i]
		if f.Nation == v.Nation {
			_, old := st.Force(f.ID)
			b.add(f, !old)
		}
	}
	b.read(res)
	for _, o := range orders.List {
		switch o := o.(type) {
		case engine.Move:
			if ff := b.forces[o.Force]; ff != nil {
				ff.Ordered = true
			}
		case engine.Sail:
			if fl := b.fleets[o.Fleet]; fl != nil {
				fl.Ordered = true
			}
		}
	}
	if !fc.YearEnd {
		b.supplyRisk(orders)
	}
	b.ends(res.State)
	b.contacts()
	b.sieges(orders)
	b.finish(orders)
	return fc, nil
}

// HasMoves reports whether the forecast has a move to draw: a march, a
// voyage or a landing. Without one its map would show nothing the
// nation's report does not.
func (fc *Forecast) HasMoves() bool {
	for _, ff := range fc.Forces {
		if len(ff.Path) > 0 || !ff.Landed.IsZero() {
			return true
		}
	}
	for _, fl := range fc.Fleets {
		if len(fl.Path) > 0 {
			return true
		}
	}
	return false
}

// builder gathers a forecast from the resolved events.
type builder struct {
	in      Input
	fc      *Forecast
	hostile func(a, b game.NationID) bool
	forces  map[game.ForceID]*ForceForecast
	fleets  map[game.ForceID]*FleetForecast
	// start are the nation's forces as the movement step finds them:
	// organised as the sheet says (new ones from SPLIT included).
	start []game.Force
}

func (b *builder) add(f *game.Force, isNew bool) {
	b.start = append(b.start, f.Clone())
	if f.IsFleet() {
		b.fleets[f.ID] = &FleetForecast{ID: f.ID, Start: f.At, End: f.At, MA: b.in.Rules.SeaMovement.FleetMP(f.Ships)}
		return
	}
	b.forces[f.ID] = &ForceForecast{ID: f.ID, Start: f.At, End: f.At, New: isNew, Aboard: f.Aboard,
		MA: b.in.Rules.Movement.Rows[ruleset.ClassOf(f)].MP, Figures: f.Figures(), Supplied: true,
		NeedsSupply: f.Figures() > 0 || f.GunCount() > 0}
}

// read takes the forecast's facts from the events of the resolution.
func (b *builder) read(res *engine.Result) {
	m, rules := b.in.Map, b.in.Rules
	for _, e := range res.Events {
		switch e := e.(type) {
		case *engine.ForceMoved:
			ff := b.forces[e.Force]
			if ff == nil {
				continue
			}
			ff.MP, ff.MA, ff.Stopped = e.MP, e.MA, e.Stopped
			from := e.From
			ff.Start = game.AtHex(e.From)
			f := b.startForce(e.Force)
			spent := 0
			for _, h := range e.Path {
				cost := 0
				if f != nil {
					cost, _ = engine.StepCost(m, rules, ruleset.ClassOf(f), from, h, false)
				}
				spent += cost
				ff.Path = append(ff.Path, Step{At: game.AtHex(h), Cost: cost, MP: spent, Road: m.Road(from, h), River: m.River(from, h)})
				from = h
			}
			if spent != e.MP && len(ff.Path) > 0 {
				// Grenzers infiltrating pay no road rate: the engine's total
				// stands, the steps share it as the map's costs say.
				ff.Path[len(ff.Path)-1].MP = e.MP
			}
		case *engine.MoveStopped:
			if ff := b.forces[e.Force]; ff != nil {
				if ff.Stopped == "" {
					ff.Stopped = e.Reason
				}
				ff.StopNext = e.Next
			} else if fl := b.fleets[e.Force]; fl != nil && fl.Stopped == "" {
				fl.Stopped = e.Reason
			}
		case *engine.SeaMoved:
			fl := b.fleets[e.Fleet]
			if fl == nil {
				continue
			}
			fl.MP, fl.MA, fl.Stopped, fl.Start = e.MP, e.MA, e.Stopped, e.From
			from, spent := e.From, 0
			for _, p := range e.Path {
				cost, _ := engine.SeaStepCost(m, rules, from, p)
				spent += cost
				fl.Path = append(fl.Path, Step{At: p, Cost: cost, MP: spent})
				from = p
			}
		case *engine.SupplyTraced:
			if ff := b.forces[e.Force]; ff != nil {
				ff.Supplied, ff.SupplySource, ff.SupplyMP, ff.SupplyReason = e.Supplied, e.Source, e.MP, e.Reason
			}
		case *engine.Embarked:
			if ff := b.forces[e.Force]; ff != nil {
				ff.Embarked = true
			}
		case *engine.Debarked:
			if ff := b.forces[e.Force]; ff != nil {
				ff.Landed = e.Hex
			}
		case *engine.LandingRefused:
			if ff := b.forces[e.Force]; ff != nil {
				ff.LandingRefused = fmt.Sprintf("the landing at %s needs %d:1 over its defenders", e.Hex, b.in.Rules.SeaMovement.CoastalLandingOdds)
			}
		case *engine.ForceDisbanded:
			if ff := b.forces[e.Force]; ff != nil {
				ff.Disbanded = e.Reason
			}
		case *engine.CityCaptured:
			if e.By == b.fc.Nation {
				b.fc.Captures = append(b.fc.Captures, e.City)
			}
		case *engine.TreasuryChanged:
			if e.Nation == b.fc.Nation && e.Change != 0 {
				what := e.Why
				switch {
				case strings.Contains(e.What, e.Why):
					what = e.What
				case e.What != "":
					what += " " + e.What
				}
				if e.Line > 0 {
					what = fmt.Sprintf("%s (line %d)", what, e.Line)
				}
				b.fc.Costs = append(b.fc.Costs, Cost{What: what, Crowns: -e.Change})
			}
		case *engine.OrderIgnored:
			if e.Nation == b.fc.Nation {
				b.fc.Ignored = append(b.fc.Ignored, Ignored{Line: e.Line, Order: e.Order, Reason: e.Reason})
			}
		}
	}
}

func (b *builder) startForce(id game.ForceID) *game.Force {
	for i := range b.start {
		if b.start[i].ID == id {
			return &b.start[i]
		}
	}
	return nil
}

// ends reads where each force ends, what is aboard each fleet, and the
// attrition odds of the unsupplied.
func (b *builder) ends(s *engine.State) {
	for id, ff := range b.forces {
		f, ok := s.Force(id)
		if !ok {
			if ff.Disbanded == "" {
				ff.Disbanded = "empty"
			}
			continue
		}
		ff.Disbanded = "" // part of it (DISBAND of some troops): the force stays
		ff.End, ff.Aboard = f.At, f.Aboard
	}
	for id, fl := range b.fleets {
		f, ok := s.Force(id)
		if !ok {
			continue
		}
		fl.End = f.At
		fl.Used, fl.Capacity = cargo(b.in.Rules, s, f)
		for i := range s.Forces {
			if s.Forces[i].Aboard == id {
				fl.Cargo = append(fl.Cargo, s.Forces[i].ID)
			}
		}
	}
	// Attrition is thrown on the force as it stands at the attrition step:
	// its contents at the start (organisation done; nothing else takes
	// figures from a force no foreign force meets) — the engine's dice
	// are not consulted, their odds are.
	for id, ff := range b.forces {
		if ff.Supplied && !ff.SupplyAtRisk || !ff.NeedsSupply {
			continue
		}
		if f := b.startForce(id); f != nil {
			ff.Attrition = engine.AttritionOdds(b.in.Rules, f)
		}
	}
	if b.fc.After < b.fc.Treasury {
		b.fc.Spent = b.fc.Treasury - b.fc.After
	} else {
		b.fc.Income = b.fc.After - b.fc.Treasury
	}
}

// cargo is what a fleet carries and can carry (rules "Transports").
func cargo(rules *ruleset.Ruleset, s *engine.State, fl *game.Force) (used, capacity int) {
	capacity = fl.Ships.AllTransports() * rules.Cargo.Capacity
	for i := range s.Forces {
		if s.Forces[i].Aboard == fl.ID {
			used += rules.Cargo.PointsOf(&s.Forces[i])
		}
	}
	return used, capacity
}

// supplyRisk runs the supply step twice more with the hostile foreign
// forces the view shows standing where they stand: once with each at the
// least strength its size class allows (a small force, which may be a
// single figure, blocks nothing), once at the most (a huge one at ten times
// the large class's top); exact where scouting counted it. A force supplied
// without them and not in the first has a line they cut unless they move
// (SupplyBlocked); not in the second, a line they could cut (SupplyAtRisk).
func (b *builder) supplyRisk(orders engine.Orders) {
	for _, most := range []bool{false, true} {
		for _, id := range b.unsuppliedWithForeign(orders, most) {
			ff := b.forces[id]
			if ff == nil || !ff.Supplied {
				continue
			}
			ff.SupplyAtRisk = true
			if !most {
				ff.SupplyBlocked = true
			}
		}
	}
}

// unsuppliedWithForeign returns the nation's forces the supply step finds
// unsupplied with the foreign forces of the view added (see supplyRisk).
func (b *builder) unsuppliedWithForeign(orders engine.Orders, most bool) []game.ForceID {
	v := b.in.View
	st := engine.StateOfView(v)
	sc := b.in.Rules.SizeClasses
	strength := func(c ruleset.SizeClass, small, large int) int {
		switch {
		case c == ruleset.Small && most:
			return small
		case c == ruleset.Large && most:
			return large
		case c == ruleset.Large:
			return small + 1
		case c == ruleset.Huge && most:
			return 10 * large
		case c == ruleset.Huge:
			return large + 1
		}
		return 0
	}
	// A line is at most the longer range in MP, each hex costing 1 MP at
	// least, and a blocker blocks its hex and those next to it: a land
	// force farther than that from every force of the nation cuts no line
	// (fleets, which cut lines at sea, all count).
	reach := max(b.in.Rules.Supply.RangeMP, b.in.Rules.Supply.GrenzerRangeMP) + 1
	var own []game.Hex
	for _, f := range st.Forces {
		if !f.At.IsSea() {
			own = append(own, f.At.Hex)
		}
	}
	near := func(p game.Place) bool {
		return p.IsSea() || slices.ContainsFunc(own, func(h game.Hex) bool { return hexmap.Distance(h, p.Hex) <= reach })
	}
	for _, ff := range v.Foreign {
		if ff.Aboard != "" || !b.hostile(v.Nation, ff.Nation) || ff.Ships == "" && !near(ff.At) {
			continue
		}
		f := game.Force{ID: ff.ID, Nation: ff.Nation, At: ff.At}
		if ff.Level >= ruleset.LevelExact && len(ff.Troops) > 0 {
			f.Troops = slices.Clone(ff.Troops)
		} else if n := strength(ff.Size, sc.SmallTroops, sc.LargeTroops); n > 0 {
			f.Troops = []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: n}}
		}
		if ff.ShipCounts != nil {
			f.Ships = *ff.ShipCounts
		} else {
			f.Ships.Warships = strength(ff.Ships, sc.SmallShips, sc.LargeShips)
		}
		if len(f.Troops) == 0 && f.Ships.Total() == 0 {
			continue
		}
		f.Normalize()
		st.Forces = append(st.Forces, f)
	}
	st.Normalize()
	res, err := engine.ResolveSteps(engine.Input{Map: b.in.Map, Rules: b.in.Rules, State: st, Orders: []engine.Orders{orders}, Hostile: b.hostile}, "supply")
	if err != nil {
		return nil
	}
	var out []game.ForceID
	for _, e := range res.Events {
		if e, ok := e.(*engine.SupplyTraced); ok && !e.Supplied {
			out = append(out, e.Force)
		}
	}
	return out
}

// contacts finds the known foreign forces on each force's way.
func (b *builder) contacts() {
	v := b.in.View
	at := func(p game.Place, fleet bool) []Contact {
		var out []Contact
		for _, f := range v.Foreign {
			if f.At != p || f.Aboard != "" || !b.hostile(v.Nation, f.Nation) {
				continue
			}
			// Armies meet armies, fleets fleets: a fleet in port is no
			// army in the hex.
			if isFleet := f.Ships != ""; isFleet != fleet {
				continue
			}
			out = append(out, Contact{At: p, Force: f.ID, Nation: f.Nation, Size: f.Size, Ships: f.Ships})
		}
		return out
	}
	for _, ff := range b.forces {
		if ff.Aboard != "" && ff.Landed.IsZero() {
			continue
		}
		places := []game.Place{ff.Start}
		for _, s := range ff.Path {
			places = append(places, s.At)
		}
		if !ff.Landed.IsZero() {
			places = append(places, game.AtHex(ff.Landed))
		}
		for _, p := range places {
			if p.IsSea() || p.IsZero() {
				continue
			}
			ff.Contacts = append(ff.Contacts, at(p, false)...)
		}
		ff.Contacts = slices.CompactFunc(ff.Contacts, func(a, c Contact) bool { return a.Force == c.Force })
	}
	for _, fl := range b.fleets {
		places := []game.Place{fl.Start}
		for _, s := range fl.Path {
			places = append(places, s.At)
		}
		for _, p := range places {
			if p.IsSea() {
				fl.Contacts = append(fl.Contacts, at(p, true)...)
			}
		}
		fl.Contacts = slices.CompactFunc(fl.Contacts, func(a, c Contact) bool { return a.Force == c.Force })
	}
}

// sieges gathers the nation's siege orders city by city with what the view
// holds of each city and its garrison, and the odds of the dice.
func (b *builder) sieges(orders engine.Orders) {
	v, rules := b.in.View, b.in.Rules
	byCity := map[string]*SiegeForecast{}
	var names []string
	for _, o := range orders.List {
		var force game.ForceID
		var city string
		switch o := o.(type) {
		case engine.Besiege:
			force, city = o.Force, o.City
		case engine.Assault:
			force, city = o.Force, o.City
		case engine.Bombard:
			force, city = o.Force, o.City
		default:
			continue
		}
		sf := byCity[city]
		if sf == nil {
			sf = &SiegeForecast{City: city}
			if c, ok := b.in.Map.City(city); ok {
				sf.Hex = c.Hex
			}
			for _, cv := range v.Cities {
				if cv.Name == city {
					sf.Controller, sf.Loyal, sf.Status, sf.Breaches = cv.Controller, cv.Loyalty == v.Nation, cv.Siege, cv.Breaches
				}
			}
			byCity[city] = sf
			names = append(names, city)
		}
		if !slices.Contains(sf.Forces, force) {
			sf.Forces = append(sf.Forces, force)
		}
		switch o := o.(type) {
		case engine.Besiege:
			sf.MaskOnly = sf.MaskOnly || o.MaskOnly
		case engine.Assault:
			sf.AssaultOrdered = true
		}
	}
	slices.Sort(names)
	for _, name := range names {
		sf := byCity[name]
		var attTroops []game.Troops
		var attGuns []game.Guns
		generals := 0
		for _, id := range sf.Forces {
			ff := b.forces[id]
			f := b.startForce(id)
			if ff == nil || f == nil || ff.End != game.AtHex(sf.Hex) {
				continue
			}
			sf.Attackers += f.CountArms(func(a game.Arm) bool { return a.IsInfantry() || a.IsCavalry() })
			for _, g := range f.Guns {
				if g.Kind == game.HeavyGun && ff.Start == ff.End {
					sf.HeavyGuns += g.Count
				}
			}
			for _, tr := range f.Troops {
				if tr.Arm.IsInfantry() || tr.Arm == game.Gunners {
					attTroops = append(attTroops, tr)
				}
			}
			attGuns = append(attGuns, f.Guns...)
			for _, l := range f.Leaders {
				if l.Role == game.General {
					generals++
				}
			}
		}
		known := true
		var defTroops []game.Troops
		var defGuns []game.Guns
		defGenerals := 0
		for _, f := range v.Foreign {
			if f.At != game.AtHex(sf.Hex) || f.Aboard != "" || !b.hostile(v.Nation, f.Nation) {
				continue
			}
			if f.Ships != "" && f.Size == "" {
				continue
			}
			sf.Garrison = append(sf.Garrison, Contact{At: f.At, Force: f.ID, Nation: f.Nation, Size: f.Size})
			if f.Level < ruleset.LevelExact {
				known = false
				continue
			}
			for _, tr := range f.Troops {
				if tr.Arm.IsInfantry() || tr.Arm.IsCavalry() {
					sf.GarrisonFigures += tr.Count
				}
			}
			defTroops = append(defTroops, f.Troops...)
			defGuns = append(defGuns, f.Guns...)
			for _, l := range f.Leaders {
				if l.Role == game.General {
					defGenerals++
				}
			}
		}
		sf.GarrisonKnown = known
		if !sf.Loyal {
			sf.Needed = rules.Siege.ForeignMinimum
		}
		if known {
			sf.Needed = max(sf.Needed, rules.Siege.BesiegeOdds*sf.GarrisonFigures)
		}
		if sf.HeavyGuns > 0 {
			sf.Breach = engine.BreachOdds(rules, sf.HeavyGuns, sf.Breaches)
			sf.Surrender = engine.SurrenderChance(rules, 1)
		}
		if sf.AssaultOrdered && known && len(sf.Garrison) > 0 {
			sf.AssaultPV = engine.AssaultPV(rules, attTroops, attGuns, generals)
			sf.DefenderPV = engine.AssaultPV(rules, defTroops, defGuns, defGenerals)
			sf.Assault = engine.AssaultOdds(rules, sf.AssaultPV, sf.DefenderPV, sf.Breaches)
		}
		b.fc.Sieges = append(b.fc.Sieges, *sf)
	}
}

// finish sorts the forces and fleets by ID, and leaves out what the
// engine said only because the forecast's state has no foreign force: a
// capture of, or a siege order refused before, a city where the view shows
// a known garrison (the siege section tells what it faces).
func (b *builder) finish(orders engine.Orders) {
	held := map[string]bool{}
	for _, sf := range b.fc.Sieges {
		if len(sf.Garrison) > 0 {
			held[sf.City] = true
		}
	}
	for _, f := range b.in.View.Foreign {
		if f.Aboard == "" && f.Ships == "" && !f.At.IsSea() && b.hostile(b.fc.Nation, f.Nation) {
			if c, ok := b.in.Map.CityAt(f.At.Hex); ok {
				held[c.Name] = true
			}
		}
	}
	lines := map[int]bool{}
	for _, o := range orders.List {
		switch o := o.(type) {
		case engine.Besiege:
			lines[o.Line] = lines[o.Line] || held[o.City]
		case engine.Assault:
			lines[o.Line] = lines[o.Line] || held[o.City]
		case engine.Bombard:
			lines[o.Line] = lines[o.Line] || held[o.City]
		}
	}
	b.fc.Ignored = slices.DeleteFunc(b.fc.Ignored, func(ig Ignored) bool { return ig.Line > 0 && lines[ig.Line] })
	b.fc.Captures = slices.DeleteFunc(b.fc.Captures, func(c string) bool { return held[c] })
	for _, ff := range b.forces {
		b.fc.Forces = append(b.fc.Forces, *ff)
	}
	for _, fl := range b.fleets {
		b.fc.Fleets = append(b.fc.Fleets, *fl)
	}
	slices.SortFunc(b.fc.Forces, func(a, c ForceForecast) int { return game.CompareForceIDs(a.ID, c.ID) })
	slices.SortFunc(b.fc.Fleets, func(a, c FleetForecast) int { return game.CompareForceIDs(a.ID, c.ID) })
	slices.Sort(b.fc.Captures)
	b.fc.Captures = slices.Compact(b.fc.Captures)
}
