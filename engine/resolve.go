package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// TicksPerTurn is the engine's clock: a monthly turn is 120 ticks, so that
// every movement allowance in the rules divides it (6 MP → 20 ticks per MP, 8
// → 15, 12 → 10, 4 → 30, 5 → 24, 3 → 40) and a battle's "1/6 of a map move"
// is 20 ticks. Movement is simultaneous: every force spends its MP at its own
// rate over the same 120 ticks.
const TicksPerTurn = 120

// Input is everything a turn is resolved from.
type Input struct {
	Map    *hexmap.Map
	Rules  *ruleset.Ruleset
	State  *State
	Orders []Orders
	// Rulings are the referee's approved rulings of the turn, applied in
	// order by the "rulings" step (rulings.go).
	Rulings []Ruling
	// Seed seeds the turn's dice (Dice). The same seed gives the same turn.
	Seed uint64
	// Hostile decides whether two nations are enemies; nil means
	// DefaultHostility (every other nation is hostile).
	Hostile func(a, b game.NationID) bool
	// fixedDice are die results by roll purpose, for the rules cases only.
	fixedDice map[string][]int
	// Battles are results of land battles fought elsewhere (the referee's
	// table), used instead of the battle model for the battle they name
	// (battles.go).
	Battles []TabletopBattle `json:",omitempty"`
	// forcedDice are the faces of the turn's first dice (rules cases).
	forcedDice []int
}

// Result is a resolved turn.
type Result struct {
	// State is the next turn's state (Turn+1), normalised.
	State *State
	// Events are what happened, in pipeline order.
	Events []Event
	// Rolls are every die thrown, in order.
	Rolls []Roll
}

// DefaultHostility is the rules' reading of war and peace: alliances are not
// in the rules and treaties are public text the referee enforces, so every
// other nation is hostile. Neutral (no nation) is nobody's enemy.
func DefaultHostility(a, b game.NationID) bool {
	return a != b && a != game.Neutral && b != game.Neutral
}

// Resolve resolves one turn. It is a pure function of its input: the input
// state is not changed, and the same input gives the same result byte for
// byte. It fails only for impossible inputs (no map, no ruleset, a state made
// for another ruleset, a turn number below 1); bad orders are skipped with an
// OrderIgnored event.
func Resolve(in Input) (*Result, error) { return ResolveSteps(in, "") }

// ResolveSteps resolves a turn as Resolve does, but stops after the step
// of the pipeline named last (Steps): the Result is the turn as far as it
// has gone — the working state at that point (its forces as the steps so
// far left them, the turn number not yet advanced), the events and the
// dice so far. "" runs every step (Resolve). It is how the engine's own
// rules are asked what part of a turn does: the order checker's property
// test compares its forecast of the organisation step with it, and a
// forecast of a nation's turn runs it on the nation's view (StateOfView)
// with its sheet.
func ResolveSteps(in Input, last string) (*Result, error) {
	if in.Map == nil {
		return nil, errors.New("engine: no map")
	}
	if in.Rules == nil {
		return nil, errors.New("engine: no ruleset")
	}
	if in.State == nil {
		return nil, errors.New("engine: no state")
	}
	if in.State.Ruleset != "" && in.State.Ruleset != in.Rules.ID {
		if _, err := ruleset.ByID(in.State.Ruleset); err != nil {
			return nil, fmt.Errorf("engine: state: %w", err)
		}
		return nil, fmt.Errorf("engine: the state is for ruleset %q, the input ruleset is %q", in.State.Ruleset, in.Rules.ID)
	}
	for _, c := range []ruleset.MoveClass{ruleset.Artillery, ruleset.Foot, ruleset.Mounted, ruleset.GeneralOnly} {
		if in.Rules.Movement.Rows[c].MP <= 0 {
			return nil, fmt.Errorf("engine: ruleset %q has no %s row in its movement table", in.Rules.ID, c)
		}
	}
	if in.State.Turn < 1 {
		return nil, fmt.Errorf("engine: turn %d: turns are numbered from 1", in.State.Turn)
	}
	t := newTurn(in)
	steps := monthlySteps
	if t.yearEnd {
		steps = yearEndSteps
	}
	if last != "" && !slices.ContainsFunc(steps, func(st pipelineStep) bool { return st.Name == last }) {
		return nil, fmt.Errorf("engine: no step %q in the turn's pipeline: expected one of %v", last, Steps(t.yearEnd))
	}
	for _, st := range steps {
		t.step = st.Name
		t.dice.SetStep(st.Name)
		st.run(t)
		t.unread(st.Name)
		t.compact()
		if checkPlaceIndex {
			t.checkPlaces()
		}
		if st.Name == last && last != steps[len(steps)-1].Name {
			return &Result{State: t.snapshot(), Events: t.events, Rolls: t.dice.Rolls()}, nil
		}
	}
	return &Result{State: t.s, Events: t.events, Rolls: t.dice.Rolls()}, nil
}

