package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
)

// Rulings: the referee's decisions as engine input. A player asks for a
// special action ("You may ask me about performing special actions",
// Introduction); the referee approves it with effects, or declares a breach
// of a public treaty, or lifts one (Public Treaties). parser/referee.go reads
// them from the referee's mail into these types, the daemon stores each as
// JSON bound to its request token, and Input.Rulings carries the turn's
// approved rulings to the "rulings" step, which applies them in order, each
// effect with a RulingApplied event, or a RulingNotApplied that says why
// (a force gone since, units it no longer has …).

// Ruling is one decision of the referee the turn carries out.
type Ruling struct {
	// Token is the request token the ruling answers ("" for a BREACH or LIFT,
	// which answer no request).
	Token string `json:",omitempty"`
	// Nation is the nation whose request it answers ("" for none).
	Nation game.NationID `json:",omitempty"`
	// Effects are carried out in order.
	Effects []Effect
}

// Effect is one thing a ruling does to the game. Each kind is its own type
// below; EffectKind is its keyword in JSON and in the referee's mail.
type Effect interface {
	// EffectKind is "treasury", "add", "remove", "move", "loyalty", "breach"
	// or "lift".
	EffectKind() string
}

// Units are what ADD and REMOVE name: troops, guns, ships and leaders (by
// ID).
type Units struct {
	Troops  []game.Troops `json:",omitempty"`
	Guns    []game.Guns   `json:",omitempty"`
	Ships   game.Ships    `json:",omitzero"`
	Leaders []string      `json:",omitempty"`
}

// IsEmpty reports units that name nothing.
func (u Units) IsEmpty() bool {
	return len(u.Troops) == 0 && len(u.Guns) == 0 && u.Ships.Total() == 0 && len(u.Leaders) == 0
}

// TreasuryChange adds Delta crowns (negative: takes) to a nation's treasury,
// kept in its capitol (or its temporary capitol). A treasury does not go
// below 0.
type TreasuryChange struct {
	Nation game.NationID
	Delta  int
}

// AddUnits puts units into Force; a force not in play is created at At for
// the nation whose letter its ID carries. A leader named who is in another
// force of the nation moves over; a new one is a general (an admiral in a
// fleet).
type AddUnits struct {
	Force game.ForceID
	Units Units
	At    game.Hex `json:",omitzero"`
}

// RemoveUnits takes units out of Force, or the whole force when Units is
// empty.
type RemoveUnits struct {
	Force game.ForceID
	Units Units `json:",omitzero"`
}

// PlaceForce puts a force in a hex (ashore, off any fleet).
type PlaceForce struct {
	Force game.ForceID
	To    game.Hex `json:",omitzero"`
}

// SetLoyalty makes a city loyal to a nation (Neutral for none).
type SetLoyalty struct {
	City   string
	Nation game.NationID `json:",omitempty"`
}

// DeclareBreach finds Offender in breach of public treaty Treaty against
// Aggrieved: the yearly penalty runs from this turn.
type DeclareBreach struct {
	Treaty    string
	Offender  game.NationID
	Aggrieved game.NationID
}

// LiftPenalty ends a breach penalty: the aggrieved party agreed.
type LiftPenalty struct {
	Treaty    string
	Offender  game.NationID
	Aggrieved game.NationID
}

// EffectKind returns "treasury".
func (TreasuryChange) EffectKind() string { return "treasury" }

// EffectKind returns "add".
func (AddUnits) EffectKind() string { return "add" }

// EffectKind returns "remove".
func (RemoveUnits) EffectKind() string { return "remove" }

// EffectKind returns "move".
func (PlaceForce) EffectKind() string { return "move" }

// EffectKind returns "loyalty".
func (SetLoyalty) EffectKind() string { return "loyalty" }

// EffectKind returns "breach".
func (DeclareBreach) EffectKind() string { return "breach" }

// EffectKind returns "lift".
func (LiftPenalty) EffectKind() string { return "lift" }

// effectKinds decodes an effect envelope of each kind, sorted by kind.
var effectKinds = []struct {
	kind   string
	decode func([]byte) (Effect, error)
}{
	{"add", decodeEffect[AddUnits]},
	{"breach", decodeEffect[DeclareBreach]},
	{"lift", decodeEffect[LiftPenalty]},
	{"loyalty", decodeEffect[SetLoyalty]},
	{"move", decodeEffect[PlaceForce]},
	{"remove", decodeEffect[RemoveUnits]},
	{"treasury", decodeEffect[TreasuryChange]},
}

