package narrative

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// The story's ending: how and when the battle ended, the losses, the
// pursuit, the retreat and what came after.

type endingData struct {
	// Losses are each side's casualties and those regained (own side
	// first; the enemy's as far as it was seen); Net the own side's net
	// loss, pursuit included (told after the pursuit). The referee's story
	// tells both sides' losses in Losses and their nets with them.
	Outcome, Pursuit, Retreat, Net string
	Losses                         []string
	After                          []string
}

func (t *teller) ending() any {
	e := t.e
	var d endingData
	count := breakCount(e)
	d.Outcome = t.outcome(count)
	// Each side's losses: the teller's own in full, the enemy's as far
	// as it was seen; the referee's story tells both in full.
	for _, side := range []int{t.mine, 1 - t.mine} {
		if l := t.losses(side); l != "" {
			d.Losses = append(d.Losses, l)
		}
	}
	if !t.full {
		us := t.us()
		if n := gunsLost(us, "field"); n > 0 {
			d.Losses[0] += "; " + guns(n, "of our") + " overrun on the field"
		}
		if net := t.net(t.mine); net != "" {
			if us.PursuitLost == 0 {
				// Nothing more to count after the pursuit: the net loss
				// closes the count.
				d.Losses[0] += "; " + net
			} else {
				d.Net = net
			}
		}
	}
	if e.Pursued && (e.Winner == 0 || e.Winner == 1) {
		d.Pursuit = t.pursuit(e.Winner)
	}
	for _, r := range e.Retreats {
		if r.Blocked {
			continue
		}
		// Who fell back is read from the retreating force: after a V4
		// withdrawal it is the winner.
		side := -1
		for i := range e.Sides {
			if slices.Contains(e.Sides[i].Forces, r.Force) {
				side = i
			}
		}
		if side < 0 && (e.Winner == 0 || e.Winner == 1) {
			side = 1 - e.Winner
		}
		if side >= 0 {
			d.Retreat = fmt.Sprintf("%s fell back into hex %s", t.subject(side), r.To)
		}
		break
	}
	// A beaten force that could not retreat (V4) is taken, and its
	// generals with it.
	for _, r := range e.Retreats {
		if !r.Captured {
			continue
		}
		side := -1
		for i := range e.Sides {
			if slices.Contains(e.Sides[i].Forces, r.Force) {
				side = i
			}
		}
		if side < 0 || !t.full && side != t.mine && e.Sides[side].Level < ruleset.LevelApprox {
			continue
		}
		taken := fmt.Sprintf("%s force %s could not retreat and was taken", t.poss(side), r.Force)
		var names []string
		for _, g := range r.Generals {
			names = append(names, g.Name)
		}
		if len(names) > 0 {
			taken += ", and " + english.List(names) + " with it"
		}
		d.After = append(d.After, taken)
	}
	sides := []int{t.mine}
	if t.full {
		sides = []int{0, 1}
	}
	for _, side := range sides {
		s := &e.Sides[side]
		for _, g := range s.GunsTaken {
			kind := strings.TrimSuffix(g.Kind.String(), "-gun")
			if t.full {
				d.After = append(d.After, fmt.Sprintf("%s brought in %d of %s %s %s as trophies", t.name(side), g.Count, t.poss(1-side), kind,
					english.Noun(g.Count, "gun")))
			} else {
				d.After = append(d.After, fmt.Sprintf("%d enemy %s %s %s brought in as trophies", g.Count, kind, english.Noun(g.Count, "gun"),
					english.Agree(g.Count, "was", "were")))
			}
		}
		for _, p := range s.Promotions {
			d.After = append(d.After, fmt.Sprintf("%s of %s %s %s %s promoted to grade %s for %s conduct", english.Count(p.Figures, "figure"),
				t.poss(side), p.From, english.Plural(kindWords[p.Arm]), english.Agree(p.Figures, "was", "were"), p.To,
				english.Agree(p.Figures, "its", "their")))
		}
		if x := s.Experience; x != nil {
			r := fmt.Sprintf("%s's reputation grew (experience %d)", x.Name, x.XP)
			if x.Genius {
				r += "; he is now spoken of as a military genius"
			}
			d.After = append(d.After, r)
		}
	}
	return d
}

