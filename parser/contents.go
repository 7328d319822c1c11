package parser

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Contents lists the units an order names: troops, guns, ships and leaders
// (SPLIT, DISBAND, TRANSFER, and the referee's ADD and REMOVE). It is the
// engine's Units, so a ruling's ADD and REMOVE carry what was read.
type Contents = engine.Units

type contentsAllow struct{ troops, guns, ships, leaders bool }

var allowAll = contentsAllow{true, true, true, true}

type unitKind int

const (
	unitTroops unitKind = iota + 1
	unitGun
	unitShip
	unitDepot
	unitLeader
)

// unitWord is a word that names a kind of unit after a count.
type unitWord struct {
	word  string
	kind  unitKind
	arm   game.Arm
	gun   game.GunKind
	ship  string // "warship", "transport", "damaged-warship", "damaged-transport"
	grade game.Grade
}

// unitWords are the unit words, with the plurals and synonyms players use.
// The first of each kind is the canonical one.
var unitWords = func() []unitWord {
	var w []unitWord
	arm := func(a game.Arm, words ...string) {
		for _, s := range words {
			w = append(w, unitWord{word: s, kind: unitTroops, arm: a})
		}
	}
	arm(game.LineInfantry, "infantry", "line-infantry")
	arm(game.LightInfantry, "light-infantry")
	arm(game.IrregularLight, "grenzer", "grenzers", "grenzler", "grenzlers", "irregular-light", "irregular-light-infantry")
	arm(game.HeavyCavalry, "heavy-cavalry")
	arm(game.MediumCavalry, "medium-cavalry")
	arm(game.LightCavalry, "light-cavalry")
	arm(game.Gunners, "gunners", "gunner")
	gun := func(k game.GunKind, words ...string) {
		for _, s := range words {
			w = append(w, unitWord{word: s, kind: unitGun, gun: k})
		}
	}
	gun(game.LightGun, "light-gun", "light-guns")
	gun(game.FieldGun, "field-gun", "field-guns")
	gun(game.HeavyGun, "heavy-gun", "heavy-guns")
	for _, s := range []string{"warship", "transport", "damaged-warship", "damaged-transport"} {
		w = append(w, unitWord{word: s, kind: unitShip, ship: s}, unitWord{word: s + "s", kind: unitShip, ship: s})
	}
	w = append(w, unitWord{word: "depot", kind: unitDepot}, unitWord{word: "depots", kind: unitDepot})
	return w
}()

