package narrative_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/engine/battle"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/narrative"
	"github.com/syw-pbem/pbem/ruleset"
)

// timeWords are the narrative's times of day for the moments of the
// fighting, in order, and the minute each begins (the first turn at five in
// the morning, an hour a turn: docs/battles.md).
var timeWords = []string{"early in the morning", "by mid-morning", "around noon", "in the afternoon", "towards evening"}

var timeStarts = []int{5 * 60, 8 * 60, 11 * 60, 14 * 60, 17 * 60}

// timeRe finds a time told: a moment's words, or the clock of the battle's
// end ("at about half past six in the morning", "at nightfall"), with its
// day.
var timeRe = regexp.MustCompile(`(?i)(early in the morning|by mid-morning|around noon|in the afternoon|towards evening|at about (?:half past )?[a-z]+(?: in the [a-z]+)?|at nightfall)( on the (second|third|fourth|\d+th) day)?`)

var dayNumber = map[string]int{"second": 2, "third": 3, "fourth": 4}

var hourNumber = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "noon": 12}

// minutesOf is the minute of the day a time told stands for: a clock's
// own, a moment's words the start of their span.
func minutesOf(told string) (int, bool) {
	told = strings.ToLower(told)
	for k, w := range timeWords {
		if told == w {
			return timeStarts[k], true
		}
	}
	if told == "at nightfall" {
		return 21 * 60, true
	}
	rest, ok := strings.CutPrefix(told, "at about ")
	if !ok {
		return 0, false
	}
	half := 0
	if r, ok := strings.CutPrefix(rest, "half past "); ok {
		rest, half = r, 30
	}
	word, part, _ := strings.Cut(rest, " in the ")
	h, ok := hourNumber[word]
	if !ok {
		return 0, false
	}
	if (part == "afternoon" || part == "evening") && h < 12 {
		h += 12
	}
	return h*60 + half, true
}

// timeOrder checks that the story's times never run backwards: each (day,
// minute) told is at or after the one before.
func timeOrder(text string) error {
	last, lastWord := 0, ""
	for _, m := range timeRe.FindAllStringSubmatch(text, -1) {
		minute, ok := minutesOf(m[1])
		if !ok {
			return fmt.Errorf("%q: not a time of day", m[0])
		}
		day := 1
		if m[3] != "" {
			if d, ok := dayNumber[m[3]]; ok {
				day = d
			} else {
				day, _ = strconv.Atoi(strings.TrimSuffix(m[3], "th"))
			}
		}
		at := day*24*60 + minute
		if at < last {
			return fmt.Errorf("%q told after %q", m[0], lastWord)
		}
		last, lastWord = at, m[0]
	}
	return nil
}

// breakRe is the story's count of a broken army: when (hour, day, turn),
// the commander's fate if his loss shook the line, how many of how many
// (or, fogged, words), in which states, and the count of each.
var breakRe = regexp.MustCompile(`(?i)(at about (?:half past )?[a-z]+(?: in the [a-z]+)?)(?: on the (\w+) day)?, in the (\w+) turn(?: of the day)?, (?:with (our|the enemy's) commander (fallen|taken|carried from the field) and the battalions about him shaken, )?(?:(\d+) of (our|the enemy's) (\d+)|(half and more of|so many of) the enemy's) (foot and horse|foot, horse and gunners) (?:were|was) ([a-z, ]+?)(?: \(([^)]*)\))?, and `)

var turnNumber = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16}

