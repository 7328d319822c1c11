// Package narrative tells a nation's land battles as a few paragraphs of
// prose, from the LandBattle events the engine recorded.
//
// The telling is a function of the events one nation may see (pass
// engine.EventsFor(events, nation)): every number and name in it comes from
// the event as fogged for that nation, so a side's story names nothing of the
// enemy its scouts did not see — the enemy's commander only from the
// approximate scouting level, counts rounded below the exact level, arms only
// from the arms level. The words come from text templates
// (templates/narrative/*.tmpl): each part of the story (opening, approach,
// fighting, ending) has numbered variants, and a seed made from the battle's
// date, hex and the nation picks one of each, so that two battles do not
// read alike while the same battle always reads the same.
//
// The story never contradicts itself or the numbers:
//   - the fighting is told in the order it happened (day, then tabletop
//     turn), each moment's hour taken from its turn, so the time words
//     only move forwards; the lines closing is given an hour only when no
//     moment told after it came earlier;
//   - the turning point is a moment that went well for the winner (a
//     charge, a won melee, guns taken or reserves of the winner; a lost
//     melee, a general struck or an attack called off of the loser): the
//     event's own turning point if it did, else the winner's next success
//     after it, else his last before it; a battle nobody won has none;
//   - each general's fate is told once, the worst that befell him, at the
//     moment it did (twice wounded: carried from the field);
//   - the losses are the casualties (killed, routed, taken), those of them
//     who came back to the colours, and the net loss with the pursuit's
//     toll, adding up to the event's Lost;
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
// story is told from the first side's point of view.
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
	// full: the referee's telling, every number of both sides.
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

func list(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

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
		return "the allied armies of " + list(names)
	}
	return "the army of " + list(names)
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
	var ground []string
	if e.Terrain == game.Woods || e.Terrain == game.Rough {
		ground = append(ground, fmt.Sprintf("The field was %s, good for a defender.", terrainWord(e.Terrain)))
	}
	if t.us().InCity && e.City != "" {
		ground = append(ground, fmt.Sprintf("The walls of %s anchored our line.", e.City))
	} else if t.them().InCity && e.City != "" {
		ground = append(ground, fmt.Sprintf("The enemy held the town of %s.", e.City))
	}
	if t.us().Fieldworks > 0 {
		ground = append(ground, fmt.Sprintf("Our infantry stood behind %d inches of fieldworks.", t.us().Fieldworks))
	}
	if t.them().Fieldworks > 0 {
		ground = append(ground, "The enemy had dug in behind fieldworks.")
	}
	if t.us().TerrainAdvantage > 0 {
		ground = append(ground, "Our general's eye for ground gave us the better position.")
	}
	if t.us().Advantage > 0 {
		ground = append(ground, "Our scouts had shown us the enemy's dispositions before we deployed.")
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

var kindWords = map[game.Arm]string{
	game.LineInfantry: "infantry", game.LightInfantry: "light infantry", game.IrregularLight: "Grenzers",
	game.HeavyCavalry: "heavy cavalry", game.MediumCavalry: "dragoons", game.LightCavalry: "hussars", game.Gunners: "gunners",
}

// strength describes a side's numbers as far as level lets the teller see
// them: exact counts, rounded ones ("about"), arms alone, or the size class.
func strength(s *engine.BattleSide, level ruleset.ScoutingLevel) string {
	if level < 0 {
		level = ruleset.LevelExact
	}
	var parts []string
	switch {
	case level >= ruleset.LevelApprox:
		about := ""
		if level < ruleset.LevelExact {
			about = "about "
		}
		for _, a := range s.Arms {
			if a.Arm == game.Gunners || a.Figures == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s%d %s", about, a.Figures, kindWords[a.Arm]))
		}
		if s.Guns > 0 {
			parts = append(parts, fmt.Sprintf("%s%d guns", about, s.Guns))
		}
	case level >= ruleset.LevelArms:
		for _, a := range s.Arms {
			if a.Arm != game.Gunners {
				parts = append(parts, kindWords[a.Arm])
			}
		}
		if len(parts) > 0 {
			return list(parts) + " in numbers our scouts could not count"
		}
	}
	if len(parts) == 0 {
		if s.Size == "" {
			return ""
		}
		return fmt.Sprintf("a %s force", s.Size)
	}
	return list(parts)
}

// timeOfDay turns a tabletop turn (16 to a day) into an hour.
func timeOfDay(turn int) string {
	switch {
	case turn <= 3:
		return "early in the morning"
	case turn <= 6:
		return "by mid-morning"
	case turn <= 9:
		return "around noon"
	case turn <= 12:
		return "in the afternoon"
	}
	return "towards evening"
}

func dayWord(m battle.Moment) string {
	if m.Day <= 1 {
		return ""
	}
	return fmt.Sprintf(" on the %s day", ordinal(m.Day))
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "second"
	case 3:
		return "third"
	case 4:
		return "fourth"
	}
	return fmt.Sprintf("%dth", n)
}

