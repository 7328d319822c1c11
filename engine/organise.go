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
func (t *turn) stepOrganisation() {
	changed := map[game.ForceID]bool{}
	org := t.cite("Land Movement", "")
	for _, no := range t.ordersFor("organisation") {
		n := no.nation
		if !t.legal(n, no.o, org) {
			continue
		}
		switch o := no.o.(type) {
		case SetStance:
			if f := t.ownForce(n, o, o.Force, t.cite("Land Battles", "Attack and Defend")); f != nil {
				f.Stance = o.Stance
				changed[f.ID] = true
			}
		case Retreat:
			if f := t.ownForce(n, o, o.Force, t.cite("Land Battles", "Retreat before Battle")); f != nil {
				switch {
				case o.Never:
					f.Standing.RetreatBelow = 0
				case o.Always:
					f.Standing.RetreatBelow = -1
				case o.Odds > 0:
					f.Standing.RetreatBelow = o.Odds
				default:
					t.ignore(n, o, f.ID, t.cite("Land Battles", "Retreat before Battle"), "expected always, never or odds such as 3:2")
					continue
				}
				changed[f.ID] = true
			}
		case Pursue:
			if f := t.ownForce(n, o, o.Force, t.cite("Land Battles", "Retreat before Battle")); f != nil {
				f.Standing.Pursue = o.On
				changed[f.ID] = true
			}
		case OnContact:
			if f := t.ownForce(n, o, o.Force, t.cite("Land Battles", "Force Sizes and Overrun Attacks")); f != nil {
				f.Standing.Continue = o.Continue
				changed[f.ID] = true
			}
		case SlowEnemy:
			if f := t.ownForce(n, o, o.Force, t.cite("Land Battles", "Slowing the Enemy")); f != nil {
				f.Standing.SlowEnemy = o.On
				changed[f.ID] = true
			}
		case FleetStance:
			if f := t.ownForce(n, o, o.Fleet, t.cite("Sea Battles", "")); f != nil {
				if !f.IsFleet() {
					t.ignore(n, o, f.ID, t.cite("Sea Battles", ""), fmt.Sprintf("%s is not a fleet", f.ID))
					continue
				}
				f.Standing.AvoidBattle = o.Avoid
				changed[f.ID] = true
			}
		case Split:
			t.split(n, o, org)
		case Merge:
			t.merge(n, o, org)
		case AssignLeader:
			t.assignLeader(n, o, org)
		case DetachLeader:
			t.detachLeader(n, o, org)
		case Garrison:
			t.setGarrison(n, o)
		case GrantSupply:
			t.grantSupply(n, o)
		case Special:
			t.emit(&SpecialRequested{Nation: n, Line: o.Line, Text: o.Text}, t.cite("Introduction", ""), game.Place{}, to(n), n)
		}
	}
	ids := make([]game.ForceID, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, game.CompareForceIDs)
	for _, id := range ids {
		if f := t.force(id); f != nil {
			t.emit(&StandingOrdersSet{Force: f.ID, Stance: f.Stance, Standing: f.Standing},
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

func (t *turn) split(n game.NationID, o Split, rule string) {
	src := t.ownForce(n, o, o.Force, rule)
	if src == nil {
		return
	}
	// Check everything first: a split is carried out whole or not at all.
	for _, want := range o.Troops {
		have := 0
		for _, tr := range src.Troops {
			if tr.Arm == want.Arm && tr.Grade == want.Grade {
				have += tr.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has %d %s %s, cannot split off %d", src.ID, have, want.Grade, want.Arm, want.Count))
			return
		}
	}
	for _, want := range o.Guns {
		have := 0
		for _, g := range src.Guns {
			if g.Kind == want.Kind && g.Owner == want.Owner {
				have += g.Count
			}
		}
		if want.Count <= 0 || want.Count > have {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has %d %s, cannot split off %d", src.ID, have, want.Kind, want.Count))
			return
		}
	}
	sh, have := o.Ships, src.Ships
	if sh.Warships > have.Warships || sh.DamagedWarships > have.DamagedWarships || sh.Transports > have.Transports || sh.DamagedTransports > have.DamagedTransports ||
		sh.Warships < 0 || sh.DamagedWarships < 0 || sh.Transports < 0 || sh.DamagedTransports < 0 {
		t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s has not the ships to split off", src.ID))
		return
	}
	for _, l := range o.Leaders {
		if !slices.ContainsFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l }) {
			t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s is not with %s", l, src.ID))
			return
		}
	}
	if adrift(src) && sh.Total() == 0 {
		t.ignore(n, o, src.ID, t.cite("Sea Movement", ""), fmt.Sprintf("%s is at sea in %s: what is split off it must take ships", src.ID, src.At.Sea))
		return
	}
	id, err := t.newForceID(n, o.NewID)
	if err != nil {
		t.ignore(n, o, src.ID, rule, err.Error())
		return
	}
	nf := &game.Force{ID: id, Nation: n, At: src.At, Aboard: src.Aboard, Stance: src.Stance, Standing: src.Standing,
		Unsupplied: src.Unsupplied, Since: src.Since}
	for _, want := range o.Troops {
		left := want.Count
		for i := range src.Troops {
			tr := &src.Troops[i]
			if tr.Arm != want.Arm || tr.Grade != want.Grade || left == 0 {
				continue
			}
			k := min(left, tr.Count)
			// Exhausted figures go with the part in proportion.
			ex := tr.Exhausted * k / max(tr.Count, 1)
			tr.Count -= k
			tr.Exhausted -= ex
			left -= k
			nf.Troops = append(nf.Troops, game.Troops{Arm: tr.Arm, Grade: tr.Grade, Count: k, Exhausted: ex})
		}
	}
	for _, want := range o.Guns {
		left := want.Count
		for i := range src.Guns {
			g := &src.Guns[i]
			if g.Kind != want.Kind || g.Owner != want.Owner || left == 0 {
				continue
			}
			k := min(left, g.Count)
			g.Count -= k
			left -= k
			nf.Guns = append(nf.Guns, game.Guns{Kind: g.Kind, Owner: g.Owner, Count: k})
		}
	}
	src.Ships.Warships -= sh.Warships
	src.Ships.DamagedWarships -= sh.DamagedWarships
	src.Ships.Transports -= sh.Transports
	src.Ships.DamagedTransports -= sh.DamagedTransports
	nf.Ships = sh
	for _, l := range o.Leaders {
		i := slices.IndexFunc(src.Leaders, func(x game.Leader) bool { return x.ID == l })
		nf.Leaders = append(nf.Leaders, src.Leaders[i])
		src.Leaders = slices.Delete(src.Leaders, i, i+1)
	}
	src.Normalize()
	nf.Normalize()
	t.addForce(nf)
	t.emit(&ForceSplit{Force: src.ID, New: nf.ID}, rule, src.At, to(n), n)
	if src.IsEmpty() {
		// Everything went to the new force, the passengers of a fleet too.
		t.reboard(src.ID, nf.ID)
		t.remove(src.ID)
	}
	t.checkMinimumAt(nf.At, n)
}

func samePlace(a, b *game.Force) bool { return a.At == b.At && a.Aboard == b.Aboard }

// adrift reports a fleet at sea: a force split or detached from it without
// ships would be a land force on no hex.
func adrift(f *game.Force) bool { return f.At.IsSea() && f.Aboard == "" }

func (t *turn) merge(n game.NationID, o Merge, rule string) {
	f := t.ownForce(n, o, o.Force, rule)
	if f == nil {
		return
	}
	into := t.ownForce(n, o, o.Into, rule)
	if into == nil {
		return
	}
	if f == into || !samePlace(f, into) {
		t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s and %s are not in the same place", f.ID, into.ID))
		return
	}
	// Troops and guns go aboard by embarking, within the cargo limit; a
	// leader alone may join either.
	army := func(x *game.Force) bool { return x.Figures() > 0 || x.GunCount() > 0 }
	if f.IsFleet() != into.IsFleet() && (army(f) || army(into)) {
		t.ignore(n, o, f.ID, t.cite("Sea Movement", "Transports"), fmt.Sprintf("%s and %s are a fleet and a land force, which do not merge: embark the land force", f.ID, into.ID))
		return
	}
	into.Troops = append(into.Troops, f.Troops...)
	into.Guns = append(into.Guns, f.Guns...)
	into.Leaders = append(into.Leaders, f.Leaders...)
	into.Ships.Warships += f.Ships.Warships
	into.Ships.DamagedWarships += f.Ships.DamagedWarships
	into.Ships.Transports += f.Ships.Transports
	into.Ships.DamagedTransports += f.Ships.DamagedTransports
	into.Unsupplied = into.Unsupplied || f.Unsupplied
	into.Normalize()
	if f.IsFleet() {
		t.reboard(f.ID, into.ID)
	}
	t.remove(f.ID)
	t.emit(&ForcesMerged{Force: f.ID, Into: into.ID}, rule, into.At, to(n), n)
}

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

func (t *turn) assignLeader(n game.NationID, o AssignLeader, rule string) {
	src, i := t.leaderForce(n, o.Leader)
	if src == nil {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no general or admiral %q", o.Leader))
		return
	}
	dst := t.ownForce(n, o, o.To, rule)
	if dst == nil {
		return
	}
	if dst == src {
		t.ignore(n, o, dst.ID, rule, fmt.Sprintf("%s is already with %s", o.Leader, dst.ID))
		return
	}
	if !samePlace(src, dst) {
		t.ignore(n, o, dst.ID, rule, fmt.Sprintf("%s is not in the same place as %s", o.Leader, dst.ID))
		return
	}
	dst.Leaders = append(dst.Leaders, src.Leaders[i])
	src.Leaders = slices.Delete(src.Leaders, i, i+1)
	dst.Normalize()
	t.emit(&LeaderAssigned{Leader: o.Leader, From: src.ID, To: dst.ID}, rule, dst.At, to(n), n)
	if src.IsEmpty() {
		t.remove(src.ID)
	} else {
		t.checkMinimumAt(src.At, n)
	}
}

func (t *turn) detachLeader(n game.NationID, o DetachLeader, rule string) {
	src, i := t.leaderForce(n, o.Leader)
	if src == nil {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no general or admiral %q", o.Leader))
		return
	}
	if src.IsEmpty() || (len(src.Leaders) == 1 && src.Figures() == 0 && src.GunCount() == 0 && src.Ships.Total() == 0) {
		t.ignore(n, o, src.ID, rule, fmt.Sprintf("%s is already alone", o.Leader))
		return
	}
	if adrift(src) {
		t.ignore(n, o, src.ID, t.cite("Sea Movement", ""), fmt.Sprintf("%s is at sea in %s with %s: he can leave it only in a port or good-holding hex", o.Leader, src.At.Sea, src.ID))
		return
	}
	id, err := t.newForceID(n, o.NewID)
	if err != nil {
		t.ignore(n, o, src.ID, rule, err.Error())
		return
	}
	nf := &game.Force{ID: id, Nation: n, At: src.At, Aboard: src.Aboard, Leaders: []game.Leader{src.Leaders[i]}, Since: src.Since}
	src.Leaders = slices.Delete(src.Leaders, i, i+1)
	src.Normalize()
	t.addForce(nf)
	t.emit(&LeaderAssigned{Leader: o.Leader, From: src.ID, To: nf.ID, Detached: true}, rule, src.At, to(n), n)
	t.checkMinimumAt(src.At, n)
}

func (t *turn) setGarrison(n game.NationID, o Garrison) {
	rule := t.cite("Capturing and Controlling Cities and Provinces", "")
	f := t.ownForce(n, o, o.Force, rule)
	if f == nil {
		return
	}
	c, ok := t.m.City(o.City)
	if !ok || f.At.Hex != c.Hex || f.Aboard != "" {
		t.ignore(n, o, f.ID, rule, fmt.Sprintf("%s is not in the city %q", f.ID, o.City))
		return
	}
	f.Garrison = true
	t.emit(&GarrisonSet{Force: f.ID, City: c.Name}, rule, f.At, to(n), n)
}

func (t *turn) grantSupply(n game.NationID, o GrantSupply) {
	rule := t.cite("Supply", "")
	i := slices.IndexFunc(t.s.Depots, func(d game.Depot) bool { return d.ID == o.Depot })
	if i < 0 || t.s.Depots[i].Nation != n {
		t.ignore(n, o, "", rule, fmt.Sprintf("you have no depot %q", o.Depot))
		return
	}
	if _, ok := t.s.Nation(o.Nation); !ok || o.Nation == n {
		t.ignore(n, o, "", rule, fmt.Sprintf("%q is not another nation in the game", o.Nation))
		return
	}
	d := &t.s.Depots[i]
	has := slices.Contains(d.GrantedTo, o.Nation)
	switch {
	case o.Withdraw && has:
		d.GrantedTo = slices.DeleteFunc(d.GrantedTo, func(x game.NationID) bool { return x == o.Nation })
	case !o.Withdraw && !has:
		d.GrantedTo = append(d.GrantedTo, o.Nation)
		slices.Sort(d.GrantedTo)
	}
	place := d.At
	t.emit(&DepotGranted{Depot: d.ID, Nation: o.Nation, Withdrawn: o.Withdraw}, rule, place, to(n, o.Nation), n, o.Nation)
}