// outcome tells how and when the battle ended, from the teller's side: the
// army morale count of a broken army at the bound it broke in, a repulse
// or a withdrawal at nightfall, a drawn day; days of fighting when more
// than one.
func (t *teller) outcome(count *battle.ArmyBreak) string {
	e := t.e
	w, l := e.Winner, 1-e.Winner
	at, on := ended(e, count)
	when := "at " + at
	if on != "" {
		when += " " + on
	}
	var s string
	switch {
	case e.Outcome == battle.Decisive && count != nil:
		return t.armyBroke(count)
	case e.Outcome == battle.Decisive && (w == 0 || w == 1):
		switch {
		case t.full:
			s = fmt.Sprintf("%s army broke, and the day was %s", t.poss(l), t.name(w)+"'s")
		case w == t.mine:
			s = t.choose("the enemy's army broke and the day was ours", "at last the enemy's army gave way, and the field was ours")
		default:
			s = t.choose("our army broke, and the day was lost", "our army could stand no more and gave way")
		}
	case e.Outcome == battle.Repulse && (w == 0 || w == 1):
		switch {
		case t.full:
			s = fmt.Sprintf("%s attack was beaten off, and %s held the field", t.poss(l), t.name(w))
		case w == t.mine:
			s = "the enemy's attack was beaten off, and we held the field"
		default:
			s = "our attack was repulsed, though our army held together"
		}
	case e.Outcome == battle.Withdrew && (w == 0 || w == 1):
		switch {
		// V4: the defender that draws off unbroken is the winner; the
		// attacker that failed to break it is treated as the loser.
		case t.full:
			s = fmt.Sprintf("%s had failed to break %s, which drew off in good order, unpursued", t.name(l), t.name(w))
		case w == t.mine:
			s = "the enemy had failed to break us, and we drew off in good order, unpursued"
		default:
			s = "the enemy drew off in good order, unbroken, and our attack had failed"
		}
	default:
		s = "neither army could break the other, and both drew off"
	}
	if e.Days > 1 {
		return fmt.Sprintf("%s, after %s of fighting, %s", when, english.Count(e.Days, "day"), s)
	}
	return when + ", " + s
}

// breakCount is the army morale count recorded when the beaten side's
// army broke (nil: the event carries none, as a referee's tabletop result
// may not).
func breakCount(e *engine.LandBattle) *battle.ArmyBreak {
	for i := len(e.Moments) - 1; i >= 0; i-- {
		if m := e.Moments[i]; m.What == battle.MBreak && m.Count != nil && m.Count.Side == 1-e.Winner {
			return m.Count
		}
	}
	return nil
}

