// Package narrative tells a nation's land battles as a few paragraphs of
// prose, from the LandBattle events the engine recorded.
//
// The telling is a function of the events one nation may see (pass
// engine.EventsFor(events, nation)): every number and name in it comes from
// the event as fogged for that nation, so a side's story names nothing of the
// enemy its scouts did not see — the enemy's commander only from the
// approximate scouting level, counts estimated below the exact level ("about
// 40 infantry", "a few guns"), arms only from the arms level. A nation's
// story is told in the first person of its side ("our columns went
// forward"); the referee's (engine.Referee, every event whole) in the third
// person, both sides by name, both sides' losses in full (voice.go). The words come from text templates
// (templates/narrative/*.tmpl): each part of the story (opening, approach,
// fighting, ending) has numbered variants, and a seed made from the battle's
// date, hex and the nation picks one of each, so that two battles do not
// read alike while the same battle always reads the same.
//
// The story never contradicts itself or the numbers:
//   - the fighting is told in the order it happened (day, then tabletop
//     turn), each moment's hour taken from its turn, so the time words
//     only move forwards; the lines closing is given an hour only when no
//     moment told after it came earlier; the battle ends at the hour of
//     the bound the beaten army broke in, or at nightfall when it was
//     fought to the end of the day (clock.go: sixteen turns from five in
//     the morning, an hour a turn, half an hour a bound);
//   - the turning point is a moment that went well for the winner (a
//     charge, a won melee, guns taken or reserves of the winner; a lost
//     melee, a general struck or an attack called off of the loser): the
//     event's own turning point if it did, else the winner's next success
//     after it, else his last before it; a battle nobody won has none;
//   - each general's fate is told once, the worst that befell him, at the
//     moment it did (twice wounded: carried from the field);
//   - the losses are the casualties (killed or wounded, routed, taken),
//     those of them who came back to the colours (wounded who recovered,
//     routed who rallied), and the net loss with the pursuit's toll, adding
//     up to the event's Lost;
//   - the pursuit is told from its figures: the winner's cavalry to spare,
//     the figures the loser lost to it, and the guns the loser lost on the
//     road (the pursuit's die per gun), the same facts from both sides as
//     far as each side's copy of the event carries them.
package narrative

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"text/template"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/templates"
)

var tmpl = template.Must(template.New("").Option("missingkey=error").Funcs(template.FuncMap{
	"cap": capitalise,
}).ParseFS(templates.Narrative, "narrative/*.tmpl"))

// Story is one battle told: a title and its paragraphs.
type Story struct {
	Title      string
	Paragraphs []string
}

// Text is the story as plain text: the title, then the paragraphs separated
// by blank lines.
func (s Story) Text() string {
	return s.Title + "\n\n" + strings.Join(s.Paragraphs, "\n\n") + "\n"
}

// Battles tells every land battle among a nation's events, in order. The
// events must be the nation's (engine.EventsFor); for engine.Referee the
// story is told in the third person.
func Battles(events []engine.Event, n game.NationID) []Story {
	var out []Story
	for _, e := range events {
		if lb, ok := e.(*engine.LandBattle); ok {
			out = append(out, Tell(lb, n))
		}
	}
	return out
}

// Text tells every land battle among a nation's events as one text (empty
// when there were none): the function the nation's report calls.
func Text(events []engine.Event, n game.NationID) string {
	var parts []string
	for _, s := range Battles(events, n) {
		parts = append(parts, s.Text())
	}
	return strings.Join(parts, "\n")
}

// teller holds one telling's choices.
type teller struct {
	e    *engine.LandBattle
	mine int
	// full: the referee's telling, every number of both sides, in the
	// third person (mine is then 0: the side told first).
	full bool
	seed uint64
	pick int
	// told are the moments the fighting paragraph tells (indexes into
	// Moments, in order), turning the turning point among them (-1: none),
	// carried the generals told as wounded twice.
	told    []int
	turning int
	carried map[int]bool
}