func decodeEffect[T Effect](b []byte) (Effect, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// EffectKinds lists the effect keywords, sorted.
func EffectKinds() []string {
	out := make([]string, len(effectKinds))
	for i, k := range effectKinds {
		out[i] = k.kind
	}
	return out
}

// MarshalEffect encodes an effect as {"kind":"treasury", …fields}.
func MarshalEffect(e Effect) ([]byte, error) {
	body, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("effect %s: %w", e.EffectKind(), err)
	}
	return envelope(e.EffectKind(), body), nil
}

// UnmarshalEffect decodes an envelope written by MarshalEffect.
func UnmarshalEffect(data []byte) (Effect, error) {
	var k struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("effect envelope: %w", err)
	}
	i := slices.IndexFunc(effectKinds, func(e struct {
		kind   string
		decode func([]byte) (Effect, error)
	}) bool {
		return e.kind == k.Kind
	})
	if i < 0 {
		return nil, fmt.Errorf("effect kind %q: expected one of %v", k.Kind, EffectKinds())
	}
	e, err := effectKinds[i].decode(data)
	if err != nil {
		return nil, fmt.Errorf("effect %s: %w", k.Kind, err)
	}
	return e, nil
}

// rulingJSON is a ruling as stored: the effects as envelopes.
type rulingJSON struct {
	Token   string            `json:",omitempty"`
	Nation  game.NationID     `json:",omitempty"`
	Effects []json.RawMessage `json:",omitempty"`
}