// breakTold checks the sentence that tells why an army broke against the
// army morale count the event carries: told whenever the count is there,
// at the break's day, turn and hour; our own count in numbers, the enemy's
// in numbers only when scouted exactly; the numbers the count's (the
// counted, those lost, and each state's, adding up), and lost at least
// half of those counted — the rule that broke the army.
func breakTold(e *engine.LandBattle, mine int, text string) error {
	var c *battle.ArmyBreak
	for _, m := range e.Moments {
		if m.What == battle.MBreak && m.Count != nil {
			c = m.Count
		}
	}
	ms := breakRe.FindAllStringSubmatch(text, -1)
	switch {
	case c == nil && len(ms) == 0:
		return nil
	case c == nil:
		return fmt.Errorf("tells a break count %q, but the event carries none", ms[0][0])
	case len(ms) != 1:
		return fmt.Errorf("the army morale count %+v told %d times", *c, len(ms))
	}
	m := ms[0]
	if e.Outcome != battle.Decisive || c.Side != 1-e.Winner {
		return fmt.Errorf("count for side %d in a %s battle won by %d", c.Side, e.Outcome, e.Winner)
	}
	if c.Lost()*2 < c.Counted {
		return fmt.Errorf("the army broke with %d of %d lost: less than half", c.Lost(), c.Counted)
	}
	// The hour is the bound's the army broke in: the first turn at five,
	// an hour a turn, the second bound half an hour in.
	at := 5*60 + (c.Turn-1)*60
	if c.Bound == 2 {
		at += 30
	}
	if got, ok := minutesOf(m[1]); !ok || got != at {
		return fmt.Errorf("%q: the break came in turn %d, bound %d", m[0], c.Turn, c.Bound)
	}
	day := 1
	if m[2] != "" {
		day = dayNumber[strings.ToLower(m[2])]
	}
	if day != c.Day || turnNumber[strings.ToLower(m[3])] != c.Turn {
		return fmt.Errorf("%q: the break came on day %d, turn %d", m[0], c.Day, c.Turn)
	}
	if (m[10] == "foot, horse and gunners") != c.Gunners {
		return fmt.Errorf("%q: gunners counted %v", m[0], c.Gunners)
	}
	fates := map[string]string{battle.Killed: "fallen", battle.Captured: "taken", battle.Wounded: "carried from the field"}
	if c.Side != mine && e.Sides[1-mine].Level >= 0 && e.Sides[1-mine].Level < ruleset.LevelApprox {
		if m[4] != "" {
			return fmt.Errorf("%q: tells the enemy's commander lost, though its scouts could not name him", m[0])
		}
	} else if m[5] != fates[c.CommanderLost] || (m[4] == "our") != (c.Side == mine) && m[4] != "" {
		return fmt.Errorf("%q: the commander's fate at the break was %q", m[0], c.CommanderLost)
	}
	exact := c.Side == mine || e.Sides[1-mine].Level >= ruleset.LevelExact || e.Sides[1-mine].Level < 0
	if !exact {
		if m[6] != "" || numberRe.MatchString(m[0]) {
			return fmt.Errorf("%q: the enemy's count told in numbers, though scouted at level %d", m[0], e.Sides[1-mine].Level)
		}
		if (m[9] == "half and more of") != (c.Lost()*2 >= c.Counted) {
			return fmt.Errorf("%q: %d of %d lost", m[0], c.Lost(), c.Counted)
		}
		return nil
	}
	lost, _ := strconv.Atoi(m[6])
	counted, _ := strconv.Atoi(m[8])
	if lost != c.Lost() || counted != c.Counted {
		return fmt.Errorf("%q: the count is %d of %d", m[0], c.Lost(), c.Counted)
	}
	if (m[7] == "our") != (c.Side == mine) {
		return fmt.Errorf("%q: side %d broke, told as %q", m[0], c.Side, m[7])
	}
	// Each state told, with its count when more than one; they add up.
	want := map[string]int{"shaken": c.Shaken, "routed": c.Routed, "fallen": c.Eliminated}
	states := strings.FieldsFunc(strings.ReplaceAll(m[11], " or ", ","), func(r rune) bool { return r == ',' || r == ' ' })
	sum := 0
	for _, part := range strings.Split(m[12], ", ") {
		if part == "" {
			continue
		}
		var n int
		var w string
		if _, err := fmt.Sscanf(part, "%d %s", &n, &w); err != nil || want[w] != n {
			return fmt.Errorf("%q: %q, but %d %s", m[0], part, want[w], w)
		}
		sum += n
	}
	if m[12] == "" && len(states) == 1 {
		sum = want[states[0]]
	}
	if sum != c.Lost() {
		return fmt.Errorf("%q: the states add up to %d, not %d", m[0], sum, c.Lost())
	}
	for w, n := range want {
		if (n > 0) != slices.Contains(states, w) {
			return fmt.Errorf("%q: %d %s", m[0], n, w)
		}
	}
	return nil
}