type approachData struct {
	Attacking                    bool
	Cannonade, Skirmish, Closing string
}

func (t *teller) approach() any {
	d := approachData{Attacking: t.us().Stance == game.Attack}
	d.Closing = "the lines never came to close quarters"
	closed := false
	for _, m := range t.e.Moments {
		switch m.What {
		case battle.MCannonade:
			if d.Cannonade != "" {
				continue
			}
			if m.Side == t.mine {
				d.Cannonade = t.choose("our guns opened the day", "our batteries began the cannonade")
			} else {
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
			if m.Side == t.mine {
				d.Skirmish = fmt.Sprintf("our %s went ahead to skirmish", who)
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

func (t *teller) unit(m battle.Moment, k battle.Kind, side int) string {
	if side == t.mine {
		if k == 0 {
			return "our troops"
		}
		return "our " + unitWords[k]
	}
	if k == 0 {
		return "the enemy"
	}
	return "the enemy's " + unitWords[k]
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
		if m.Side == t.mine {
			return fmt.Sprintf("%s our men overran an enemy battery", when)
		}
		return fmt.Sprintf("%s the enemy overran one of our batteries", when)
	case battle.MCallOff:
		if m.Side == t.mine {
			if when == "" {
				return "our losses mounting, the attack was called off and our lines drew back out of musket range"
			}
			return fmt.Sprintf("%s, our losses mounting, the attack was called off and our lines drew back out of musket range", when)
		}
		return fmt.Sprintf("%s the enemy's attack faltered, and his lines drew back out of musket range", when)
	case battle.MReserves:
		if m.Side == t.mine {
			return fmt.Sprintf("%s we threw our reserves into the line", when)
		}
		return fmt.Sprintf("%s the enemy brought up his reserves", when)
	}
	return when + " the fighting went on"
}

type endingData struct {
	// OurLosses are the battle's casualties and those regained; Net the
	// net loss, pursuit included (told after the pursuit).
	Outcome, OurLosses, TheirLosses, Pursuit, Retreat, Net string
	After                                                  []string
}

func (t *teller) ending() any {
	e := t.e
	us, them := t.us(), t.them()
	var d endingData
	won := e.Winner == t.mine
	count := breakCount(e)
	switch {
	case e.Outcome == battle.Decisive && count != nil:
		d.Outcome = t.armyBroke(count, won)
	case e.Outcome == battle.Decisive && won:
		d.Outcome = t.choose("the enemy's army broke and the day was ours", "at last the enemy's army gave way, and the field was ours")
	case e.Outcome == battle.Decisive:
		d.Outcome = t.choose("our army broke, and the day was lost", "our army could stand no more and gave way")
	case e.Outcome == battle.Repulse && won:
		d.Outcome = "the enemy's attack was beaten off, and we held the field"
	case e.Outcome == battle.Repulse:
		d.Outcome = "our attack was repulsed, though our army held together"
	case e.Outcome == battle.Withdrew && won:
		// V4: the defender that withdraws unbroken is the winner.
		d.Outcome = "the enemy had failed to break us, and we drew off in good order, unpursued"
	case e.Outcome == battle.Withdrew:
		d.Outcome = "the enemy drew off in good order, unbroken, and our attack had failed"
	default:
		d.Outcome = "neither army could break the other, and both drew off"
	}
	if e.Days > 1 && (count == nil || e.Outcome != battle.Decisive) {
		d.Outcome = fmt.Sprintf("after %d days of fighting, %s", e.Days, d.Outcome)
	}
	d.OurLosses, d.Net = ourLosses(us)
	if n := gunsLost(us, "field"); n > 0 {
		d.OurLosses += "; " + guns(n, "of our") + " overrun on the field"
	}
	if us.PursuitLost == 0 && d.Net != "" {
		// Nothing more to count after the pursuit: the net loss closes
		// the count.
		d.OurLosses += "; " + d.Net
		d.Net = ""
	}
	switch lv := t.theirLevel(); {
	case lv >= ruleset.LevelExact && them.Killed+them.Routed+them.Captured > 0:
		d.TheirLosses = fmt.Sprintf("the enemy's casualties were %d: %s", them.Killed+them.Routed+them.Captured, casualties(them))
	case lv >= ruleset.LevelApprox && them.Killed+them.Routed+them.Captured > 0:
		d.TheirLosses = fmt.Sprintf("the enemy lost perhaps %s", casualties(them))
	}
	if e.Pursued {
		d.Pursuit = t.pursuit(won)
	}
	for _, r := range e.Retreats {
		if r.Blocked {
			continue
		}
		if slices.Contains(us.Forces, r.Force) {
			d.Retreat = fmt.Sprintf("we fell back into hex %s", r.To)
		} else {
			d.Retreat = fmt.Sprintf("the enemy fell back into hex %s", r.To)
		}
		break
	}
	for _, g := range us.GunsTaken {
		d.After = append(d.After, fmt.Sprintf("%d enemy %s guns were brought in as trophies", g.Count, strings.TrimSuffix(g.Kind.String(), "-gun")))
	}
	for _, p := range us.Promotions {
		verb := "were"
		if p.Figures == 1 {
			verb = "was"
		}
		d.After = append(d.After, fmt.Sprintf("%d of our %s %s %s promoted to grade %s for their conduct", p.Figures, p.From, kindWords[p.Arm], verb, p.To))
	}
	if x := us.Experience; x != nil {
		s := fmt.Sprintf("%s's reputation grew (experience %d)", x.Name, x.XP)
		if x.Genius {
			s += "; he is now spoken of as a military genius"
		}
		d.After = append(d.After, s)
	}
	return d
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

var turnWords = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
	"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth"}

// turnWord names a tabletop turn ("the ninth turn"), in words so that the
// story prints no number the event does not carry as a count.
func turnWord(n int) string {
	if n > 0 && n < len(turnWords) {
		return "the " + turnWords[n] + " turn"
	}
	return "the last turn"
}

// armyBroke tells why an army broke: the army morale rule's count at the
// break ("half or more of your army's figures … are eliminated, have routed
// off the table, or are in shaken status"), so that a reader sees how an
// army with few casualties could break — volleys shake units without
// killing many men. Our own count is told in full; the enemy's with its
// numbers only at the exact scouting level, otherwise in words.
func (t *teller) armyBroke(c *battle.ArmyBreak, won bool) string {
	at := timeOfDay(c.Turn)
	if c.Day > 1 {
		at += fmt.Sprintf(" on the %s day, at %s", ordinal(c.Day), turnWord(c.Turn))
	} else {
		at += fmt.Sprintf(", at %s of the day", turnWord(c.Turn))
	}
	whose, army := "our", "foot and horse"
	if won {
		whose = "the enemy's"
	}
	// The commander's fall shook the units about him (the enemy's told
	// only when the scouts could name his commander).
	if fate := commanderFate(c.CommanderLost); fate != "" && (!won || t.theirLevel() >= ruleset.LevelApprox) {
		if won {
			at += ", with the enemy's commander " + fate + " and the battalions about him shaken"
		} else {
			at += ", with our commander " + fate + " and the battalions about him shaken"
		}
	}
	if c.Gunners {
		army = "foot, horse and gunners"
	}
	var what string
	switch {
	case !won || t.theirLevel() >= ruleset.LevelExact:
		what = fmt.Sprintf("%d of %s %d %s %s %s", c.Lost(), whose, c.Counted, army, wereWas(c.Lost()), brokenStates(c))
	case c.Lost()*2 >= c.Counted:
		// The fogged copy carries no figures (0 of 0): the rule's half.
		what = fmt.Sprintf("half and more of the enemy's %s were shaken, in flight or fallen", army)
	default:
		what = fmt.Sprintf("so many of the enemy's %s were shaken, in flight or fallen", army)
	}
	if won {
		return at + ", " + what + ", and " + t.choose("the enemy's army broke: the day was ours", "at last the enemy's army gave way, and the field was ours")
	}
	return at + ", " + what + ", and " + t.choose("our army broke: the day was lost", "our army could stand no more and gave way")
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

func wereWas(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
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

// casualties lists a side's battle losses, those that are not nil:
// killed, routed and (V4) surrounded and taken.
func casualties(s *engine.BattleSide) string {
	var parts []string
	if s.Killed > 0 {
		parts = append(parts, fmt.Sprintf("%d killed", s.Killed))
	}
	if s.Routed > 0 {
		parts = append(parts, fmt.Sprintf("%d routed", s.Routed))
	}
	if s.Captured > 0 {
		parts = append(parts, fmt.Sprintf("%d surrounded and taken", s.Captured))
	}
	return list(parts)
}

// ourLosses tells the own side's losses plainly: the casualties (killed,
// routed, taken), how many of them came back to the colours after the
// battle, and the net loss — which, with the pursuit's toll, adds up to
// the event's Lost.
func ourLosses(us *engine.BattleSide) (losses, net string) {
	cas := us.Killed + us.Routed + us.Captured
	if cas == 0 {
		losses = "we lost no men on the field"
	} else {
		losses = fmt.Sprintf("our casualties were %d: %s", cas, casualties(us))
		switch {
		case us.Regained == cas:
			losses += fmt.Sprintf("; all %d of them came back to the colours after the battle", us.Regained)
		case us.Regained > 0:
			losses += fmt.Sprintf("; %d of them came back to the colours after the battle", us.Regained)
		default:
			losses += "; none of them came back to the colours"
		}
	}
	switch {
	case cas == 0 && us.PursuitLost == 0:
	case us.Lost <= 0:
		net = "in all, the battle cost us no men"
	case us.Lost == 1:
		net = "in all, the battle cost us 1 man"
	default:
		net = fmt.Sprintf("in all, the battle cost us %d men", us.Lost)
	}
	return losses, net
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
func (t *teller) pursuit(won bool) string {
	us, them := t.us(), t.them()
	if won {
		var s string
		if us.PursuitLight+us.PursuitHeavy > 0 {
			s = "our cavalry pursued the beaten enemy"
			if them.PursuitLost > 0 {
				s += fmt.Sprintf(" and cut down %d more of them", them.PursuitLost)
			}
		} else {
			s = "we had no cavalry to spare for a pursuit"
		}
		if n := gunsLost(them, "pursuit"); n == 1 {
			s += ", but the enemy left one gun behind on the road"
		} else if n > 1 {
			s += fmt.Sprintf(", but the enemy left %d guns behind on the road", n)
		}
		return s
	}
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