// Tell tells one battle as nation n saw it.
func Tell(e *engine.LandBattle, n game.NationID) Story {
	mine, full := e.SideOf(n), false
	if mine < 0 {
		mine, full = 0, true
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s|%s", e.Date, e.Hex, n, e.Model)
	t := &teller{e: e, mine: mine, full: full, seed: h.Sum64()}
	t.plan()
	st := Story{Title: fmt.Sprintf("The battle at %s", t.placeName())}
	for _, part := range []struct {
		name string
		data any
	}{
		{"opening", t.opening()},
		{"approach", t.approach()},
		{"fighting", t.fighting()},
		{"ending", t.ending()},
	} {
		if p := t.render(part.name, part.data); p != "" {
			st.Paragraphs = append(st.Paragraphs, p)
		}
	}
	return st
}

// variant picks one of a part's numbered templates by the seed.
func (t *teller) render(part string, data any) string {
	if data == nil {
		return ""
	}
	n := 0
	for tmpl.Lookup(fmt.Sprintf("%s.%d", part, n)) != nil {
		n++
	}
	if n == 0 {
		return ""
	}
	t.pick++
	v := int((t.seed >> (uint(t.pick) * 5)) % uint64(n))
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, fmt.Sprintf("%s.%d", part, v), data); err != nil {
		panic(fmt.Sprintf("narrative: %s.%d: %v", part, v, err)) // the templates are tested
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// choose picks one of a few phrasings by the seed.
func (t *teller) choose(options ...string) string {
	t.pick++
	return options[int((t.seed>>(uint(t.pick%12)*5))%uint64(len(options)))]
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// NationName prints a nation ID as a name ("eisenmark" → "Eisenmark").
func NationName(n game.NationID) string { return capitalise(string(n)) }

// theirLevel is what the teller saw of the enemy side.
func (t *teller) theirLevel() ruleset.ScoutingLevel {
	if t.full {
		return ruleset.LevelExact
	}
	return t.them().Level
}

func (t *teller) us() *engine.BattleSide   { return &t.e.Sides[t.mine] }
func (t *teller) them() *engine.BattleSide { return &t.e.Sides[1-t.mine] }

func armyOf(s *engine.BattleSide) string {
	var names []string
	for _, n := range s.Nations {
		names = append(names, NationName(n))
	}
	if len(names) > 1 {
		return "the allied armies of " + english.List(names)
	}
	return "the army of " + english.List(names)
}

func (t *teller) placeName() string {
	if t.e.City != "" {
		return t.e.City
	}
	return "hex " + t.e.Hex.String()
}

func terrainWord(tr game.Terrain) string {
	switch tr {
	case game.Woods:
		return "wooded country"
	case game.Rough:
		return "broken ground"
	case game.Mountain:
		return "mountains"
	}
	return "open country"
}

type openingData struct {
	Date, DateShort, Place, Weather, WeatherNoun, WeatherSky string
	Us, Them, OurLeader, TheirLeader                         string
	OurStrength, TheirStrength, Ground                       string
	// TheirCount introduces the enemy's numbers: "the enemy, by our
	// count," (a nation's story), "Unterreich" (the referee's); TheirArmy
	// names the enemy's army: "the enemy", "the army of Unterreich".
	TheirCount, TheirArmy string
}

func (t *teller) opening() any {
	e := t.e
	d := openingData{Date: e.Date, DateShort: shortDate(e.Date), Us: armyOf(t.us()), Them: armyOf(t.them())}
	if e.City != "" {
		d.Place = fmt.Sprintf("%s (hex %s)", e.City, e.Hex)
	} else {
		d.Place = fmt.Sprintf("the %s of hex %s", terrainWord(e.Terrain), e.Hex)
	}
	switch e.Weather {
	case "rain":
		d.Weather, d.WeatherNoun, d.WeatherSky = "a steady rain", "rain", "a weeping sky"
	case "overcast":
		d.Weather, d.WeatherNoun, d.WeatherSky = "a grey overcast", "low cloud", "a grey sky"
	default:
		d.Weather, d.WeatherNoun, d.WeatherSky = "fair weather", "fair weather", "a clear sky"
	}
	d.OurLeader = "no general of rank"
	if u := t.us(); u.Commander != "" {
		d.OurLeader = u.Commander
		if u.Genius {
			d.OurLeader += t.choose(", whose genius all acknowledged", ", a general of proven genius")
		}
	}
	d.TheirLeader = t.them().Commander
	d.OurStrength = strength(t.us(), ruleset.LevelExact)
	if d.OurStrength == "" {
		d.OurStrength = "his army"
	}
	d.TheirStrength = strength(t.them(), t.theirLevel())
	d.TheirCount, d.TheirArmy = "the enemy, by our count,", "the enemy"
	if t.full {
		d.TheirCount, d.TheirArmy = t.name(1-t.mine), d.Them
	}
	var ground []string
	if e.Terrain == game.Woods || e.Terrain == game.Rough {
		ground = append(ground, fmt.Sprintf("The field was %s, good for a defender.", terrainWord(e.Terrain)))
	}
	for _, side := range []int{t.mine, 1 - t.mine} {
		if e.Sides[side].InCity && e.City != "" {
			if side == t.mine && !t.full {
				ground = append(ground, fmt.Sprintf("The walls of %s anchored our line.", e.City))
			} else {
				ground = append(ground, fmt.Sprintf("%s held the town of %s.", capitalise(t.subject(side)), e.City))
			}
		}
	}
	for _, side := range []int{t.mine, 1 - t.mine} {
		s := &e.Sides[side]
		switch {
		case s.Fieldworks > 0 && (side == t.mine || t.full):
			ground = append(ground, fmt.Sprintf("%s infantry stood behind %d inches of fieldworks.", capitalise(t.poss(side)), s.Fieldworks))
		case s.Fieldworks > 0:
			ground = append(ground, "The enemy had dug in behind fieldworks.")
		}
		if side != t.mine && !t.full {
			continue // the enemy's advantages are his own secret
		}
		if s.TerrainAdvantage > 0 {
			ground = append(ground, fmt.Sprintf("%s general's eye for ground gave %s the better position.", capitalise(t.poss(side)), t.pronObj(side)))
		}
		if s.Advantage > 0 {
			ground = append(ground, fmt.Sprintf("%s scouts had shown %s %s dispositions before %s deployed.", capitalise(t.poss(side)),
				t.pronObj(side), t.poss(1-side), t.pron(side)))
		}
	}
	d.Ground = strings.Join(ground, " ")
	return d
}

// shortDate turns "Turn 3, June 1752" into "June 1752".
func shortDate(s string) string {
	if _, rest, ok := strings.Cut(s, ", "); ok {
		return rest
	}
	return s
}

// kindWords are the arms as a story names one figure of each (a count
// takes english.Noun: "12 hussars", "1 hussar", "40 infantry").
var kindWords = map[game.Arm]string{
	game.LineInfantry: "infantry", game.LightInfantry: "light infantry", game.IrregularLight: "Grenzer",
	game.HeavyCavalry: "heavy cavalry", game.MediumCavalry: "dragoon", game.LightCavalry: "hussar", game.Gunners: "gunner",
}

// strength describes a side's numbers as far as level lets the teller see
// them: exact counts, estimates (ruleset.Approximate: "about 40 infantry",
// "a few guns"), arms alone, or the size class.
//
// The referee's story sees every side exactly, so only a nation's story
// speaks of its scouts.
func strength(s *engine.BattleSide, level ruleset.ScoutingLevel) string {
	if level < 0 {
		level = ruleset.LevelExact
	}
	var parts []string
	switch {
	case level >= ruleset.LevelExact:
		for _, a := range s.Arms {
			if a.Arm != game.Gunners && a.Figures > 0 {
				parts = append(parts, english.Count(a.Figures, kindWords[a.Arm]))
			}
		}
		if s.Guns > 0 {
			parts = append(parts, english.Count(s.Guns, "gun"))
		}
	case level >= ruleset.LevelApprox:
		gunners := false
		for _, a := range s.Arms {
			if a.Arm == game.Gunners {
				gunners = true
				continue
			}
			parts = append(parts, english.About(a.Figures, kindWords[a.Arm]))
		}
		if s.Guns > 0 || gunners {
			parts = append(parts, english.About(s.Guns, "gun"))
		}
	case level >= ruleset.LevelArms:
		for _, a := range s.Arms {
			if a.Arm != game.Gunners {
				parts = append(parts, english.Plural(kindWords[a.Arm]))
			}
		}
		if len(parts) > 0 {
			return english.List(parts) + " in numbers our scouts could not count"
		}
	}
	if len(parts) == 0 {
		if s.Size == "" {
			return ""
		}
		return fmt.Sprintf("a %s force", s.Size)
	}
	return english.List(parts)
}

type approachData struct {
	Attacking                    bool
	Cannonade, Skirmish, Closing string
	// We, Our and Ours name the teller's side: "we", "our", "our" in a
	// nation's story; "Eisenmark", "Eisenmark's", "its" in the referee's.
	We, Our, Ours string
}

func (t *teller) approach() any {
	d := approachData{Attacking: t.us().Stance == game.Attack, We: t.subject(t.mine), Our: t.poss(t.mine), Ours: t.pronPoss(t.mine)}
	d.Closing = "the lines never came to close quarters"
	closed := false
	for _, m := range t.e.Moments {
		switch m.What {
		case battle.MCannonade:
			if d.Cannonade != "" {
				continue
			}
			switch {
			case m.Side == t.mine:
				d.Cannonade = t.choose(t.poss(m.Side)+" guns opened the day", t.poss(m.Side)+" batteries began the cannonade")
			case t.full:
				d.Cannonade = t.choose(t.poss(m.Side)+" guns played on "+t.poss(1-m.Side)+" ranks", t.poss(m.Side)+" round shot came bounding through "+t.poss(1-m.Side)+" lines")
			default:
				d.Cannonade = t.choose("the enemy's guns played on our ranks", "enemy round shot came bounding through our lines")
			}
		case battle.MSkirmish:
			if d.Skirmish != "" {
				continue
			}
			who := "light troops"
			if m.Kind != 0 {
				who = m.Kind.String()
			}
			if m.Side == t.mine || t.full {
				d.Skirmish = fmt.Sprintf("%s %s went ahead to skirmish", t.poss(m.Side), who)
			} else {
				d.Skirmish = fmt.Sprintf("enemy %s pecked at our front", who)
			}
		case battle.MAdvance:
			if !strings.HasPrefix(d.Closing, "the lines never") || closed {
				continue
			}
			// The hour, unless the fighting told next began before it
			// (a general struck by round shot): time is told forwards.
			if len(t.told) > 0 && before(t.e.Moments[t.told[0]], m) {
				d.Closing, closed = "the lines came to musket range", true
				continue
			}
			d.Closing = fmt.Sprintf("%s%s the lines were at musket range", timeOfDay(m.Turn), dayWord(m))
		}
	}
	return d
}

type fightingData struct {
	// Before and After are the moments told before and after the turning
	// point, in the order they happened; Turning is the turning point
	// ("" when none).
	Before, After []string
	Turning       string
}

// notableForStory: the moments the fighting paragraph may tell.
func notableForStory(what string) bool {
	switch what {
	case battle.MCharge, battle.MMelee, battle.MGeneral, battle.MGunsTaken, battle.MReserves, battle.MCallOff:
		return true
	}
	return false
}

// favours is the side a moment went well for (-1: neither): a charge or a
// won melee for the actor, a lost melee for the other side, a general
// struck down for his enemies, guns taken for the side that took them,
// reserves for the side that brought them up, an attack called off for
// the side that stood.
func favours(m battle.Moment) int {
	switch m.What {
	case battle.MCharge, battle.MGunsTaken, battle.MReserves:
		return m.Side
	case battle.MMelee:
		if strings.HasPrefix(m.Outcome, "won") {
			return m.Side
		}
		return 1 - m.Side
	case battle.MGeneral, battle.MCallOff, battle.MBreak, battle.MWithdraw:
		return 1 - m.Side
	}
	return -1
}

// fateRank orders a general's fates, worst last.
func fateRank(outcome string) int {
	switch outcome {
	case battle.Killed:
		return 3
	case battle.Captured:
		return 2
	}
	return 1
}

// plan chooses the moments the fighting paragraph tells, in the order they
// happened, and the turning point among them. Each general's fate is told
// once, at the moment of the worst that befell him (a general the fog
// leaves unnamed: once per side); the turning point is the event's if that
// moment favoured the winner, else the winner's next success after it (or,
// failing that, the last before it); a battle nobody won has none.
func (t *teller) plan() {
	ms := t.e.Moments
	var cand []int
	worst := map[string]int{}
	wounds := map[string]int{}
	key := func(m battle.Moment) string {
		if m.General == "" {
			return fmt.Sprintf("?%d", m.Side)
		}
		return fmt.Sprintf("%d %s", m.Side, m.General)
	}
	for i, m := range ms {
		if m.What != battle.MGeneral {
			continue
		}
		k := key(m)
		if m.Outcome != battle.Killed && m.Outcome != battle.Captured {
			wounds[k]++
		}
		if j, ok := worst[k]; !ok || fateRank(m.Outcome) >= fateRank(ms[j].Outcome) {
			worst[k] = i
		}
	}
	t.carried = map[int]bool{}
	for i, m := range ms {
		if !notableForStory(m.What) {
			continue
		}
		if m.What == battle.MGeneral {
			k := key(m)
			if worst[k] != i {
				continue
			}
			// Wounded twice: carried from the field (named generals only,
			// since two unnamed wounds may be two men).
			if m.General != "" && fateRank(m.Outcome) == 1 && wounds[k] > 1 {
				t.carried[i] = true
			}
		}
		cand = append(cand, i)
	}
	t.turning = -1
	if w := t.e.Winner; (w == 0 || w == 1) && t.e.Turning >= 0 {
		for _, i := range cand {
			if i >= t.e.Turning && favours(ms[i]) == w {
				t.turning = i
				break
			}
		}
		if t.turning < 0 {
			for _, i := range cand {
				if i < t.e.Turning && favours(ms[i]) == w {
					t.turning = i
				}
			}
		}
	}
	// At most four besides the turning point: the first, the last, and the
	// generals.
	keep := map[int]bool{}
	for _, i := range cand {
		if ms[i].What == battle.MGeneral {
			keep[i] = true
		}
	}
	var rest []int
	for _, i := range cand {
		if i != t.turning {
			rest = append(rest, i)
		}
	}
	if len(rest) > 0 {
		keep[rest[0]] = true
		keep[rest[len(rest)-1]] = true
	}
	for _, i := range rest {
		if len(keep) >= 4 {
			break
		}
		keep[i] = true
	}
	if t.turning >= 0 {
		keep[t.turning] = true
	}
	t.told = nil
	for _, i := range cand {
		if keep[i] {
			t.told = append(t.told, i)
		}
	}
	// The moments are recorded in order; sort by day and turn all the same,
	// so that time is told forwards whatever the model did.
	slices.SortStableFunc(t.told, func(a, b int) int {
		if c := cmp.Compare(ms[a].Day, ms[b].Day); c != 0 {
			return c
		}
		return cmp.Compare(ms[a].Turn, ms[b].Turn)
	})
}

// before says whether moment a came before moment b (day, then turn).
func before(a, b battle.Moment) bool {
	return a.Day < b.Day || a.Day == b.Day && a.Turn < b.Turn
}

func (t *teller) fighting() any {
	var d fightingData
	last := "" // the paragraph's first moment names its hour
	for _, i := range t.told {
		switch {
		case i == t.turning:
			d.Turning = t.moment(i, &last, true)
		case d.Turning != "":
			d.After = append(d.After, t.moment(i, &last, false))
		default:
			d.Before = append(d.Before, t.moment(i, &last, false))
		}
	}
	if len(d.Before)+len(d.After) == 0 && d.Turning == "" {
		return nil
	}
	return d
}

var unitWords = map[battle.Kind]string{
	battle.Infantry: "infantry", battle.Light: "light infantry", battle.Grenzers: "Grenzers", battle.HeavyCav: "cuirassiers",
	battle.MediumCav: "dragoons", battle.LightCav: "hussars", battle.Battery: "guns",
}

// unit names the troops of a side a moment tells of: "our hussars", "the
// enemy's infantry", "Eisenmark's hussars"; "our troops", "the enemy",
// "Eisenmark's troops" when the kind was not seen.
func (t *teller) unit(m battle.Moment, k battle.Kind, side int) string {
	switch {
	case k != 0:
		return t.poss(side) + " " + unitWords[k]
	case t.ours(side) || t.full:
		return t.poss(side) + " troops"
	}
	return "the enemy"
}

// moment tells one moment; last is the time of day told before, so that
// the same hour is not repeated. The turning point, told after "the day
// turned", drops a repeated hour rather than say "then".
func (t *teller) moment(i int, last *string, turning bool) string {
	m := t.e.Moments[i]
	when := timeOfDay(m.Turn) + dayWord(m)
	switch {
	case when != *last:
		*last = when
	case turning:
		when = ""
	default:
		when = t.choose("then", "soon after", "meanwhile", "moments later")
	}
	s := t.momentText(m, when)
	if t.carried[i] {
		s += " and carried from the field"
	}
	return strings.TrimSpace(s)
}

func (t *teller) momentText(m battle.Moment, when string) string {
	actor := t.unit(m, m.Kind, m.Side)
	target := t.unit(m, m.Target, 1-m.Side)
	switch m.What {
	case battle.MCharge:
		return fmt.Sprintf("%s %s charged %s and %s", when, actor, target, t.choose("sent them reeling", "broke them", "drove them from the field"))
	case battle.MMelee:
		switch {
		case strings.HasPrefix(m.Outcome, "won"):
			s := fmt.Sprintf("%s %s closed with %s and had the better of it", when, actor, target)
			if strings.Contains(m.Outcome, "routed") {
				s += ", routing them"
			}
			return s
		default:
			s := fmt.Sprintf("%s %s came to blows with %s and were thrown back", when, actor, target)
			if strings.Contains(m.Outcome, "routed") {
				s += " in disorder"
			}
			return s
		}
	case battle.MGeneral:
		who := m.General
		if who == "" {
			who = "an enemy general"
		}
		switch m.Outcome {
		case battle.Killed:
			return fmt.Sprintf("%s %s fell, struck down at the head of his men", when, who)
		case battle.Captured:
			return fmt.Sprintf("%s %s was taken prisoner", when, who)
		}
		return fmt.Sprintf("%s %s was wounded", when, who)
	case battle.MGunsTaken:
		switch {
		case t.full:
			return fmt.Sprintf("%s %s men overran one of %s batteries", when, t.poss(m.Side), t.poss(1-m.Side))
		case m.Side == t.mine:
			return fmt.Sprintf("%s our men overran an enemy battery", when)
		}
		return fmt.Sprintf("%s the enemy overran one of our batteries", when)
	case battle.MCallOff:
		if t.ours(m.Side) {
			if when == "" {
				return "our losses mounting, the attack was called off and our lines drew back out of musket range"
			}
			return fmt.Sprintf("%s, our losses mounting, the attack was called off and our lines drew back out of musket range", when)
		}
		return fmt.Sprintf("%s %s attack faltered, and %s lines drew back out of musket range", when, t.poss(m.Side), t.pronPoss(m.Side))
	case battle.MReserves:
		if t.ours(m.Side) {
			return fmt.Sprintf("%s we threw our reserves into the line", when)
		}
		return fmt.Sprintf("%s %s brought up %s reserves", when, t.subject(m.Side), t.pronPoss(m.Side))
	}
	return when + " the fighting went on"
}