// outcomeWords: the phrase each outcome must be told with, from the
// winner's, the loser's and nobody's side.
func outcomeWords(e *engine.LandBattle, mine int) (want []string, never []string) {
	won, lost := []string{"the day was ours", "the field was ours", "we held the field", "leaving us the field", "had failed to break us"},
		[]string{"our army broke", "our army could stand no more", "our attack was repulsed", "we withdrew", "our attack had failed"}
	switch {
	case e.Winner == mine:
		return won, append(lost, "neither army")
	case e.Winner < 0:
		return []string{"neither army"}, append(won, lost...)
	}
	return lost, append(won, "neither army")
}

var numberRe = regexp.MustCompile(`\d+`)

// allowedNumbers is every number the fogged event carries (any integer in
// its JSON, or in its strings), and the sums the story prints: a side's
// casualties (killed, routed and taken) and its guns lost by reason.
func allowedNumbers(t *testing.T, e *engine.LandBattle) map[int]bool {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[int]bool{}
	for _, s := range numberRe.FindAllString(string(b), -1) {
		n, _ := strconv.Atoi(s)
		ok[n] = true
	}
	for _, m := range e.Moments {
		if m.Count != nil {
			ok[m.Count.Lost()] = true
		}
	}
	for _, s := range e.Sides {
		ok[s.Killed+s.Routed+s.Captured] = true
		by := map[string]int{}
		for _, g := range s.GunChanges {
			by[g.Reason] += g.Count
		}
		for _, n := range by {
			ok[n] = true
		}
	}
	return ok
}

func battleOf(t *testing.T, events []engine.Event) *engine.LandBattle {
	t.Helper()
	for _, e := range events {
		if x, ok := e.(*engine.LandBattle); ok {
			return x
		}
	}
	t.Fatal("no battle")
	return nil
}

// TestNarrativeProperties: over many seeds, both models and both editions,
// every side's story keeps time in order, tells the outcome the event
// records, tells as the turning point only a moment that went well for the
// winner, tells each general's fate once, prints only numbers the side's
// copy of the event carries (its own losses exactly, and the net loss that
// adds up), and never tells a pursuit at odds with the gun losses.
func TestNarrativeProperties(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		for _, model := range ruleset.BattleModels {
			for _, r := range []*ruleset.Ruleset{ruleset.SYW1752(), ruleset.SYWV4()} {
				for _, sc := range scenarios {
					res := battleTurnWith(t, r.WithBattle(model), seed, sc.change)
					checkProperties(t, fmt.Sprintf("seed %d %s %s %s", seed, model, r.ID, sc.name), res)
				}
			}
		}
	}
}

// scenarios are the armies the property test fights with: the golden
// battle (Fromande sees Eisenmark only as a size class), and an even one
// where both attack (so that some battles are both repulsed) and each sees
// the other in part (Eisenmark the arms, Fromande approximately).
var scenarios = []struct {
	name   string
	change func(*engine.State)
}{
	{"golden", nil},
	{"even", func(st *engine.State) {
		f := &st.Forces[1]
		f.Stance = game.Attack
		f.Troops = []game.Troops{{Arm: game.LineInfantry, Grade: game.GradeC, Count: 300}, {Arm: game.LightCavalry, Grade: game.GradeC, Count: 45}, {Arm: game.Gunners, Grade: game.GradeC, Count: 8}}
		st.Forces[0].Troops[0].Count = 300
	}},
}

// firstPerson finds the words of a side telling its own story, which the
// referee's third-person story never uses.
var firstPerson = regexp.MustCompile(`(?i)\b(we|our|ours|us)\b|the enemy`)