// turn is the working state of one resolution.
type turn struct {
	m       *hexmap.Map
	r       *ruleset.Ruleset
	s       *State
	number  int
	yearEnd bool
	dice    *Dice
	events  []Event
	step    string
	edition string
	hostile func(a, b game.NationID) bool
	orders  []Orders
	rulings []Ruling
	tabled  []TabletopBattle

	forces []*game.Force // sorted by ID; removed ones are nil until compact
	byID   map[game.ForceID]*game.Force
	info   map[game.ForceID]*forceTurn

	filed filedOrders
	read  map[string][]string // step → kinds read with ordersFor ("": all)
	mv    *movement
	engs  []*engagement
	// walled: for each city hex, the nations that offered battle there to
	// a garrison that stayed behind its walls (contact.go): the sieges step
	// makes them besiegers.
	walled   map[game.Hex][]game.NationID
	seaEngs  []*seaEngagement
	seen     map[intelKey]*Sighting
	scratch  *router
	nextSort bool
	// added is set when a force was added since the last compact: the list
	// is then sorted again (removals alone keep it in order).
	added bool
	// byPlace indexes the live forces by place (placeindex.go).
	byPlace map[game.Place][]*game.Force
}

// forceTurn is what the engine remembers about a force during the turn.
type forceTurn struct {
	start   game.Place
	moved   bool
	engaged bool
	removed bool
}

type intelKey struct {
	nation game.NationID
	force  game.ForceID
}

func newTurn(in Input) *turn {
	s := in.State.Clone()
	s.Normalize()
	if s.Ruleset == "" {
		s.Ruleset = in.Rules.ID
	}
	t := &turn{
		m:       in.Map,
		r:       in.Rules,
		s:       s,
		number:  s.Turn,
		yearEnd: s.Calendar.Date(s.Turn).IsYearEnd(),
		dice:    &Dice{r: NewDice(in.Seed).r, forced: in.forcedDice},
		edition: editionLabel(in.Rules),
		hostile: in.Hostile,
		orders:  in.Orders,
		rulings: in.Rulings,
		tabled:  in.Battles,
		byID:    map[game.ForceID]*game.Force{},
		info:    map[game.ForceID]*forceTurn{},
		seen:    map[intelKey]*Sighting{},
	}
	if t.hostile == nil {
		t.hostile = DefaultHostility
	}
	if in.fixedDice != nil {
		t.dice.fixed = map[string][]int{}
		for k, v := range in.fixedDice {
			t.dice.fixed[k] = slices.Clone(v)
		}
	}
	for i := range s.Forces {
		f := s.Forces[i].Clone()
		t.forces = append(t.forces, &f)
		t.byID[f.ID] = &f
		t.info[f.ID] = &forceTurn{start: f.At}
	}
	t.scratch = newRouter(in.Map, in.Rules)
	return t
}

// editionLabel is the short edition name used in rule citations: "1752",
// "V4", or the ruleset ID for other rulesets.
func editionLabel(r *ruleset.Ruleset) string {
	id := strings.TrimPrefix(r.ID, "syw-")
	return strings.ToUpper(id)
}

// cite returns a rule citation: "1752 Land Movement ¶Movement Table".
func (t *turn) cite(section, para string) string {
	if para == "" {
		return t.edition + " " + section
	}
	return t.edition + " " + section + " ¶" + para
}