// lookupUnit resolves a unit word by exact match or unique prefix; synonyms
// of the same unit do not make a prefix ambiguous.
func lookupUnit(word string, troopsOnly bool) (unitWord, []string) {
	w := fold(word)
	for _, u := range unitWords {
		if troopsOnly && u.kind != unitTroops {
			continue
		}
		if u.word == w {
			return u, nil
		}
	}
	if len(w) < minPrefix {
		return unitWord{}, nil
	}
	var hits []unitWord
	var names []string
	for _, u := range unitWords {
		if troopsOnly && u.kind != unitTroops {
			continue
		}
		if strings.HasPrefix(u.word, w) {
			dup := false
			for _, h := range hits {
				if h.kind == u.kind && h.arm == u.arm && h.gun == u.gun && h.ship == u.ship {
					dup = true
				}
			}
			if !dup {
				hits = append(hits, u)
				names = append(names, u.word)
			}
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return unitWord{}, names
}

func unitWordList() []string {
	var out []string
	for _, u := range unitWords {
		out = append(out, u.word)
	}
	return out
}

// unit reads the unit word(s) after a count: "C infantry", "light cavalry",
// "field-gun", "warships". troops is false where troops are not allowed.
func (p *parser) unit(troops bool) unitWord {
	it := p.peek()
	var grade game.Grade
	if it.typ == itemWord && len(it.val) == 1 {
		if g, err := game.ParseGrade(it.val); err == nil {
			p.next()
			grade = g
			it = p.peek()
		}
	}
	if it.typ != itemWord {
		if grade != 0 {
			p.expected(it, "an arm after the grade, such as infantry, light-cavalry or gunners", "Write the count, the grade and the arm: 24 C infantry.")
		}
		p.expected(it, "a grade and arm (C infantry), a gun (field-gun) or a ship (warship)", "Write, for example, 24 C infantry, 2 field-gun or 3 warship.")
	}
	// Two words for one: "light cavalry", "field gun", "damaged warship".
	var u unitWord
	var amb []string
	if words, ok := p.wordsAhead(2); ok {
		if u2, _ := lookupUnit(words[0]+"-"+words[1], grade != 0); u2.kind != 0 && !strings.Contains(words[0], "-") {
			p.next()
			u = u2
		}
	}
	if u.kind == 0 {
		u, amb = lookupUnit(it.val, grade != 0)
	}
	p.next()
	switch {
	case u.kind == 0 && len(amb) > 0:
		p.fail(it, fmt.Sprintf("%s could be %s", it.quoted(), orList(amb)), "Write more of the word.")
	case u.kind == 0:
		p.fail(it, fmt.Sprintf("expected an arm (infantry, light-infantry, grenzer, heavy-cavalry, medium-cavalry, light-cavalry, gunners), a gun (light-gun, field-gun, heavy-gun) or a ship (warship, transport), read %s%s",
			it.quoted(), didYouMean(suggest(it.val, unitWordList()))), "Write, for example, 24 C infantry, 2 field-gun or 3 warship.")
	case u.kind == unitTroops && grade == 0:
		p.fail(it, fmt.Sprintf("expected a grade (A, B, C or D) before %s", it.val), "Write the count, the grade and the arm: 24 C "+u.word+".")
	case u.kind != unitTroops && grade != 0:
		p.fail(it, fmt.Sprintf("a grade was given for %s, which has none", it.val), "Write the count and the "+u.word+" only.")
	case u.kind == unitTroops && !troops:
		p.fail(it, fmt.Sprintf("%s cannot be named here", u.word), "Infantry, cavalry and gunners cannot be transferred; list guns or ships.")
	}
	u.grade = grade
	return u
}

// contents reads a list of units, each separated from the next by a comma,
// AND or nothing: "24 C infantry, 12 B light-cavalry, 2 field-gun, 8 C
// gunners, general Keith". It stops at the end of the line or at one of the
// stop words.
func (p *parser) contents(allow contentsAllow, what string, stop ...string) Contents {
	var c Contents
	n := 0
	for {
		it := p.peek()
		if it.typ == itemEOL || it.typ == itemWord && contains(stop, strings.ToUpper(it.val)) {
			break
		}
		switch {
		case it.typ == itemNumber:
			count := p.number("a count", 100000)
			if count == 0 {
				p.fail(it, "a count of 0", "Leave out what you do not mean to move.")
			}
			u := p.unit(allow.troops)
			switch u.kind {
			case unitTroops:
				c.Troops = append(c.Troops, game.Troops{Arm: u.arm, Grade: u.grade, Count: count})
			case unitGun:
				if !allow.guns {
					p.fail(it, "guns cannot be named here", "List troops only.")
				}
				g := game.Guns{Kind: u.gun, Count: count}
				if _, ok := p.acceptExact("OF"); ok {
					g.Owner = p.nation()
				}
				c.Guns = append(c.Guns, g)
			case unitShip:
				if !allow.ships {
					p.fail(it, "ships cannot be named here", "List troops and guns only.")
				}
				switch u.ship {
				case "warship":
					c.Ships.Warships += count
				case "transport":
					c.Ships.Transports += count
				case "damaged-warship":
					c.Ships.DamagedWarships += count
				default:
					c.Ships.DamagedTransports += count
				}
			default:
				p.fail(it, fmt.Sprintf("%s cannot be named here", u.word), "Depots are bought, fielded and transferred by their own orders.")
			}
		case it.typ == itemWord && allow.leaders:
			if _, ok := p.accept("GENERAL", "ADMIRAL", "LEADER"); !ok {
				if _, known := p.v.Leader(it.val); !known {
					p.expected(it, "a count (24 C infantry) or GENERAL and a name", "List the units as count, grade and arm, and leaders as general NAME.")
				}
			}
			c.Leaders = append(c.Leaders, p.leader())
		default:
			p.expected(it, what, "List the units as count, grade and arm: 24 C infantry, 2 field-gun.")
		}
		n++
		if !p.acceptComma() {
			p.acceptExact("AND")
		}
	}
	if n == 0 {
		p.expected(p.peek(), what, "List the units as count, grade and arm: 24 C infantry, 2 field-gun.")
	}
	return c
}