// checkReferee: the referee's story of the battle is told in the third
// person, both sides by name, its times in order, the winner named as such.
func checkReferee(t *testing.T, name string, res *engine.Result) {
	t.Helper()
	e := battleOf(t, res.Events)
	text := narrative.Tell(e, engine.Referee).Text()
	fail := func(format string, a ...any) {
		t.Helper()
		t.Errorf("%s as the referee: %s\n%s", name, fmt.Sprintf(format, a...), text)
	}
	if w := firstPerson.FindString(text); w != "" {
		fail("%q in the referee's story", w)
	}
	for _, n := range []string{"Eisenmark", "Fromande"} {
		if !strings.Contains(text, n+"'s casualties") && !strings.Contains(text, n+" lost no men") {
			fail("%s's losses are not told", n)
		}
	}
	if err := timeOrder(text); err != nil {
		fail("time runs backwards: %v", err)
	}
	if e.Winner == 0 || e.Winner == 1 {
		w := narrative.NationName(e.Sides[e.Winner].Nations[0])
		if !strings.Contains(text, "the day was "+w+"'s") && !strings.Contains(text, w+" held the field") &&
			!strings.Contains(text, "leaving "+w+" the field") {
			fail("%s won, not told", w)
		}
	} else if !strings.Contains(text, "neither army") {
		fail("nobody won, told otherwise")
	}
}

func checkProperties(t *testing.T, name string, res *engine.Result) {
	t.Helper()
	checkReferee(t, name, res)
	for _, n := range []game.NationID{"eisenmark", "fromande"} {
		evs := engine.EventsFor(res.Events, n)
		e := battleOf(t, evs)
		text := narrative.Text(evs, n)
		mine := e.SideOf(n)
		us := e.Sides[mine]
		fail := func(format string, a ...any) {
			t.Helper()
			t.Errorf("%s as %s: %s\n%s", name, n, fmt.Sprintf(format, a...), text)
		}
		if err := timeOrder(text); err != nil {
			fail("time runs backwards: %v", err)
		}
		low := strings.ToLower(text)
		if m, ok := narrative.TurningOf(e, n); ok && wentWellFor(m) != e.Winner {
			fail("the turning point %+v went well for side %d, but side %d won", m, wentWellFor(m), e.Winner)
		} else if ok != (strings.Contains(low, "the day turned") || strings.Contains(low, "turned the day")) {
			fail("turning point %v, told otherwise", ok)
		}
		want, never := outcomeWords(e, mine)
		found := false
		for _, w := range want {
			found = found || strings.Contains(low, w)
		}
		if !found {
			fail("outcome %s, winner %d: none of %q told", e.Outcome, e.Winner, want)
		}
		for _, w := range never {
			if strings.Contains(low, w) {
				fail("outcome %s, winner %d: %q told", e.Outcome, e.Winner, w)
			}
		}
		names := map[string]bool{"an enemy general": true}
		for _, m := range e.Moments {
			if m.General != "" {
				names[m.General] = true
			}
		}
		for g := range names {
			c := 0
			for _, fate := range []string{" was wounded", " fell, struck down", " was taken prisoner"} {
				c += strings.Count(low, strings.ToLower(g+fate))
			}
			if c > 1 {
				fail("general %q struck %d times", g, c)
			}
		}
		if err := breakTold(e, mine, text); err != nil {
			fail("%v", err)
		}
		ok := allowedNumbers(t, e)
		body := regexp.MustCompile(`hex \d+`).ReplaceAllString(text, "hex")
		for _, s := range numberRe.FindAllString(body, -1) {
			if v, _ := strconv.Atoi(s); !ok[v] {
				fail("prints %d, which the event (as %s sees it) does not carry", v, n)
			}
		}
		cas := us.Killed + us.Routed + us.Captured
		if cas > 0 {
			for _, w := range []string{
				fmt.Sprintf("casualties were %d: %s", cas, casualtyList(us)),
				costs(us.Lost),
			} {
				if !strings.Contains(low, w) {
					fail("lacks %q", w)
				}
			}
			if us.Regained > 0 && !strings.Contains(low, fmt.Sprintf("%d of them came back", us.Regained)) {
				fail("lacks the %d regained", us.Regained)
			}
		}
		if cas-us.Regained+us.PursuitLost != us.Lost {
			fail("the event's own losses do not add up: %+v", us)
		}
		pursuitGuns := 0
		for _, g := range us.GunChanges {
			if g.Reason == "pursuit" {
				pursuitGuns += g.Count
			}
		}
		if pursuitGuns > 0 && (strings.Contains(low, "retreat was covered") || !strings.Contains(low, "on the road")) {
			fail("lost %d guns in the pursuit, told otherwise", pursuitGuns)
		}
		if e.Winner == mine && e.Pursued {
			them := e.Sides[1-mine]
			lost := 0
			for _, g := range them.GunChanges {
				if g.Reason == "pursuit" {
					lost += g.Count
				}
			}
			if (lost > 0 || them.PursuitLost > 0) && !strings.Contains(low, "on the road") && them.PursuitLost == 0 {
				fail("the enemy lost %d guns in the pursuit, not told", lost)
			}
		}
	}
}