// emit fills an event's header and appends it.
func (t *turn) emit(e Event, rule string, place game.Place, vis Visibility, nations ...game.NationID) {
	h := e.Head()
	h.Step = t.step
	h.Rule = rule
	h.Place = place
	h.Nations = sortedNations(nations...)
	h.Visibility = vis
	t.events = append(t.events, e)
}

// force returns a live force by ID.
func (t *turn) force(id game.ForceID) *game.Force { return t.byID[id] }

// live returns the live forces in canonical order.
func (t *turn) live() []*game.Force {
	t.compact()
	return t.forces
}

// addForce adds a new force (from a split or a detachment).
func (t *turn) addForce(f *game.Force) {
	t.forces = append(t.forces, f)
	t.byID[f.ID] = f
	t.info[f.ID] = &forceTurn{start: f.At}
	t.indexAdd(f)
	t.nextSort = true
	t.added = true
}

// remove takes a force out of the game.
func (t *turn) remove(id game.ForceID) {
	gone, ok := t.byID[id]
	if !ok {
		return
	}
	t.indexDrop(gone)
	delete(t.byID, id)
	if fi := t.info[id]; fi != nil {
		fi.removed = true
	}
	if t.mv != nil {
		t.mv.drop(id)
	}
	// Forces aboard a fleet that is gone go down with it.
	for _, f := range t.aboard(gone) {
		if _, ok := t.byID[f.ID]; ok {
			t.emit(&ForceDisbanded{Force: f.ID, Reason: "fleet lost", Figures: f.Figures(), Guns: f.GunCount(), Leaders: len(f.Leaders), LeaderNames: leaderNames(f.Leaders)},
				t.cite("Sea Battles", ""), f.At, to(f.Nation), f.Nation)
			t.remove(f.ID)
		}
	}
	t.nextSort = true
}

// compact drops removed forces and restores canonical order.
func (t *turn) compact() {
	if !t.nextSort {
		return
	}
	out := t.forces[:0]
	for _, f := range t.forces {
		if f != nil && t.byID[f.ID] == f {
			out = append(out, f)
		}
	}
	if t.added {
		slices.SortFunc(out, func(a, b *game.Force) int { return game.CompareForceIDs(a.ID, b.ID) })
	}
	t.forces = out
	t.nextSort = false
	t.added = false
}

// fi returns the turn record of a force.
func (t *turn) fi(id game.ForceID) *forceTurn {
	if x := t.info[id]; x != nil {
		return x
	}
	x := &forceTurn{}
	t.info[id] = x
	return x
}

// nationLetter returns the force-ID prefix of a nation.
func (t *turn) nationLetter(n game.NationID) string {
	if nat, ok := t.m.Nation(n); ok && nat.Letter != "" {
		return nat.Letter
	}
	return strings.ToUpper(string(n[:1]))
}

// pv is a force's point value without generals.
func (t *turn) pv(f *game.Force) int { return t.r.PointValues.Force(f, false) }

// isLand reports a land force (not a fleet) that is not aboard a fleet.
func isLandUnit(f *game.Force) bool { return !f.IsFleet() && f.Aboard == "" }

// grenzersOnly reports a force whose troops are all irregular light infantry
// (Grenzers), with nothing else but generals: the forces that filter past
// the enemy and trace an 18-MP line of supply.
func grenzersOnly(f *game.Force) bool {
	if f.GunCount() > 0 || f.IsFleet() {
		return false
	}
	n := 0
	for _, tr := range f.Troops {
		if tr.Count == 0 {
			continue
		}
		if tr.Arm != game.IrregularLight {
			return false
		}
		n += tr.Count
	}
	return n > 0
}

// cavalry counts cavalry figures; foot counts infantry figures and gun models
// (the figures cavalry can slow).
func cavalry(f *game.Force) int { return f.CountArms(game.Arm.IsCavalry) }

func infantryAndGuns(f *game.Force) int {
	return f.CountArms(game.Arm.IsInfantry) + f.GunCount()
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}
