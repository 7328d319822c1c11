package reports

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// TestEventTextComplete: every event kind the engines register — the SYW
// kinds and the Trossian campaign's (engine.RegisterEvent) — has its entry
// in the text registry: a sentence for a nation and one for the referee, a
// section of the report (with a heading for an encounter, a story for a
// story, a row for a clash on the referee's first page), and its JSON
// round-trips. A kind registered without an entry fails here, naming the
// family files to add it to; an entry for a kind no engine registers fails
// too.
func TestEventTextComplete(t *testing.T) {
	t.Parallel()
	kinds := engine.EventKinds()
	if !slices.Contains(kinds, "ForceMoved") || !slices.Contains(kinds, "BattleFought") {
		t.Fatalf("the registry lacks the SYW or the Trossian kinds: %v", kinds)
	}
	var zeros []engine.Event
	for _, k := range kinds {
		e, err := engine.UnmarshalEvent([]byte(fmt.Sprintf(`{"kind":%q}`, k)))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		zeros = append(zeros, e)
	}
	for _, p := range eventTextProblems(t, zeros) {
		t.Error(p)
	}
	for _, tx := range EventTexts() {
		if !slices.Contains(kinds, tx.Kind) {
			t.Errorf("the text of %s is for a kind no engine registers", tx.Kind)
		}
	}
}

// newKind is an event kind an engine might add, not yet told in words.
type newKind struct {
	engine.Header
	Force game.ForceID
}

func (*newKind) Kind() string { return "NewKind" }

// TestEventTextCompleteFailsForANewKind: the completeness check names a
// kind without an entry in the registry, and where to add it.
func TestEventTextCompleteFailsForANewKind(t *testing.T) {
	t.Parallel()
	ps := eventTextProblems(t, []engine.Event{new(newKind)})
	if len(ps) != 1 || !strings.Contains(ps[0], "event kind NewKind has no words: add its entry to reports/text_<family>.go") {
		t.Errorf("a kind without words: %q", ps)
	}
}

// eventTextProblems checks each kind (a zero event of it) against the
// registry: its entry, its sentences, its category, its JSON.
func eventTextProblems(t *testing.T, zeros []engine.Event) []string {
	var out []string
	fail := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, zero := range zeros {
		k := zero.Kind()
		tx, ok := TextOf(k)
		if !ok {
			fail("event kind %s has no words: add its entry to reports/text_<family>.go (see docs/DEVELOPING.md, \"Adding an event kind\")", k)
			continue
		}
		switch {
		case tx.Nation == nil:
			fail("%s has no sentence for a nation (Nation)", k)
			continue
		case tx.Referee == nil:
			fail("%s has no sentence for the referee (Referee)", k)
			continue
		case tx.Section < SectionOrders || tx.Section > SectionRecord:
			fail("%s has no section of the report (Section)", k)
		case (tx.Section == SectionEncounters || tx.Section == SectionStory) && tx.Heading == "":
			fail("%s is told among the encounters without a heading for its place (Heading)", k)
		case tx.Section == SectionStory && tx.Story == nil:
			fail("%s is told as a story without one (Story)", k)
		case tx.Glance == GlanceClash && tx.Clash == nil:
			fail("%s is a clash on the referee's first page without its row (Clash)", k)
		}
		full := filledEvent(t, zero)
		b, err := engine.MarshalEvent(full)
		if err != nil {
			fail("%s does not encode: %v", k, err)
			continue
		}
		back, err := engine.UnmarshalEvent(b)
		if err != nil || !reflect.DeepEqual(back, full) {
			fail("%s does not read back from its JSON %s: %+v, %v", k, b, back, err)
		}
		for _, e := range []engine.Event{zero, full} {
			for _, viewer := range []game.NationID{"nation1", engine.Referee} {
				s := Sentence(nil, viewer, e)
				if s == "" || strings.Contains(s, "%!") {
					fail("%s for %s: %q", k, viewer, s)
				}
			}
		}
		// The referee's sentence names every nation involved.
		ref := Sentence(nil, engine.Referee, full)
		for _, n := range full.Head().Nations {
			if name := capitalise(string(n)); !strings.Contains(ref, name) {
				fail("%s: the referee's sentence does not name %s: %q", k, name, ref)
			}
		}
	}
	return out
}

// filledEvent is the event with every exported field set: strings,
// numbers and lists distinct, each value of a type with its own text
// encoding one that reads back. Its header names as the nations involved
// the nations its own fields name (as the engines emit them), or one
// nation of its own for an event of one nation's.
func filledEvent(t *testing.T, e engine.Event) engine.Event {
	t.Helper()
	v := reflect.New(reflect.TypeOf(e).Elem())
	f := &filler{}
	f.fill(v.Elem(), 0)
	out := v.Interface().(engine.Event)
	h := out.Head()
	*h = engine.Header{Step: "step", Rule: "rule"}
	var ns []game.NationID
	collectNations(reflect.ValueOf(out).Elem(), "", notSides[out.Kind()], &ns)
	if len(ns) == 0 && !slices.Contains(noNations, out.Kind()) {
		ns = []game.NationID{"owner"}
	}
	slices.Sort(ns)
	h.Nations = slices.Compact(ns)
	h.Visibility = engine.Visibility{To: h.Nations}
	return out
}

