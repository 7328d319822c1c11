package trossian

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Chance cards: "At the start of every game year, the umpire will roll 1d10
// for each nation, the result indicating the game turn in which that nation
// is subject to the results of a Chance Card. On a roll of 10, the umpire
// shall roll twice, ignoring any additional results of 10." The engine
// rolls and records the dice (ChanceRolled, for the referee) — in winter
// for the coming year, and in the first Early Spring for a year nobody
// rolled for yet — and tells the referee and the kingdom when a card falls
// due (ChanceDue). 1 to 9 are the nine phases, Early Spring to Late Autumn.
// The card's effect is the referee's ruling (rulings.go): "Other rule
// conflicts will be dealt with by the Umpire as they occur."

const purposeChance = "chance card"

// stepChanceDue rolls the year's cards if nobody has, and tells the cards
// falling on this turn.
func (t *turn) stepChanceDue() {
	if t.phase == EarlySpring {
		for _, n := range t.nationIDs() {
			if ns, _ := t.s.Nation(n); ns.ChanceYear < t.year {
				t.rollChance(n, t.year)
			}
		}
	}
	for _, c := range t.s.Chance {
		if c.Turn != t.s.Turn {
			continue
		}
		if ns, ok := t.s.Nation(c.Nation); !ok || ns.Eliminated {
			continue
		}
		t.emit(&ChanceDue{Header: t.head(t.r.Chance.Rule, "", to(c.Nation), c.Nation), Nation: c.Nation, Turn: c.Turn, Label: t.s.Calendar.Label(c.Turn)})
	}
}

// stepChanceRoll rolls every kingdom's cards for the coming year.
func (t *turn) stepChanceRoll() {
	for _, n := range t.nationIDs() {
		t.rollChance(n, t.year+1)
	}
}

// rollChance rolls one kingdom's cards for a year.
func (t *turn) rollChance(n game.NationID, year int) {
	ch := t.r.Chance
	var dice, phases []int
	d := t.dice.Roll(purposeChance, ch.Die, string(n))
	dice = append(dice, d)
	if d != ch.Again {
		phases = append(phases, d)
	}
	for tries := 0; d == ch.Again && len(phases) < ch.Extra && tries < 100; tries++ {
		x := t.dice.Roll(purposeChance, ch.Die, string(n))
		dice = append(dice, x)
		if x != ch.Again {
			phases = append(phases, x)
		}
	}
	ns, _ := t.s.Nation(n)
	ns.ChanceYear = year
	var turns []int
	for _, p := range phases {
		turn := t.s.Calendar.Turn(year, Phase(min(p, int(LateAutumn))))
		turns = append(turns, turn)
		t.s.Chance = append(t.s.Chance, ChanceCard{Nation: n, Turn: turn})
	}
	slices.Sort(turns)
	t.emit(&ChanceRolled{Header: t.head(ch.Rule, "", refereeOnly(), n), Nation: n, Year: year, Dice: dice, Turns: turns})
}

// stepLeaderless: "An army that loses its last HQ will either hunker down
// and wait for orders or will march to the nearest Home City for safety"
// (Rules.Leaderless.OnLoss).
func (t *turn) stepLeaderless() {
	for _, id := range sortedIDs(t.lostHQ) {
		a, ok := t.s.Army(id)
		if !ok || a.HasHQ() {
			continue
		}
		e := &Leaderless{Header: t.head(t.r.Leaderless.Rule, a.At, to(a.Nation), a.Nation), Army: id, At: t.armyProvince(a), Action: LeaderlessHunker}
		a.March, a.Task, a.TaskSince = nil, "", 0
		if t.r.Leaderless.OnLoss == LeaderlessHome && a.Aboard == "" {
			if home := t.nearestHomeCity(a); home != "" && home != a.At {
				a.March = t.route(a.Nation, a.At, home)
				e.Action, e.Toward = LeaderlessHome, home
			}
		}
		t.emit(e)
	}
}

// nearestHomeCity is the town or port of the army's own kingdom that its
// kingdom holds, nearest by land (then by name).
func (t *turn) nearestHomeCity(a *Army) string {
	dist := t.m.LandDistances(a.At)
	best, bestD := "", 1<<30
	for _, p := range t.m.Provinces {
		if p.Kingdom != a.Nation || !p.Kind.IsCity() || t.s.Controller(p.ID) != a.Nation {
			continue
		}
		if d, ok := dist[p.ID]; ok && d < bestD {
			best, bestD = p.ID, d
		}
	}
	return best
}
