package trossian

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Input is everything a turn is resolved from.
type Input struct {
	Map   *areamap.Map
	Rules *Rules
	State *State
	// Orders are the kingdoms' accepted sheets for State.Turn.
	Orders []engine.Orders
	// Rulings are the referee's rulings for the turn (a chance card's
	// effect, false plans, alliances …), applied after the orders.
	Rulings []Ruling
	// Battles are the referee's tabletop results for the turn's battles.
	Battles []BattleResult
	Seed    uint64
	// ScriptDice, when not nil, fixes dice before the turn (the rules
	// cases' DICE lines through engine.Dice.Script and Force). Never set in
	// play.
	ScriptDice func(*engine.Dice)
}

// Result is a resolved turn: the next state, the events in pipeline order
// and every die thrown. When a battle has no tabletop result yet the turn
// is not resolved: State is nil, Awaiting holds the battle sheets, and
// Events and Rolls are those of the turn up to its battles (for the
// referee); the same input with the results resolves it whole.
type Result struct {
	State    *State
	Events   []engine.Event
	Rolls    []engine.Roll
	Awaiting []BattleSheet
}

// errBadInput is the error of impossible input.
var errBadInput = errors.New("trossian: bad input")

// Resolve resolves one turn. It fails only for impossible input (no map,
// rules or state, a state of another ruleset, a turn below 1); bad orders
// are skipped with engine.OrderIgnored events.
func Resolve(in Input) (*Result, error) {
	switch {
	case in.Map == nil || in.Rules == nil || in.State == nil:
		return nil, fmt.Errorf("%w: map, rules and state are required", errBadInput)
	case in.State.Ruleset != in.Rules.ID:
		return nil, fmt.Errorf("%w: the state is of ruleset %q, the rules are %q", errBadInput, in.State.Ruleset, in.Rules.ID)
	case in.State.Turn < 1:
		return nil, fmt.Errorf("%w: turn %d", errBadInput, in.State.Turn)
	}
	t := newTurn(in)
	steps := phaseSteps
	if t.winter {
		steps = winterSteps
	}
	for _, st := range steps {
		t.step = st.Name
		t.dice.SetStep(st.Name)
		st.run(t)
		t.compact()
		if len(t.awaiting) > 0 && st.Name == "battles" {
			return &Result{Events: t.events, Rolls: t.dice.Rolls(), Awaiting: t.awaiting}, nil
		}
	}
	t.s.Normalize()
	return &Result{State: t.s, Events: t.events, Rolls: t.dice.Rolls()}, nil
}

// turn is the working state of one resolution.
type turn struct {
	in     Input
	m      *areamap.Map
	r      *Rules
	s      *State
	dice   *engine.Dice
	step   string
	phase  Phase
	year   int
	winter bool
	events []engine.Event

	// immediate are the orders given at the King's seat, by nation, in
	// sheet order; couriers the couriers to send; filed the winter orders
	// by step.
	immediate map[game.NationID][]engine.Order
	couriers  map[game.NationID][]SendCourier
	filed     map[string][]filedOrder
	// seen counts once-a-turn orders ("move N2").
	seen map[game.NationID]map[string]int
	// clock is the movement step's (movement.go).
	clock *clock
	// battles are the battles found by movement, by province; fought the
	// provinces where a battle was fought; moved the armies that moved or
	// were shipped this phase; lostHQ the armies that lost their last HQ.
	battles []*battle
	fought  map[string]bool
	moved   map[game.ForceID]bool
	lostHQ  map[game.ForceID]bool
	// blockadeStart are the navies at sea or off a coast when the phase
	// began, by place ("Ports do not count as besieged unless an enemy navy
	// occupies the adjacent sea lane for the duration of the siege").
	blockadeStart map[game.ForceID]NavyPlace
	beaten        map[game.ForceID]bool
	awaiting      []BattleSheet
	// pool is each kingdom's AP to spend this winter (winter.go).
	pool map[game.NationID]int
	// dirty: forces were added; compact re-sorts them.
	dirty bool
}

type filedOrder struct {
	nation game.NationID
	order  engine.Order
}

