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
package narrative

import (
	"bytes"
	"fmt"
	"hash/fnv"
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
			if !strings.HasPrefix(d.Closing, "the lines never") {
				continue
			}
			d.Closing = fmt.Sprintf("%s%s the lines were at musket range", timeOfDay(m.Turn), dayWord(m))
		}
	}
	return d
}

type fightingData struct {
	Moments []string
	Turning string
}

func (t *teller) fighting() any {
	var d fightingData
	var notable []int
	for i, m := range t.e.Moments {
		switch m.What {
		case battle.MCharge, battle.MMelee, battle.MGeneral, battle.MGunsTaken, battle.MReserves, battle.MCallOff:
			if i != t.e.Turning {
				notable = append(notable, i)
			}
		}
	}
	// At most four: the first, the last, and the generals.
	keep := map[int]bool{}
	for _, i := range notable {
		if t.e.Moments[i].What == battle.MGeneral {
			keep[i] = true
		}
	}
	if len(notable) > 0 {
		keep[notable[0]] = true
		keep[notable[len(notable)-1]] = true
	}
	for _, i := range notable {
		if len(keep) >= 4 {
			break
		}
		keep[i] = true
	}
	last := ""
	for _, i := range notable {
		if keep[i] {
			d.Moments = append(d.Moments, t.moment(t.e.Moments[i], &last))
		}
	}
	if t.e.Turning >= 0 && t.e.Turning < len(t.e.Moments) {
		last = ""
		d.Turning = t.moment(t.e.Moments[t.e.Turning], &last)
	}
	if len(d.Moments) == 0 && d.Turning == "" {
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
// the same hour is not repeated.
func (t *teller) moment(m battle.Moment, last *string) string {
	when := timeOfDay(m.Turn) + dayWord(m)
	if when == *last {
		when = t.choose("then", "soon after", "meanwhile", "moments later")
	} else {
		*last = when
	}
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
	Outcome, OurLosses, TheirLosses, Pursuit, Retreat string
	After                                             []string
}

func (t *teller) ending() any {
	e := t.e
	us, them := t.us(), t.them()
	var d endingData
	won := e.Winner == t.mine
	switch {
	case e.Outcome == battle.Decisive && won:
		d.Outcome = t.choose("the enemy's army broke and the day was ours", "at last the enemy's army gave way, and the field was ours")
	case e.Outcome == battle.Decisive:
		d.Outcome = t.choose("our army broke, and the day was lost", "our army could stand no more and gave way")
	case e.Outcome == battle.Repulse && won:
		d.Outcome = "the enemy's attack was beaten off, and we held the field"
	case e.Outcome == battle.Repulse:
		d.Outcome = "our attack was repulsed, though our army held together"
	case e.Outcome == battle.Withdrew && won:
		d.Outcome = "the enemy withdrew in good order, leaving us the field"
	case e.Outcome == battle.Withdrew:
		d.Outcome = "we withdrew in good order, unpursued"
	default:
		d.Outcome = "neither army could break the other, and both drew off"
	}
	if e.Days > 1 {
		d.Outcome += fmt.Sprintf(" after %d days of fighting", e.Days)
	}
	d.OurLosses = fmt.Sprintf("we lost %d killed and %d routed", us.Killed, us.Routed)
	if us.Captured > 0 {
		d.OurLosses += fmt.Sprintf(", and %d surrounded and taken", us.Captured)
	}
	if us.Regained > 0 {
		d.OurLosses += fmt.Sprintf("; %d came back to the colours", us.Regained)
	}
	switch {
	case us.GunsLost == 1:
		d.OurLosses += "; one of our guns was lost"
	case us.GunsLost > 1:
		d.OurLosses += fmt.Sprintf("; %d of our guns were lost", us.GunsLost)
	}
	switch lv := t.theirLevel(); {
	case lv >= ruleset.LevelExact:
		d.TheirLosses = fmt.Sprintf("the enemy lost %d killed and %d routed", them.Killed, them.Routed)
	case lv >= ruleset.LevelApprox && them.Killed+them.Routed > 0:
		d.TheirLosses = fmt.Sprintf("the enemy lost perhaps %d", them.Killed+them.Routed)
	}
	if e.Pursued {
		switch {
		case won && us.PursuitLight+us.PursuitHeavy > 0:
			d.Pursuit = "our cavalry pursued the beaten enemy"
		case won:
			d.Pursuit = "our cavalry was too few to pursue"
		case us.PursuitLost > 0:
			d.Pursuit = fmt.Sprintf("the enemy's horse rode after us and cut down %d more of our men", us.PursuitLost)
		default:
			d.Pursuit = "our retreat was covered, and the enemy's horse took no toll of it"
		}
	}
	for _, r := range e.Retreats {
		if r.Blocked {
			continue
		}
		if e.Winner == t.mine {
			d.Retreat = fmt.Sprintf("the enemy fell back into hex %s", r.To)
		} else {
			d.Retreat = fmt.Sprintf("we fell back into hex %s", r.To)
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