// TestTurningPointFavoursTheWinner: a battle whose recorded turning point is
// the loser's success (Eisenmark's hussars charging, yet Eisenmark broke)
// is told with a turning point that favoured the winner, in both versions.
func TestTurningPointFavoursTheWinner(t *testing.T) {
	e := &engine.LandBattle{Hex: game.Hex{Col: 5, Row: 2}, City: "Marienfels", Date: "Turn 2, May 1752", Model: ruleset.BattleSimulation,
		Outcome: battle.Decisive, Winner: 1, Days: 1, Turns: 12, Turning: 2,
		Sides: [2]engine.BattleSide{
			{Nations: []game.NationID{"eisenmark"}, Stance: game.Attack, Commander: "Marshal Keith", Killed: 80, Routed: 80, Regained: 100, Lost: 60, Level: -1},
			{Nations: []game.NationID{"fromande"}, Commander: "Marshal Saxe", Killed: 20, Routed: 10, Regained: 10, Lost: 20, Level: -1},
		},
		Moments: []battle.Moment{
			{Day: 1, Turn: 2, Side: 0, What: battle.MAdvance},
			{Day: 1, Turn: 5, Side: 1, What: battle.MCharge, Kind: battle.MediumCav, Target: battle.Infantry, Outcome: "routed"},
			{Day: 1, Turn: 7, Side: 0, What: battle.MCharge, Kind: battle.LightCav, Target: battle.Infantry, Outcome: "routed"},
			{Day: 1, Turn: 10, Side: 1, What: battle.MMelee, Kind: battle.Infantry, Target: battle.Infantry, Outcome: "won and routed them"},
			{Day: 1, Turn: 12, Side: 0, What: battle.MBreak},
		}}
	for _, n := range []game.NationID{"eisenmark", "fromande"} {
		s := narrative.Tell(e, n)
		text := s.Text()
		t.Log(text)
		// The loser's success may be told, but never as what turned the day.
		for _, bad := range []string{"our hussars charged the enemy's infantry and drove them from the field. Our army", "day turned: by mid-morning our hussars", "day turned: the enemy's hussars"} {
			if strings.Contains(text, bad) {
				t.Errorf("as %s: the turning point is the loser's success:\n%s", n, text)
			}
		}
		if !strings.Contains(text, "turned") {
			t.Errorf("as %s: no turning point told:\n%s", n, text)
		}
		if err := timeOrder(text); err != nil {
			t.Errorf("as %s: %v\n%s", n, err, text)
		}
	}
}

// costs is the net loss as the story says it.
func costs(n int) string {
	switch {
	case n <= 0:
		return "cost us no men"
	case n == 1:
		return "cost us 1 man"
	}
	return fmt.Sprintf("cost us %d men", n)
}

// wentWellFor is the side a moment went well for: the actor of a charge, a
// won melee, guns taken or reserves; the other side of a lost melee, of a
// general struck, of an attack called off.
func wentWellFor(m battle.Moment) int {
	switch m.What {
	case battle.MCharge, battle.MGunsTaken, battle.MReserves:
		return m.Side
	case battle.MMelee:
		if strings.HasPrefix(m.Outcome, "won") {
			return m.Side
		}
	}
	return 1 - m.Side
}