var (
	nationType = reflect.TypeOf(game.NationID(""))
	headerType = reflect.TypeOf(engine.Header{})
)

// notSides are the nation fields of an event that name no side of it —
// each is a side's own (a force's nation, its commander's) or the
// referee's record — by kind and field path; every other nation an event
// names is a side, and the referee's sentence names it.
var notSides = map[string][]string{
	// A force's nation and its guns' owner are its side's; the city's
	// holder is told by the city's name.
	"EngagementPending":    {"Sides.Forces.Force", "CityController"},
	"SeaEngagementPending": {"Sides.Fleets"},
	// The commander's, the generals', the stacks' and the guns' nations are
	// their side's; Seen is each nation's scouting of the battle, the fog's
	// record.
	"LandBattle": {"Sides.CommanderNation", "Sides.Stacks", "Sides.GunChanges", "Sides.GunsTaken", "Sides.Promotions",
		"Sides.Experience", "Sides.Generals", "Moments", "Seen", "Retreats.Generals"},
	// The generals lost with a force are of its side's nation.
	"Overrun":        {"Generals"},
	"GarrisonKilled": {"Generals"},
	// The attacker is one of the sides; the guns taken were the loser's.
	"SeaBattle": {"Attacker", "GunsCaptured"},
	// What the scouts learned is of the target's force.
	"Scouted": {"Learned"},
	// What the garrison left was its own.
	"Surrender":       {"Captured"},
	"AssaultResolved": {"Captured"},
	// The contenders are the winners' rivals, told in the tax bases.
	"VictoryDeclared": {"Victory.Contenders"},
	// An army's kingdom is its side's; the province's holder is not a side.
	"BattleAwaiting": {"Sheet.Sides.Armies", "Sheet.Controller"},
	// The effect's kingdoms are the header's, which the sentence names.
	"RulingDone": {"Effect"},
}

// noNations are the kinds the engines emit with no nation in the header:
// the turn's end (public) and a refused tabletop result (the referee's).
var noNations = []string{"TurnEnded", "PhaseEnded", "TabletopRefused"}

// collectNations gathers the nation IDs an event's own fields hold, but
// those notSides lists.
func collectNations(v reflect.Value, path string, skip []string, out *[]game.NationID) {
	for _, p := range skip {
		if path == p || strings.HasPrefix(path, p+".") {
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		if v.Type() == nationType && v.String() != "" {
			*out = append(*out, game.NationID(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectNations(v.Elem(), path, skip, out)
		}
	case reflect.Struct:
		if v.Type() == headerType {
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				p := f.Name
				if path != "" {
					p = path + "." + f.Name
				}
				if f.Anonymous {
					p = path
					if path == "" {
						p = f.Name
					}
				}
				collectNations(v.Field(i), p, skip, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectNations(v.Index(i), path, skip, out)
		}
	}
}

// filler sets values, each string and number its own.
type filler struct{ n int }

func (f *filler) next() int { f.n++; return f.n }

func (f *filler) fill(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		switch v.Type() {
		case nationType:
			v.SetString(fmt.Sprintf("nation%d", f.next()))
		default:
			v.SetString(fmt.Sprintf("S%d", f.next()))
		}
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.next() % 5))
		if v.Int() == 0 {
			v.SetInt(1)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == headerType {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Interface {
			return // orders and effects of a campaign's own: left out
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		f.fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map, reflect.Interface:
		return
	}
	// A value of a type with its own encoding must be one it reads back
	// (an enumeration, a hex, a place): the first small value that does,
	// else the type's zero.
	if !v.CanAddr() || readsBack(v) {
		return
	}
	for c := 1; c <= 8; c++ {
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(int64(c))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(c))
		default:
			c = 9
			continue
		}
		if readsBack(v) {
			return
		}
	}
	v.Set(reflect.Zero(v.Type()))
}

// readsBack reports whether a value of a type that encodes itself decodes
// to itself.
func readsBack(v reflect.Value) bool {
	switch v.Addr().Interface().(type) {
	case json.Unmarshaler, encoding.TextUnmarshaler:
	default:
		return true
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return false
	}
	back := reflect.New(v.Type())
	if err := json.Unmarshal(b, back.Interface()); err != nil {
		return false
	}
	return reflect.DeepEqual(back.Elem().Interface(), v.Interface())
}