func newTurn(in Input) *turn {
	s := in.State.Clone()
	s.Normalize()
	t := &turn{in: in, m: in.Map, r: in.Rules, s: s, dice: engine.NewDice(in.Seed),
		immediate: map[game.NationID][]engine.Order{}, couriers: map[game.NationID][]SendCourier{},
		filed: map[string][]filedOrder{}, seen: map[game.NationID]map[string]int{},
		fought: map[string]bool{}, moved: map[game.ForceID]bool{}, lostHQ: map[game.ForceID]bool{},
		blockadeStart: map[game.ForceID]NavyPlace{}, beaten: map[game.ForceID]bool{}}
	if in.ScriptDice != nil {
		in.ScriptDice(t.dice)
	}
	t.phase = s.Calendar.PhaseOf(s.Turn)
	t.year = s.Calendar.YearOf(s.Turn)
	t.winter = t.phase == Winter
	for _, n := range s.Navies {
		t.blockadeStart[n.ID] = n.At
	}
	return t
}

// pipelineStep is one named step.
type pipelineStep struct {
	Name string
	run  func(*turn)
}

// Steps lists the pipeline's step names: a phase's, or winter's.
func Steps(winter bool) []string {
	steps := phaseSteps
	if winter {
		steps = winterSteps
	}
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Name
	}
	return out
}

// ---- events ----

func (t *turn) emit(e engine.Event) {
	h := e.Head()
	if h.Step == "" {
		h.Step = t.step
	}
	t.events = append(t.events, e)
}

// head makes a header: the step, the rule cited, the nations and who may
// see it. place is named by each kind itself (see events.go).
func (t *turn) head(rule, place string, vis engine.Visibility, ns ...game.NationID) engine.Header {
	return engine.Header{Step: t.step, Rule: rule, Nations: nations(ns...), Visibility: vis}
}

// ignore reports an order not carried out.
func (t *turn) ignore(n game.NationID, o engine.Order, rule, format string, args ...any) {
	t.emit(&engine.OrderIgnored{Header: t.head(rule, "", to(n), n), Nation: n, Line: o.SourceLine(), Order: o.Kind(),
		Force: SubjectOf(o), Reason: fmt.Sprintf(format, args...)})
}

// ---- forces ----

// armyProvince is where an army is: its province, or its navy's province
// (in port or off a coast); "" at sea.
func (t *turn) armyProvince(a *Army) string {
	if a.Aboard == "" {
		return a.At
	}
	if n, ok := t.s.Navy(a.Aboard); ok {
		return n.At.Province
	}
	return ""
}

func (t *turn) forceIDTaken(id game.ForceID) bool {
	_, a := t.s.Army(id)
	_, n := t.s.Navy(id)
	return a || n || slices.ContainsFunc(t.s.Couriers, func(c Courier) bool { return c.ID == id })
}

