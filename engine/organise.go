package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// stepOrganisation carries out the organisation orders at the start of the
// turn, in nation order then sheet order: stance and standing orders, split,
// merge, leaders, garrisons, depot grants and special requests. Forces may
// only be split, merged or joined in one place (a hex, or aboard the same
// fleet). Minimum force sizes are checked for every stack a split changed.
// Each order is carried out by organise, the rule the order checker runs
// too (Organiser); the forces whose standing orders an order set are told
// their stance at the end.
func (t *turn) stepOrganisation() {
	changed := map[game.ForceID]bool{}
	for _, no := range t.ordersFor("organisation") {
		t.organise(no.nation, no.o, changed)
	}
	t.standingOrdersSet(changed)
}

// organise carries out one organisation order of nation n: its kind's
// legality check (OrderKind.Legal), then its effect (OrderKind.apply),
// which checks what it needs of the forces as they stand and refuses the
// order whole (OrderIgnored) or carries it out whole, the minimum force
// sizes after it. The force whose standing orders it set is marked in
// changed.
func (t *turn) organise(n game.NationID, o Order, changed map[game.ForceID]bool) {
	org := t.cite("Land Movement", "")
	if !t.legal(n, o, org) {
		return
	}
	k, _ := KindOf(o.Kind())
	if k.apply == nil {
		// A kind filed here without a way to carry it out: say so.
		f, _ := KindSubject(o)
		t.ignore(n, o, f, org, fmt.Sprintf("%s is not carried out yet", strings.ToUpper(o.Kind())))
		return
	}
	if id := k.apply(t, n, o); id != "" {
		changed[id] = true
	}
}

// standingOrdersSet tells each force whose standing orders changed its
// stance and standing orders now, in force order.
func (t *turn) standingOrdersSet(changed map[game.ForceID]bool) {
	ids := make([]game.ForceID, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, game.CompareForceIDs)
	for _, id := range ids {
		if f := t.force(id); f != nil {
			t.emit(&StandingOrdersSet{Force: f.ID, Fleet: f.IsFleet(), Stance: f.Stance, Standing: f.Standing},
				t.cite("Land Battles", "Attack and Defend"), f.At, to(f.Nation), f.Nation)
		}
	}
}

// newForceID returns the ID for a new force of nation n: want if it is free
// and carries the nation's letter, else the nation's next number.
func (t *turn) newForceID(n game.NationID, want game.ForceID) (game.ForceID, error) {
	letter := t.nationLetter(n)
	if want != "" {
		num, err := strconv.Atoi(strings.TrimPrefix(string(want), letter))
		if !strings.HasPrefix(string(want), letter) || err != nil || num < 1 {
			return "", fmt.Errorf("new force ID %s must be %s followed by a number", want, letter)
		}
		if _, used := t.info[want]; used {
			return "", fmt.Errorf("force ID %s is already used", want)
		}
		return want, nil
	}
	ns, _ := t.s.Nation(n)
	next := 1
	if ns != nil && ns.NextForce > 0 {
		next = ns.NextForce
	}
	for {
		id := game.ForceID(letter + strconv.Itoa(next))
		next++
		if _, used := t.info[id]; !used {
			if ns != nil {
				ns.NextForce = next
			}
			return id, nil
		}
	}
}

func samePlace(a, b *game.Force) bool { return a.At == b.At && a.Aboard == b.Aboard }

// adrift reports a fleet at sea: a force split or detached from it without
// ships would be a land force on no hex.
func adrift(f *game.Force) bool { return f.At.IsSea() && f.Aboard == "" }

// reboard puts the forces and depots aboard fleet from aboard fleet to (a
// fleet merged into another, or emptied by a split).
func (t *turn) reboard(from, to game.ForceID) {
	for _, x := range t.live() {
		if x.Aboard == from {
			x.Aboard = to
		}
	}
	for i := range t.s.Depots {
		if t.s.Depots[i].Aboard == from {
			t.s.Depots[i].Aboard = to
		}
	}
}

// leaderForce finds the nation's force holding a leader.
func (t *turn) leaderForce(n game.NationID, id string) (*game.Force, int) {
	for _, f := range t.live() {
		if f.Nation != n {
			continue
		}
		if i := slices.IndexFunc(f.Leaders, func(l game.Leader) bool { return l.ID == id }); i >= 0 {
			return f, i
		}
	}
	return nil, -1
}