// armyBroke tells why an army broke, and when: the army morale rule's count
// at the break ("half or more of your army's figures … are eliminated, have
// routed off the table, or are in shaken status"), so that a reader sees
// how an army with few casualties could break — volleys shake units
// without killing many men. The own count (and, for the referee, both) is
// told in full; the enemy's with its numbers only at the exact scouting
// level, otherwise in words. The hour is the bound's it broke in.
func (t *teller) armyBroke(c *battle.ArmyBreak) string {
	broken := c.Side
	won := broken != t.mine
	at := "at " + clock(minutesAt(c.Turn, c.Bound))
	if c.Day > 1 {
		at += fmt.Sprintf(" on the %s day, in %s", english.Ordinal(c.Day), turnWord(c.Turn))
	} else {
		at += fmt.Sprintf(", in %s of the day", turnWord(c.Turn))
	}
	// Whether the teller may count the broken army: its own, or the
	// enemy's scouted exactly; may name its commander: scouted from the
	// approximate level.
	counted := t.full || !won || t.theirLevel() >= ruleset.LevelExact
	named := t.full || !won || t.theirLevel() >= ruleset.LevelApprox
	// The commander's fall shook the units about him.
	if fate := commanderFate(c.CommanderLost); fate != "" && named {
		at += fmt.Sprintf(", with %s commander %s and the battalions about him shaken", t.poss(broken), fate)
	}
	army := "foot and horse"
	if c.Gunners {
		army = "foot, horse and gunners"
	}
	var what string
	switch {
	case counted:
		what = fmt.Sprintf("%d of %s %d %s %s %s", c.Lost(), t.poss(broken), c.Counted, army, english.Agree(c.Lost(), "was", "were"), brokenStates(c))
	case c.Lost()*2 >= c.Counted:
		// The fogged copy carries no figures (0 of 0): the rule's half.
		what = fmt.Sprintf("half and more of the enemy's %s were shaken, in flight or fallen", army)
	default:
		what = fmt.Sprintf("so many of the enemy's %s were shaken, in flight or fallen", army)
	}
	var end string
	switch {
	case t.full:
		end = fmt.Sprintf("%s army broke: the day was %s", t.poss(broken), t.name(1-broken)+"'s")
	case won:
		end = t.choose("the enemy's army broke: the day was ours", "at last the enemy's army gave way, and the field was ours")
	default:
		end = t.choose("our army broke: the day was lost", "our army could stand no more and gave way")
	}
	return at + ", " + what + ", and " + end
}

// commanderFate words a commander's fate for the break ("" when none).
func commanderFate(fate string) string {
	switch fate {
	case battle.Killed:
		return "fallen"
	case battle.Captured:
		return "taken"
	case battle.Wounded:
		return "carried from the field"
	}
	return ""
}

// brokenStates lists the states the morale rule counted figures in, those
// not nil, with the count of each when there is more than one: "shaken,
// routed or fallen (150 shaken, 40 routed, 22 fallen)".
func brokenStates(c *battle.ArmyBreak) string {
	var words, counts []string
	for _, p := range []struct {
		n    int
		word string
	}{{c.Shaken, "shaken"}, {c.Routed, "routed"}, {c.Eliminated, "fallen"}} {
		if p.n > 0 {
			words = append(words, p.word)
			counts = append(counts, fmt.Sprintf("%d %s", p.n, p.word))
		}
	}
	switch len(words) {
	case 0:
		return "lost"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1] + " (" + strings.Join(counts, ", ") + ")"
}

// casualties lists a side's battle losses, those that are not nil: the
// killed or wounded (figures struck down by fire and melee: the lightly
// wounded among them may come back), the routed and (V4) the surrounded
// and taken. about marks estimates (the enemy scouted approximately),
// whose counts below the smallest unit are 0 and left out.
func casualties(s *engine.BattleSide) string {
	var parts []string
	if s.Killed > 0 {
		parts = append(parts, fmt.Sprintf("%d killed or wounded", s.Killed))
	}
	if s.Routed > 0 {
		parts = append(parts, fmt.Sprintf("%d routed", s.Routed))
	}
	if s.Captured > 0 {
		parts = append(parts, fmt.Sprintf("%d surrounded and taken", s.Captured))
	}
	return english.List(parts)
}

// losses tells a side's losses as far as the teller saw them: in full its
// casualties (killed or wounded, routed, taken) and how many of them came
// back to the colours after the battle — the wounded who recovered and the
// routed who rallied; the enemy's estimated, or not at all below the
// approximate level. The referee's story adds each side's net loss.
func (t *teller) losses(side int) string {
	s := &t.e.Sides[side]
	cas := s.Killed + s.Routed + s.Captured
	level := ruleset.LevelExact
	if !t.full && side != t.mine {
		level = t.theirLevel()
	}
	switch {
	case level < ruleset.LevelApprox:
		return ""
	case level < ruleset.LevelExact:
		if cas == 0 {
			return ""
		}
		return fmt.Sprintf("%s lost perhaps %s", t.subject(side), casualties(s))
	case cas == 0 && t.ours(side):
		return "we lost no men on the field"
	case cas == 0:
		return fmt.Sprintf("%s lost no men on the field", t.subject(side))
	}
	out := fmt.Sprintf("%s casualties were %d: %s", t.poss(side), cas, casualties(s))
	if !t.full && side != t.mine {
		return out // the enemy's regained figures are not seen
	}
	switch {
	case s.Regained == cas:
		out += fmt.Sprintf("; all %d of them came back to the colours after the battle", s.Regained)
	case s.Regained > 0:
		out += fmt.Sprintf("; %d of them came back to the colours after the battle", s.Regained)
	default:
		out += "; none of them came back to the colours"
	}
	if t.full {
		if n := gunsLost(s, "field"); n > 0 {
			out += fmt.Sprintf("; %s overrun on the field", english.Count(n, "gun"))
		}
		if net := t.net(side); net != "" {
			out += "; " + net
		}
	}
	return out
}