// forceNumber is the number of an ID ("N12" → 12, "NF3" → 3).
func forceNumber(id game.ForceID) int {
	s := strings.TrimLeft(string(id), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	n, _ := strconv.Atoi(s)
	return n
}

func (t *turn) nextArmyID(ns *NationState) game.ForceID {
	for {
		ns.NextForce = max(ns.NextForce, 1)
		id := game.ForceID(fmt.Sprintf("%s%d", ns.Letter, ns.NextForce))
		ns.NextForce++
		if !t.forceIDTaken(id) {
			return id
		}
	}
}

func (t *turn) nextNavyID(ns *NationState) game.ForceID {
	for {
		ns.NextNavy = max(ns.NextNavy, 1)
		id := game.ForceID(fmt.Sprintf("%sF%d", ns.Letter, ns.NextNavy))
		ns.NextNavy++
		if !t.forceIDTaken(id) {
			return id
		}
	}
}

func (t *turn) nextCourierID(ns *NationState) game.ForceID {
	for {
		ns.NextCourier = max(ns.NextCourier, 1)
		id := game.ForceID(fmt.Sprintf("%sC%d", ns.Letter, ns.NextCourier))
		ns.NextCourier++
		if !t.forceIDTaken(id) {
			return id
		}
	}
}

// removeArmy takes an army out of the game.
func (t *turn) removeArmy(id game.ForceID) {
	t.s.Armies = slices.DeleteFunc(t.s.Armies, func(a Army) bool { return a.ID == id })
	if t.clock != nil {
		delete(t.clock.marches, id)
	}
}

// removeNavy takes a navy out of the game (what it carries is the
// caller's).
func (t *turn) removeNavy(id game.ForceID) {
	t.s.Navies = slices.DeleteFunc(t.s.Navies, func(n Navy) bool { return n.ID == id })
	if t.clock != nil {
		delete(t.clock.navies, id)
	}
}

// compact re-sorts the forces after a step added some.
func (t *turn) compact() {
	if t.dirty {
		slices.SortFunc(t.s.Armies, func(a, b Army) int { return game.CompareForceIDs(a.ID, b.ID) })
		slices.SortFunc(t.s.Navies, func(a, b Navy) int { return game.CompareForceIDs(a.ID, b.ID) })
		slices.SortFunc(t.s.Couriers, func(a, b Courier) int { return game.CompareForceIDs(a.ID, b.ID) })
		t.dirty = false
	}
}

// armyIDs returns the IDs of the armies, in order: loops that may remove or
// add armies range over IDs, never over the slice.
func (t *turn) armyIDs() []game.ForceID {
	out := make([]game.ForceID, len(t.s.Armies))
	for i, a := range t.s.Armies {
		out[i] = a.ID
	}
	return out
}

func (t *turn) navyIDs() []game.ForceID {
	out := make([]game.ForceID, len(t.s.Navies))
	for i, n := range t.s.Navies {
		out[i] = n.ID
	}
	return out
}

// ---- the King's seat ----

// seat is where a kingdom's King is: his capital while he holds it, else
// the city he holds nearest to it by land (ties by name); "" when he holds
// no city. 004: "[Kings] are assumed to remain inside their capital city".
func (t *turn) seat(n game.NationID) string {
	return seatOf(t.m, t.s, n)
}

func seatOf(m *areamap.Map, s *State, n game.NationID) string {
	capital := m.Capital(n)
	if capital == "" {
		return ""
	}
	if s.Controller(capital) == n {
		return capital
	}
	dist := m.LandDistances(capital)
	best, bestD := "", 1<<30
	for _, p := range m.Provinces {
		if !p.Kind.IsCity() || s.Controller(p.ID) != n {
			continue
		}
		d, ok := dist[p.ID]
		if !ok {
			d = 1 << 20
		}
		if d < bestD {
			best, bestD = p.ID, d
		}
	}
	return best
}

// ---- the legality checks ----

// situation is the engine's Situation of a kingdom now.
func (t *turn) situation(n game.NationID) *Situation {
	ns, _ := t.s.Nation(n)
	sit := &Situation{Map: t.m, Rules: t.r, Nation: n, Turn: t.s.Turn, Phase: t.phase, Seat: t.seat(n)}
	if ns != nil {
		sit.IdleCouriers = ns.Couriers
		sit.Census = ns.Census
	}
	sit.Army = func(id game.ForceID) *Army {
		if a, ok := t.s.Army(id); ok && a.Nation == n {
			return a
		}
		return nil
	}
	sit.Navy = func(id game.ForceID) *Navy {
		if x, ok := t.s.Navy(id); ok && x.Nation == n {
			return x
		}
		return nil
	}
	sit.Armies = func() []*Army {
		var out []*Army
		for i := range t.s.Armies {
			if t.s.Armies[i].Nation == n {
				out = append(out, &t.s.Armies[i])
			}
		}
		return out
	}
	sit.Province = func(id string) ProvinceState {
		p, ok := t.s.Province(id)
		if !ok {
			return ProvinceState{ID: id}
		}
		c := *p
		if c.Controller != n {
			c.Bank = 0
		}
		return c
	}
	sit.NaviesInPort = func(id string) int { return len(t.s.NaviesInPort(id)) }
	sit.Hostile = func(o game.NationID) bool { return t.s.Hostile(n, o) }
	sit.Owned = func() Stands { return ownedStands(t.s, n) }
	return sit
}

// ownedStands is every stand a kingdom has in the field.
func ownedStands(s *State, n game.NationID) Stands {
	var out Stands
	for _, a := range s.Armies {
		if a.Nation == n {
			out = append(out, a.Stands...)
		}
	}
	return out.Normalize()
}

// legal runs an order's legality check now; a refusal is reported.
func (t *turn) legal(n game.NationID, o engine.Order) bool {
	k, ok := KindOf(o.Kind())
	if !ok {
		return false
	}
	if r := k.Legal(t.situation(n), o); r != nil {
		t.ignore(n, o, k.Section, "%s", r.Reason)
		return false
	}
	return true
}