// TestMultiDayTimeAndGenerals: a V4 battle over two days, whose moments the
// model recorded with a general wounded twice (incapacitated) and another
// wounded then killed: the story keeps the days in order and tells each
// general's fate once, the worst of it.
func TestMultiDayTimeAndGenerals(t *testing.T) {
	e := &engine.LandBattle{Hex: game.Hex{Col: 5, Row: 2}, Date: "Turn 2, May 1752", Model: ruleset.BattleSimulation,
		Outcome: battle.Withdrew, Winner: 0, Days: 2, Turns: 16, Turning: 4,
		Sides: [2]engine.BattleSide{
			{Nations: []game.NationID{"eisenmark"}, Stance: game.Attack, Commander: "Marshal Keith", Size: "large", Killed: 30, Routed: 10, Regained: 5, Lost: 35, Level: -1},
			{Nations: []game.NationID{"fromande"}, Commander: "Marshal Saxe", Size: "large", Killed: 50, Routed: 25, Lost: 75, Level: ruleset.LevelApprox},
		},
		Moments: []battle.Moment{
			{Day: 1, Turn: 3, Side: 0, What: battle.MAdvance},
			{Day: 1, Turn: 5, Side: 0, What: battle.MGeneral, General: "General Ziethen", Outcome: battle.Wounded},
			{Day: 1, Turn: 14, Side: 1, What: battle.MGeneral, General: "Marshal Saxe", Outcome: battle.Wounded},
			{Day: 1, Turn: 15, Side: 0, What: battle.MGeneral, General: "General Ziethen", Outcome: battle.Wounded},
			{Day: 2, Turn: 2, Side: 0, What: battle.MCharge, Kind: battle.LightCav, Target: battle.Infantry, Outcome: "routed"},
			{Day: 2, Turn: 9, Side: 1, What: battle.MGeneral, General: "Marshal Saxe", Outcome: battle.Killed},
			{Day: 2, Turn: 12, Side: 1, What: battle.MWithdraw},
		}}
	for _, n := range []game.NationID{"eisenmark", "fromande"} {
		text := narrative.Tell(e, n).Text()
		if err := timeOrder(text); err != nil {
			t.Errorf("as %s: %v\n%s", n, err, text)
		}
		for _, g := range []string{"Ziethen", "Saxe"} {
			if c := strings.Count(text, g+" was wounded") + strings.Count(text, g+" fell"); n == "eisenmark" && c != 1 {
				t.Errorf("as %s: %s's fate told %d times:\n%s", n, g, c, text)
			}
		}
		if n == "eisenmark" && (!strings.Contains(text, "Ziethen was wounded and carried from the field") || !strings.Contains(text, "Saxe fell")) {
			t.Errorf("as %s: the worst fates are not told:\n%s", n, text)
		}
		if !strings.Contains(text, "on the second day") {
			t.Errorf("as %s: the second day is not told:\n%s", n, text)
		}
		t.Log(text)
	}
}