// net is a side's net loss of figures, the pursuit included, which with
// the casualties and those regained adds up to the event's Lost ("" when
// the side lost nothing at all).
func (t *teller) net(side int) string {
	s := &t.e.Sides[side]
	if s.Killed+s.Routed+s.Captured == 0 && s.PursuitLost == 0 {
		return ""
	}
	if s.Lost <= 0 {
		return fmt.Sprintf("in all, the battle cost %s no men", t.object(side))
	}
	return fmt.Sprintf("in all, the battle cost %s %s", t.object(side), english.Count(s.Lost, "man"))
}

// gunsLost counts a side's guns lost for one reason ("field", "pursuit")
// as far as the side's copy of the event carries them.
func gunsLost(s *engine.BattleSide, reason string) int {
	n := 0
	for _, g := range s.GunChanges {
		if g.Reason == reason {
			n += g.Count
		}
	}
	return n
}

// guns says n guns, "one of our guns was" or "3 of our guns were".
func guns(n int, whose string) string {
	if n == 1 {
		return "one " + whose + " guns was"
	}
	return fmt.Sprintf("%d %s guns were", n, whose)
}

// pursuit tells the pursuit from its figures, the same facts from both
// sides as far as each side's copy carries them: the winner's excess
// cavalry (its own), the figures the loser lost to it, and the guns the
// loser lost on the road (the pursuit's D6 per gun, which falls whether or
// not the winner had cavalry to spare).
func (t *teller) pursuit(w int) string {
	win, lose := &t.e.Sides[w], &t.e.Sides[1-w]
	if t.full || w == t.mine {
		var s string
		if win.PursuitLight+win.PursuitHeavy > 0 {
			s = fmt.Sprintf("%s cavalry pursued %s", t.poss(w), t.beaten(1-w))
			if lose.PursuitLost > 0 {
				s += fmt.Sprintf(" and cut down %d more of them", lose.PursuitLost)
			}
		} else {
			s = fmt.Sprintf("%s had no cavalry to spare for a pursuit", t.subject(w))
		}
		if n := gunsLost(lose, "pursuit"); n == 1 {
			s += fmt.Sprintf(", but %s left one gun behind on the road", t.subject(1-w))
		} else if n > 1 {
			s += fmt.Sprintf(", but %s left %d guns behind on the road", t.subject(1-w), n)
		}
		return s
	}
	us := t.us()
	n := gunsLost(us, "pursuit")
	switch {
	case us.PursuitLost > 0 && n > 0:
		return fmt.Sprintf("the enemy's horse rode after us and cut down %d more of our men, and %s lost on the road", us.PursuitLost, guns(n, "of our"))
	case us.PursuitLost > 0:
		return fmt.Sprintf("the enemy's horse rode after us and cut down %d more of our men", us.PursuitLost)
	case n > 0:
		return fmt.Sprintf("the enemy's horse took no toll of our men, but %s lost on the road", guns(n, "of our"))
	}
	return "our retreat was covered, and the enemy's horse took no toll of it"
}

// beaten names the beaten side as the pursuit's object: "the beaten
// enemy", "the beaten army of Unterreich".
func (t *teller) beaten(side int) string {
	if t.full {
		return "the beaten army of " + t.name(side)
	}
	return "the beaten enemy"
}
