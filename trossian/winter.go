package trossian

import (
	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/game"
)

// Winter quarters. "After the Late Autumn turn ends, the armies must go
// into winter quarters. Winter quarters can be built in any province" —
// nobody marches in winter. Navies go home; sieges go on. "A national
// treasury receives AP after the Late Autumn": 2 for each province, 4 for
// each town, 6 for each port a kingdom holds. The AP banked in its cities
// and its income make the pool it spends this winter; a besieged city's
// income and bank stay in the city, "those AP may only be spent to recruit
// forces in that city". What is not spent "must be banked at a player's
// controlled cities".

// stepWinterQuarters sends the navies home and carries the sieges through
// the winter.
func (t *turn) stepWinterQuarters() {
	t.winterNavies()
	t.winterSieges()
}

// stepIncome pays each kingdom.
func (t *turn) stepIncome() {
	t.pool = map[game.NationID]int{}
	for _, n := range t.nationIDs() {
		e := &IncomeCollected{Header: t.head(t.r.Income.Rule, "", to(n), n), Nation: n}
		for _, pr := range t.m.Provinces {
			ps, _ := t.s.Province(pr.ID)
			if ps.Controller != n {
				continue
			}
			ap := t.r.Income.Plain
			switch pr.Kind {
			case Town:
				ap = t.r.Income.Town
			case Port:
				ap = t.r.Income.Port
			}
			pi := ProvinceIncome{Province: pr.ID, AP: ap}
			e.Income += ap
			if ps.Siege != nil {
				// "The besieged town or port does generate 4AP or 6AP as
				// normal, even when besieged" — into its own bank.
				pi.Besieged = true
				ps.Bank += ap
			} else {
				t.pool[n] += ap + ps.Bank
				e.Banked += ps.Bank
				ps.Bank = 0
			}
			e.Provinces = append(e.Provinces, pi)
		}
		e.Pool = t.pool[n]
		t.emit(e)
	}
}

// stepPurchases carries out the BUY orders in kingdom then sheet order,
// each paid whole or refused.
func (t *turn) stepPurchases() {
	for _, f := range t.filed["purchases"] {
		n, x := f.nation, f.order.(Buy)
		if !t.legal(n, x) {
			continue
		}
		cost, _ := x.Cost(t.r)
		ps, _ := t.s.Province(x.City)
		from := "pool"
		funds := &t.pool
		if ps.Siege != nil {
			from = x.City
			if cost > ps.Bank {
				t.ignore(n, x, secRecruiting, "%s is besieged: its %d AP may only be spent in it (\"those AP may only be spent to recruit forces in that city\"), and this costs %d", x.City, ps.Bank, cost)
				continue
			}
			ps.Bank -= cost
		} else {
			if cost > (*funds)[n] {
				t.ignore(n, x, secRecruiting, "it costs %d AP and %d are left to spend", cost, (*funds)[n])
				continue
			}
			(*funds)[n] -= cost
		}
		ns, _ := t.s.Nation(n)
		e := &Recruited{Header: t.head(secRecruiting, x.City, to(n), n), Nation: n, At: x.City, Stands: x.Stands, Messengers: x.Messengers, Cost: cost, From: from}
		if x.Stands.Total() > 0 {
			id := t.nextArmyID(ns)
			t.s.Armies = append(t.s.Armies, Army{ID: id, Nation: n, At: x.City, Stands: x.Stands.Normalize()})
			e.Army = id
		}
		for i := 0; i < x.Navies; i++ {
			id := t.nextNavyID(ns)
			t.s.Navies = append(t.s.Navies, Navy{ID: id, Nation: n, At: NavyPlace{Province: x.City}})
			e.Navies = append(e.Navies, id)
		}
		ns.Couriers += x.Messengers
		e.Left = t.pool[n]
		if from != "pool" {
			e.Left = ps.Bank
		}
		t.dirty = true
		t.emit(e)
	}
}

// stepBanking places the pool: BANK orders first, the rest in the King's
// seat (or, besieged, the first city he holds that is not).
func (t *turn) stepBanking() {
	for _, f := range t.filed["banking"] {
		n, x := f.nation, f.order.(Bank)
		if !t.legal(n, x) {
			continue
		}
		if x.AP > t.pool[n] {
			t.ignore(n, x, secRecruiting, "%d AP are left to bank, not %d", t.pool[n], x.AP)
			continue
		}
		t.bank(n, x.City, x.AP)
	}
	for _, n := range t.nationIDs() {
		left := t.pool[n]
		if left == 0 {
			continue
		}
		city := t.seat(n)
		if ps, ok := t.s.Province(city); !ok || ps.Siege != nil {
			city = ""
			for _, pr := range t.m.Provinces {
				if ps, _ := t.s.Province(pr.ID); pr.Kind.IsCity() && ps.Controller == n && ps.Siege == nil {
					city = pr.ID
					break
				}
			}
		}
		if city == "" {
			t.pool[n] = 0
			t.emit(&APBanked{Header: t.head(secRecruiting, "", to(n), n), Nation: n, AP: left, Lost: true})
			continue
		}
		t.bank(n, city, left)
	}
}

func (t *turn) bank(n game.NationID, city string, ap int) {
	ps, _ := t.s.Province(city)
	ps.Bank += ap
	t.pool[n] -= ap
	t.emit(&APBanked{Header: t.head(secRecruiting, city, to(n), n), Nation: n, City: city, AP: ap, Bank: ps.Bank})
}

// WinterFunds returns what a kingdom will have to spend at the coming
// winter's purchases, as the state stands: the pool (its income from the
// provinces it holds not under siege and the AP banked in them) and, by
// besieged city, the AP that city will hold. The checker's running total.
func WinterFunds(m *areamap.Map, r *Rules, s *State, n game.NationID) (pool int, besieged map[string]int) {
	besieged = map[string]int{}
	for _, pr := range m.Provinces {
		ps, ok := s.Province(pr.ID)
		if !ok || ps.Controller != n {
			continue
		}
		ap := r.Income.Plain
		switch pr.Kind {
		case Town:
			ap = r.Income.Town
		case Port:
			ap = r.Income.Port
		}
		if ps.Siege != nil {
			besieged[pr.ID] = ps.Bank + ap
			continue
		}
		pool += ap + ps.Bank
	}
	return pool, besieged
}