// TestRepulseOverTwoDaysInEveryVoice: a V4 attack repulsed after two days
// of battle is told ending at nightfall of the second day — to the
// attacker as a repulse, to the defender as an attack beaten off, and to
// the referee by name, in the third person.
func TestRepulseOverTwoDaysInEveryVoice(t *testing.T) {
	e := &engine.LandBattle{Hex: game.Hex{Col: 5, Row: 2}, City: "Marienfels", Date: "Turn 2, May 1752", Model: ruleset.BattleSimulation,
		Outcome: battle.Repulse, Winner: 1, Days: 2, Turns: 16, Turning: -1,
		Sides: [2]engine.BattleSide{
			{Nations: []game.NationID{"eisenmark"}, Stance: game.Attack, Commander: "Marshal Keith", Killed: 30, Routed: 10, Regained: 40, Level: -1},
			{Nations: []game.NationID{"fromande"}, Commander: "Marshal Saxe", Killed: 20, Routed: 5, Regained: 25, Level: -1, InCity: true},
		},
		Moments: []battle.Moment{
			{Day: 1, Turn: 3, Side: 0, What: battle.MAdvance},
			{Day: 1, Turn: 16, Side: 0, What: battle.MNightfall},
			{Day: 2, Turn: 4, Side: 0, What: battle.MCharge, Kind: battle.LightCav, Target: battle.Infantry, Outcome: "routed"},
			{Day: 2, Turn: 16, Side: 0, What: battle.MNightfall},
		}}
	for n, want := range map[game.NationID]string{
		"eisenmark":    "At nightfall on the second day, after 2 days of fighting, our attack was repulsed",
		"fromande":     "At nightfall on the second day, after 2 days of fighting, the enemy's attack was beaten off, and we held the field",
		engine.Referee: "At nightfall on the second day, after 2 days of fighting, Eisenmark's attack was beaten off, and Fromande held the field",
	} {
		text := narrative.Tell(e, n).Text()
		if !strings.Contains(text, want) {
			t.Errorf("as %s: lacks %q:\n%s", n, want, text)
		}
		if err := timeOrder(text); err != nil {
			t.Errorf("as %s: %v\n%s", n, err, text)
		}
		if n == engine.Referee {
			if w := firstPerson.FindString(text); w != "" {
				t.Errorf("the referee's story says %q:\n%s", w, text)
			}
			if !strings.Contains(text, "Fromande held the town of Marienfels") || !strings.Contains(text, "all 40 of them came back") {
				t.Errorf("the referee's story does not tell both sides:\n%s", text)
			}
		}
	}
}

// TestCapturedWithNoRetreat: a V4 force beaten with nowhere to retreat is
// taken, its general with it; the story tells the loser and the referee
// his name, and the winner, who did not scout him, nothing of him.
func TestCapturedWithNoRetreat(t *testing.T) {
	saxe := battle.GeneralFate{Nation: "fromande", Force: "F1", ID: "Saxe", Name: "Marshal Saxe", Fate: battle.Captured}
	e := &engine.LandBattle{Hex: game.Hex{Col: 5, Row: 2}, Date: "Turn 2, May 1752", Model: ruleset.BattleSimulation,
		Outcome: battle.Decisive, Winner: 0, Days: 1, Turns: 9, Turning: -1,
		Sides: [2]engine.BattleSide{
			{Nations: []game.NationID{"eisenmark"}, Forces: []game.ForceID{"E1"}, Stance: game.Attack, Commander: "Marshal Keith", Killed: 10, Lost: 10},
			{Nations: []game.NationID{"fromande"}, Forces: []game.ForceID{"F1"}, Commander: "Marshal Saxe", Killed: 8, Captured: 32, Lost: 40,
				Generals: []battle.GeneralFate{saxe}},
		},
		Retreats: []engine.BattleRetreat{{Force: "F1", Blocked: true, Captured: true, Figures: 32, Generals: []battle.GeneralFate{saxe}}},
		Seen:     []engine.BattleSight{{Nation: "eisenmark", Level: ruleset.LevelSize}, {Nation: "fromande", Level: ruleset.LevelExact}},
	}
	e.Visibility = engine.Visibility{To: []game.NationID{"eisenmark", "fromande"}}
	for n, want := range map[game.NationID]string{
		"fromande":     "Our force F1 could not retreat and was taken, and Marshal Saxe with it",
		engine.Referee: "Fromande's force F1 could not retreat and was taken, and Marshal Saxe with it",
	} {
		evs := []engine.Event{e}
		if n != engine.Referee {
			evs = engine.EventsFor(evs, n)
		}
		if text := narrative.Text(evs, n); !strings.Contains(text, want) {
			t.Errorf("as %s: lacks %q:\n%s", n, want, text)
		}
	}
	if text := narrative.Text(engine.EventsFor([]engine.Event{e}, "eisenmark"), "eisenmark"); strings.Contains(text, "Saxe") {
		t.Errorf("Eisenmark, which did not scout him, is told Saxe's name:\n%s", text)
	}
}