// MarshalJSON encodes the ruling with each effect as an envelope.
func (r Ruling) MarshalJSON() ([]byte, error) {
	out := rulingJSON{Token: r.Token, Nation: r.Nation}
	for _, e := range r.Effects {
		b, err := MarshalEffect(e)
		if err != nil {
			return nil, err
		}
		out.Effects = append(out.Effects, b)
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (r *Ruling) UnmarshalJSON(data []byte) error {
	var in rulingJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("ruling: %w", err)
	}
	*r = Ruling{Token: in.Token, Nation: in.Nation}
	for _, raw := range in.Effects {
		e, err := UnmarshalEffect(raw)
		if err != nil {
			return fmt.Errorf("ruling %s: %w", in.Token, err)
		}
		r.Effects = append(r.Effects, e)
	}
	return nil
}

// RulingApplied: an effect of a referee's ruling was carried out. What says
// what was done, in words. Visible to the nation affected and the nation
// whose request it answers; public for breaches, lifted penalties and
// loyalty (treaties and loyalty are public).
type RulingApplied struct {
	Header
	Token  string        `json:",omitempty"`
	Effect string        // the effect's keyword
	Nation game.NationID `json:",omitempty"` // the nation affected
	Force  game.ForceID  `json:",omitempty"`
	City   string        `json:",omitempty"`
	What   string
}

// RulingNotApplied: an effect of a ruling could not be carried out (the force
// is gone, it lacks the units …); Reason says why, for the referee to rule
// again. Visible like RulingApplied.
type RulingNotApplied struct {
	Header
	Token  string        `json:",omitempty"`
	Effect string        // the effect's keyword
	Nation game.NationID `json:",omitempty"`
	Reason string
}

// Kind returns "RulingApplied".
func (*RulingApplied) Kind() string { return "RulingApplied" }

// Kind returns "RulingNotApplied".
func (*RulingNotApplied) Kind() string { return "RulingNotApplied" }

func init() {
	registerEvent(func() Event { return new(RulingApplied) })
	registerEvent(func() Event { return new(RulingNotApplied) })
}

// stepRulings applies the turn's rulings in the order given, each effect on
// its own. An effect that cannot be carried out is skipped with a reason;
// the other effects of the ruling still apply.
func (t *turn) stepRulings() {
	for _, r := range t.rulings {
		for _, e := range r.Effects {
			if e == nil {
				continue
			}
			t.applyEffect(r, e)
		}
	}
}

// rulingRule cites the rule a ruling applies.
func (t *turn) rulingRule(e Effect) string {
	switch e.(type) {
	case DeclareBreach, LiftPenalty:
		return t.cite("Public Treaties", "")
	}
	return t.cite("Introduction", "special actions")
}

func (t *turn) applyEffect(r Ruling, e Effect) {
	rule := t.rulingRule(e)
	done := func(n game.NationID, f game.ForceID, city string, place game.Place, vis Visibility, what string) {
		t.emit(&RulingApplied{Token: r.Token, Effect: e.EffectKind(), Nation: n, Force: f, City: city, What: what},
			rule, place, vis, n, r.Nation)
	}
	refuse := func(n game.NationID, why string) {
		t.emit(&RulingNotApplied{Token: r.Token, Effect: e.EffectKind(), Nation: n, Reason: why},
			rule, game.Place{}, to(n, r.Nation), n, r.Nation)
	}
	switch x := e.(type) {
	case TreasuryChange:
		city := t.treasuryCity(x.Nation)
		if city == "" {
			refuse(x.Nation, fmt.Sprintf("%s has no capitol to keep a treasury in", x.Nation))
			return
		}
		cs := t.cityState(city)
		before := cs.Treasury
		// Every crown moves by a TreasuryChanged that says why (the
		// nation's ledger lists it); a treasury does not go below 0.
		why := "the referee's ruling"
		if r.Token != "" {
			why += " on request " + r.Token
		}
		t.moveCrowns(x.Nation, city, max(0, before+x.Delta)-before, "ruling", why, 0, rule)
		done(x.Nation, "", city, cityPlace(t, city), to(x.Nation, r.Nation),
			fmt.Sprintf("treasury in %s %+d %s: %d → %d", city, cs.Treasury-before, english.Noun(cs.Treasury-before, "crown"), before, cs.Treasury))
	case AddUnits:
		if why := badCounts(x.Units); why != "" {
			refuse(t.nationOfID(x.Force), why)
			return
		}
		t.addUnits(r, x, done, refuse)
	case RemoveUnits:
		f := t.force(x.Force)
		if f == nil {
			refuse(t.nationOfID(x.Force), fmt.Sprintf("there is no force %s", x.Force))
			return
		}
		if why := badCounts(x.Units); why != "" {
			refuse(f.Nation, why)
			return
		}
		if x.Units.IsEmpty() {
			n, at := f.Nation, f.At
			t.remove(f.ID)
			done(n, x.Force, "", at, to(n, r.Nation), fmt.Sprintf("%s removed from play", x.Force))
			return
		}
		if why := takeUnits(f, x.Units, false); why != "" {
			refuse(f.Nation, why)
			return
		}
		takeUnits(f, x.Units, true)
		done(f.Nation, f.ID, "", f.At, to(f.Nation, r.Nation), fmt.Sprintf("%s removed from %s", unitsText(x.Units), f.ID))
		if f.IsEmpty() {
			t.remove(f.ID)
		}
	case PlaceForce:
		f := t.force(x.Force)
		switch {
		case f == nil:
			refuse(t.nationOfID(x.Force), fmt.Sprintf("there is no force %s", x.Force))
			return
		case !t.m.InBounds(x.To):
			refuse(f.Nation, fmt.Sprintf("hex %s is not on the map", x.To))
			return
		}
		t.setAt(f, game.AtHex(x.To))
		f.Aboard, f.Since = "", t.number
		t.fi(f.ID).start = f.At
		done(f.Nation, f.ID, "", f.At, to(f.Nation, r.Nation), fmt.Sprintf("%s placed in %s", f.ID, x.To))
	case SetLoyalty:
		c, ok := t.m.City(x.City)
		if !ok {
			refuse(r.Nation, fmt.Sprintf("there is no city %q", x.City))
			return
		}
		cs := t.cityState(c.Name)
		cs.Loyalty = x.Nation
		who := string(x.Nation)
		if who == "" {
			who = "no nation"
		}
		done(x.Nation, "", c.Name, game.AtHex(c.Hex), public(), fmt.Sprintf("%s now loyal to %s", c.Name, who))
	case DeclareBreach, LiftPenalty:
		t.treatyPenalty(r, e, done, refuse)
	default:
		refuse(r.Nation, fmt.Sprintf("the engine does not know the effect %q", e.EffectKind()))
	}
}

type doneFunc func(n game.NationID, f game.ForceID, city string, place game.Place, vis Visibility, what string)

func (t *turn) treatyPenalty(r Ruling, e Effect, done doneFunc, refuse func(game.NationID, string)) {
	// The same rules as a breach or a lift the daemon applies between turns
	// (yearend_treaties.go): only a public treaty carries the penalty, and a
	// penalty ended stays in the treaty's record with the turn it ended.
	switch x := e.(type) {
	case DeclareBreach:
		if err := BreachTreaty(t.s, x.Treaty, x.Offender, x.Aggrieved); err != nil {
			refuse(x.Offender, err.Error())
			return
		}
		done(x.Offender, "", "", game.Place{}, public(), fmt.Sprintf("%s is in breach of %s against %s: %s a year until %s agrees to end it",
			x.Offender, strings.ToUpper(x.Treaty), x.Aggrieved, english.Count(t.r.Taxes.TreatyPenalty, "tax point"), x.Aggrieved))
	case LiftPenalty:
		if err := EndPenalty(t.s, x.Treaty, x.Offender, x.Aggrieved, Referee); err != nil {
			refuse(x.Offender, err.Error())
			return
		}
		done(x.Offender, "", "", game.Place{}, public(), fmt.Sprintf("the penalty of %s for breaching %s against %s is lifted",
			x.Offender, strings.ToUpper(x.Treaty), x.Aggrieved))
	}
}

func (t *turn) addUnits(r Ruling, x AddUnits, done doneFunc, refuse func(game.NationID, string)) {
	n := t.nationOfID(x.Force)
	if n == "" {
		refuse(r.Nation, fmt.Sprintf("force ID %s carries no nation's letter", x.Force))
		return
	}
	if x.Units.IsEmpty() {
		refuse(n, "no units named")
		return
	}
	f := t.force(x.Force)
	if f == nil {
		if _, used := t.info[x.Force]; used {
			refuse(n, fmt.Sprintf("force ID %s was used this turn", x.Force))
			return
		}
		if !t.m.InBounds(x.At) {
			refuse(n, fmt.Sprintf("hex %s is not on the map", x.At))
			return
		}
		f = &game.Force{ID: x.Force, Nation: n, At: game.AtHex(x.At), Since: t.number}
		t.addForce(f)
		if ns, ok := t.s.Nation(n); ok {
			if num, err := strconv.Atoi(strings.TrimPrefix(string(x.Force), t.nationLetter(n))); err == nil && num >= ns.NextForce {
				ns.NextForce = num + 1
			}
		}
	} else if f.Nation != n {
		refuse(n, fmt.Sprintf("force %s is not %s's", x.Force, n))
		return
	}
	f.Troops = append(f.Troops, x.Units.Troops...)
	f.Guns = append(f.Guns, x.Units.Guns...)
	f.Ships.Warships += x.Units.Ships.Warships
	f.Ships.DamagedWarships += x.Units.Ships.DamagedWarships
	f.Ships.Transports += x.Units.Ships.Transports
	f.Ships.DamagedTransports += x.Units.Ships.DamagedTransports
	for _, id := range x.Units.Leaders {
		if slices.ContainsFunc(f.Leaders, func(l game.Leader) bool { return l.ID == id }) {
			continue
		}
		if from, i := t.leaderForce(n, id); from != nil {
			f.Leaders = append(f.Leaders, from.Leaders[i])
			from.Leaders = slices.Delete(from.Leaders, i, i+1)
			if from.IsEmpty() {
				t.remove(from.ID)
			}
			continue
		}
		role := game.General
		if f.IsFleet() {
			role = game.Admiral
		}
		f.Leaders = append(f.Leaders, game.Leader{ID: id, Name: id, Role: role})
	}
	f.Normalize()
	done(n, f.ID, "", f.At, to(n, r.Nation), fmt.Sprintf("%s added to %s", unitsText(x.Units), f.ID))
}

// takeUnits checks (apply false) or carries out (apply true) taking units
// out of a force; it returns why it cannot.
func takeUnits(f *game.Force, u Units, apply bool) string {
	for _, want := range u.Troops {
		left := want.Count
		for i := range f.Troops {
			tr := &f.Troops[i]
			if tr.Arm != want.Arm || tr.Grade != want.Grade {
				continue
			}
			k := min(left, tr.Count)
			if apply {
				ex := tr.Exhausted * k / max(tr.Count, 1)
				tr.Count -= k
				tr.Exhausted -= ex
			}
			left -= k
		}
		if left > 0 || want.Count <= 0 {
			return fmt.Sprintf("%s has not %d %s %s", f.ID, want.Count, want.Grade, want.Arm)
		}
	}
	for _, want := range u.Guns {
		left := want.Count
		for i := range f.Guns {
			g := &f.Guns[i]
			if g.Kind != want.Kind || g.Owner != want.Owner {
				continue
			}
			k := min(left, g.Count)
			if apply {
				g.Count -= k
			}
			left -= k
		}
		if left > 0 || want.Count <= 0 {
			return fmt.Sprintf("%s has not %d %s", f.ID, want.Count, want.Kind)
		}
	}
	s, h := u.Ships, f.Ships
	if s.Warships > h.Warships || s.DamagedWarships > h.DamagedWarships || s.Transports > h.Transports || s.DamagedTransports > h.DamagedTransports {
		return fmt.Sprintf("%s has not the ships named", f.ID)
	}
	if apply {
		f.Ships.Warships -= s.Warships
		f.Ships.DamagedWarships -= s.DamagedWarships
		f.Ships.Transports -= s.Transports
		f.Ships.DamagedTransports -= s.DamagedTransports
	}
	for _, id := range u.Leaders {
		i := slices.IndexFunc(f.Leaders, func(l game.Leader) bool { return l.ID == id })
		if i < 0 {
			return fmt.Sprintf("%s is not with %s", id, f.ID)
		}
		if apply {
			f.Leaders = slices.Delete(f.Leaders, i, i+1)
		}
	}
	if apply {
		f.Normalize()
	}
	return ""
}

// badCounts says why units with a count of 0 or less cannot be added or
// removed ("" if every count is positive).
func badCounts(u Units) string {
	for _, tr := range u.Troops {
		if tr.Count <= 0 || tr.Exhausted < 0 {
			return fmt.Sprintf("a count of %d %s %s", tr.Count, tr.Grade, tr.Arm)
		}
	}
	for _, g := range u.Guns {
		if g.Count <= 0 {
			return fmt.Sprintf("a count of %d %s", g.Count, g.Kind)
		}
	}
	if s := u.Ships; s.Warships < 0 || s.DamagedWarships < 0 || s.Transports < 0 || s.DamagedTransports < 0 {
		return "a negative count of ships"
	}
	return ""
}

// unitsText writes units as the referee's mail does: "24 C infantry, 2
// field-gun, general Keith".
func unitsText(u Units) string {
	var parts []string
	for _, tr := range u.Troops {
		parts = append(parts, tr.String())
	}
	for _, g := range u.Guns {
		parts = append(parts, fmt.Sprintf("%d %s", g.Count, g.Kind))
	}
	for _, s := range []struct {
		n    int
		what string
	}{{u.Ships.Warships, "warships"}, {u.Ships.DamagedWarships, "damaged warships"}, {u.Ships.Transports, "transports"}, {u.Ships.DamagedTransports, "damaged transports"}} {
		if s.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", s.n, s.what))
		}
	}
	parts = append(parts, u.Leaders...)
	return strings.Join(parts, ", ")
}

// nationOfID returns the nation whose letter a force ID carries: the force's
// own nation when it is in play.
func (t *turn) nationOfID(id game.ForceID) game.NationID {
	if f := t.force(id); f != nil {
		return f.Nation
	}
	best := game.NationID("")
	bestLen := 0
	for _, ns := range t.s.Nations {
		l := t.nationLetter(ns.ID)
		rest, ok := strings.CutPrefix(string(id), l)
		if !ok || len(l) <= bestLen {
			continue
		}
		if _, err := strconv.Atoi(rest); err == nil {
			best, bestLen = ns.ID, len(l)
		}
	}
	return best
}

// treasuryCity is the city holding a nation's treasury: its temporary
// capitol while it has one, else its capitol.
func (t *turn) treasuryCity(n game.NationID) string {
	return TreasuryCity(t.m, t.s, n)
}

func cityPlace(t *turn, name string) game.Place {
	if c, ok := t.m.City(name); ok {
		return game.AtHex(c.Hex)
	}
	return game.Place{}
}
