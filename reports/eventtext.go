package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// The event text registry: the one place each event kind is told in words.
//
// Every event kind the engines register (engine.EventKinds: the SYW kinds
// and the Trossian campaign's) has one entry here, written in its family's
// file — text_orders.go (marches, voyages, supply, organisation and
// orders), text_fighting.go (contacts, battles, the sea), text_sieges.go
// (sieges, captures, risings), text_yearend.go (money, the year-end,
// treaties, rulings), text_trossian.go — with:
//
//   - its sentence for a nation that saw it (Nation), given the event as the
//     nation may see it (engine.EventFor): fogged numbers are zero, and the
//     sentence leaves them out;
//   - its sentence for the referee (Referee), in the third person with every
//     nation involved named and every number whole;
//   - its category: the Section of a nation's report it is told in (with the
//     Heading of its place for encounters), whether the month's summary
//     tells it too (News), the set piece it belongs to (Piece), whether it
//     is a headline of the year (Headline), its line on the referee's first
//     page (Glance, Clash), and whether an event of the kind is routine
//     (Routine: not worth a line);
//   - optionally, how it is told with the event after it (WithNext: a
//     payment and the treasury it came from, in one line), and the story
//     that tells it whole (Story: a land battle, by package
//     reports/narrative).
//
// Its JSON is the kind's own (engine.MarshalEvent). Everything that turns
// events into words reads this registry: the nation's report (Build,
// Narrate), the referee's master report and its first page (BuildReferee),
// the daemon's plain summary (Sentence), the demo's year. Nothing else
// switches on event types to say what happened. TestEventTextComplete fails
// when a registered kind has no entry, or an entry lacks a sentence or a
// category, or a sentence falls back on the kind's name.

// Section is the part of a nation's report that tells an event kind.
type Section uint8

// The sections.
const (
	// SectionOrders is "Marches, supply and orders": the month's news of the
	// nation's own forces, its money and its orders.
	SectionOrders Section = iota + 1
	// SectionEncounters is "Battles, sieges and encounters": a plain
	// sentence under the heading of its place (EventText.Heading).
	SectionEncounters
	// SectionStory is a story of its own in "Battles, sieges and
	// encounters" (EventText.Story): a land battle.
	SectionStory
	// SectionNews is the month's summary: cities taken and lost, victory.
	SectionNews
	// SectionScouting is the scouting table.
	SectionScouting
	// SectionRecord is told in the report's tables and headings (standing
	// orders in the forces table, the turn in the title), in no list of a
	// nation's report; the referee's list of every event tells it.
	SectionRecord
)

var sectionNames = [...]string{SectionOrders: "orders", SectionEncounters: "encounters", SectionStory: "story",
	SectionNews: "news", SectionScouting: "scouting", SectionRecord: "record"}

// String names the section.
func (s Section) String() string {
	if int(s) < len(sectionNames) && sectionNames[s] != "" {
		return sectionNames[s]
	}
	return fmt.Sprintf("Section(%d)", s)
}

// GlanceHeading is the list of the referee's first page an event kind is
// filed under (Glance).
type GlanceHeading uint8

// The headings of the first page.
const (
	// GlanceNone: not on the first page.
	GlanceNone GlanceHeading = iota
	// GlanceAttention: "Needs your attention".
	GlanceAttention
	// GlanceClash: "Battles, sieges and assaults", a row of the table
	// (EventText.Clash).
	GlanceClash
	// GlanceCapture and GlanceLoss: "Captures and losses".
	GlanceCapture
	GlanceLoss
	// GlanceTreaty: "Treaties".
	GlanceTreaty
	// GlanceRuling: "Rulings applied".
	GlanceRuling
)

// EventText is one event kind's words: everything a report, a summary or a
// list says of an event of the kind. Entries are written with the kind's
// own type (text[E]) and erased to this form.
type EventText struct {
	// Kind is the event kind (engine.Event.Kind).
	Kind string
	// Section is where a nation's report tells it.
	Section Section
	// Heading titles the place of an encounter (SectionEncounters):
	// "Action at", "At sea,", "Siege at", "Rising at" — "Action at 0812
	// (Konigsfeld)".
	Heading string
	// News: the month's summary tells it too (SectionNews kinds always).
	News bool
	// Piece is the set piece the event is part of — "land battle", "sea
	// battle", "siege", "assault", "landing", "capture" — or "".
	Piece string
	// Headline: one of the year's headlines (a battle, an assault, a
	// siege begun or lifted, a treaty published, victory).
	Headline bool
	// Glance is the list of the referee's first page it is filed under; a
	// clash's row is Clash's, every other line is the Referee sentence.
	Glance GlanceHeading

	// Nation tells the event to a nation that saw it, as the nation may
	// see it (engine.EventFor).
	Nation func(w Words, e engine.Event) string
	// Referee tells the whole event in the third person: every nation
	// involved named, every number whole.
	Referee func(w Words, e engine.Event) string
	// Routine, when set, says an event is not worth a line of its own (a
	// force that found its supply, a march that did not move): it is left
	// out of the lists of a nation's report and of the referee's list of
	// every event.
	Routine func(e engine.Event) bool
	// WithNext, when set, tells the event and the next one in one line when
	// they are one transaction (a fielding and the treasury that paid
	// for it); ok false when they are not.
	WithNext func(w Words, e, next engine.Event) (line string, ok bool)
	// Clash is the event's row in the referee's table of the turn's fights
	// (Glance GlanceClash); ok false leaves it out.
	Clash func(w Words, e engine.Event) (c Clash, ok bool)
	// Story, when set, tells the event whole (Section SectionStory).
	Story func(w Words, e engine.Event) Narrative
	// Where, when set, names where the event happened (for the encounters'
	// headings) where the header's Place does not: a Trossian province.
	Where func(w Words, e engine.Event) string
}

// text is an EventText written with the kind's own type E (a pointer to
// the event's struct); entry erases it. The fields are EventText's.
type text[E engine.Event] struct {
	Section  Section
	Heading  string
	News     bool
	Piece    string
	Headline bool
	Glance   GlanceHeading
	Nation   func(w Words, e E) string
	Referee  func(w Words, e E) string
	Routine  func(e E) bool
	WithNext func(w Words, e E, next engine.Event) (string, bool)
	Clash    func(w Words, e E) (Clash, bool)
	Story    func(w Words, e E) Narrative
	Where    func(w Words, e E) string
}

// entry erases the kind's type: each function asserts the event is of it.
func (t text[E]) entry() EventText {
	var zero E
	out := EventText{Kind: zero.Kind(), Section: t.Section, Heading: t.Heading, News: t.News, Piece: t.Piece,
		Headline: t.Headline, Glance: t.Glance}
	if f := t.Nation; f != nil {
		out.Nation = func(w Words, e engine.Event) string { return f(w, e.(E)) }
	}
	if f := t.Referee; f != nil {
		out.Referee = func(w Words, e engine.Event) string { return f(w, e.(E)) }
	}
	if f := t.Routine; f != nil {
		out.Routine = func(e engine.Event) bool { return f(e.(E)) }
	}
	if f := t.WithNext; f != nil {
		out.WithNext = func(w Words, e, next engine.Event) (string, bool) { return f(w, e.(E), next) }
	}
	if f := t.Clash; f != nil {
		out.Clash = func(w Words, e engine.Event) (Clash, bool) { return f(w, e.(E)) }
	}
	if f := t.Story; f != nil {
		out.Story = func(w Words, e engine.Event) Narrative { return f(w, e.(E)) }
	}
	if f := t.Where; f != nil {
		out.Where = func(w Words, e engine.Event) string { return f(w, e.(E)) }
	}
	return out
}

// eventTexts is the registry: every family's entries by kind, filled at
// start-up. It is only looked up, never iterated (EventTexts sorts).
var eventTexts = map[string]EventText{}

func init() {
	for _, fam := range [][]EventText{orderTexts, fightingTexts, siegeTexts, yearEndTexts, trossianTexts} {
		for _, t := range fam {
			if _, dup := eventTexts[t.Kind]; dup {
				panic("reports: event kind " + t.Kind + " has two texts")
			}
			eventTexts[t.Kind] = t
		}
	}
}

// TextOf returns the registry's entry of an event kind.
func TextOf(kind string) (EventText, bool) {
	t, ok := eventTexts[kind]
	return t, ok
}

// EventTexts returns every entry, sorted by kind.
func EventTexts() []EventText {
	out := make([]EventText, 0, len(eventTexts))
	for _, t := range eventTexts {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b EventText) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// textFor is the entry of e's kind; a kind without one (which
// TestEventTextComplete forbids) is told by its name, in the orders.
func textFor(e engine.Event) EventText {
	if t, ok := eventTexts[e.Kind()]; ok {
		return t
	}
	name := func(w Words, e engine.Event) string { return splitCamel(e.Kind()) + "." }
	return EventText{Kind: e.Kind(), Section: SectionOrders, Nation: name, Referee: name}
}

// Sentence tells one event in a sentence for people, with its amounts, its
// places and the nations by name: "Morgronskia paid 597 crowns from its
// treasury in Morgrad to field M1 (616 → 19)." viewer is the nation the
// sentence is for — the event must be as that viewer may see it
// (engine.EventsFor) — or engine.Referee, for whom the event is told whole
// in the third person. m may be nil (places and nations are then printed
// by their IDs). The words are the kind's entry in the registry.
func Sentence(m *hexmap.Map, viewer game.NationID, e engine.Event) string {
	return wordsFor(m, viewer, e).tell(e)
}

// SectionOf returns the section of a nation's report that tells e.
func SectionOf(e engine.Event) Section { return textFor(e).Section }

// PieceOf returns the set piece e is part of ("land battle", "sea battle",
// "siege", "assault", "landing", "capture"), or "".
func PieceOf(e engine.Event) string { return textFor(e).Piece }

// Headline returns the referee's sentence of e when it is one of the
// year's headlines (EventText.Headline).
func Headline(m *hexmap.Map, e engine.Event) (string, bool) {
	if !textFor(e).Headline {
		return "", false
	}
	return Sentence(m, engine.Referee, e), true
}

// Routine reports an event not worth a line of its own
// (EventText.Routine).
func Routine(e engine.Event) bool {
	r := textFor(e).Routine
	return r != nil && r(e)
}

// EventLines tells events in order, one line each, for viewer (the events
// as it may see them, or every event whole for engine.Referee): routine
// events are left out, and an event told with the next (a payment and its
// treasury) takes one line for both.
func EventLines(m *hexmap.Map, viewer game.NationID, events []engine.Event) []string {
	var out []string
	tellEach(m, viewer, events, func(_ engine.Event, line string) { out = append(out, line) })
	return out
}

// tellEach is EventLines, calling yield with each line and the (first)
// event it tells.
func tellEach(m *hexmap.Map, viewer game.NationID, events []engine.Event, yield func(e engine.Event, line string)) {
	for i := 0; i < len(events); i++ {
		e := events[i]
		if Routine(e) {
			continue
		}
		w := wordsFor(m, viewer, e)
		line := w.tell(e)
		if wn := textFor(e).WithNext; wn != nil && i+1 < len(events) {
			if s, ok := wn(w, e, events[i+1]); ok {
				line = s
				i++
			}
		}
		yield(e, line)
	}
}

// Words names what a sentence speaks of — nations and places by name when
// there is a map, by ID when there is none — and knows whom the sentence
// is for and which event it tells.
type Words struct {
	m      *hexmap.Map
	viewer game.NationID
	head   *engine.Header
}

// wordsFor are the words of e for viewer.
func wordsFor(m *hexmap.Map, viewer game.NationID, e engine.Event) Words {
	return Words{m: m, viewer: viewer, head: e.Head()}
}

// tell is e's sentence for w's viewer.
func (w Words) tell(e engine.Event) string {
	t := textFor(e)
	if w.viewer == engine.Referee {
		return t.Referee(w, e)
	}
	return t.Nation(w, e)
}

// Referee reports words for the referee.
func (w Words) Referee() bool { return w.viewer == engine.Referee }

// Viewer is the nation the words are for (engine.Referee for the referee).
func (w Words) Viewer() game.NationID { return w.viewer }

func (w Words) nation(n game.NationID) string {
	if w.m == nil {
		if n == "" {
			return "neutral"
		}
		return capitalise(string(n))
	}
	return nationName(w.m, n)
}

func (w Words) nations(ns []game.NationID) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = w.nation(n)
	}
	return english.List(s)
}

// involved names the nations of the event's header: "Eisenmark",
// "Eisenmark and Fromande".
func (w Words) involved() string {
	if w.head == nil {
		return ""
	}
	return w.nations(w.head.Nations)
}

// owned prefixes a sentence of one nation's event with the nation, for
// the referee: "Eisenmark: E1 marched …". A sentence for a nation is
// returned as it is.
func (w Words) owned(s string) string {
	if !w.Referee() || w.head == nil || len(w.head.Nations) == 0 {
		return s
	}
	return w.involved() + ": " + s
}

// others names the event's nations but n: the other side of one
// nation's event ("" when there is none).
func (w Words) others(n game.NationID) string {
	if w.head == nil {
		return ""
	}
	var out []game.NationID
	for _, x := range w.head.Nations {
		if x != n {
			out = append(out, x)
		}
	}
	return w.nations(out)
}

// forceOf names a force with its nation, for the referee: "Eisenmark's
// E1" — the nation whose force letter the ID carries (by the map), or the
// one of the event's nations whose name begins with it. For a nation, and
// when no nation is found, the ID alone.
func (w Words) forceOf(id game.ForceID) string {
	if !w.Referee() || id == "" {
		return string(id)
	}
	if n := w.ownerOf(id); n != "" {
		return w.nation(n) + "'s " + string(id)
	}
	return string(id)
}

// ownerOf is the nation of a force ID, "" when not known.
func (w Words) ownerOf(id game.ForceID) game.NationID {
	prefix := strings.TrimRight(string(id), "0123456789")
	if prefix == "" || prefix == string(id) {
		return ""
	}
	if w.m != nil {
		for _, n := range w.m.Nations {
			if n.Letter == prefix {
				return n.ID
			}
		}
	}
	if w.head != nil {
		var found game.NationID
		for _, n := range w.head.Nations {
			if strings.HasPrefix(strings.ToUpper(string(n)), strings.ToUpper(prefix)) {
				if found != "" {
					return ""
				}
				found = n
			}
		}
		return found
	}
	return ""
}

// forcesOf names forces with their nations, for the referee: "Eisenmark's
// E1 and E2 and Fromande's F3".
func (w Words) forcesOf(fs []game.ForceID) string {
	if !w.Referee() {
		return ids(fs)
	}
	var order []game.NationID
	by := map[game.NationID][]string{}
	for _, id := range fs {
		n := w.ownerOf(id)
		if _, ok := by[n]; !ok {
			order = append(order, n)
		}
		by[n] = append(by[n], string(id))
	}
	if _, unknown := by[""]; unknown {
		// Whose they are is not told by their IDs: the event's nations.
		return "forces " + ids(fs) + " of " + w.involved()
	}
	var parts []string
	for _, n := range order {
		s := english.List(by[n])
		if n != "" {
			s = w.nation(n) + "'s " + s
		}
		parts = append(parts, s)
	}
	return english.List(parts)
}

func (w Words) hex(h game.Hex) string { return w.where(game.AtHex(h)) }

func (w Words) where(p game.Place) string {
	if w.m == nil {
		return p.String()
	}
	return Where(w.m, p)
}

// place names where the event happened, for the encounters' headings.
func (w Words) place(e engine.Event) string {
	if f := textFor(e).Where; f != nil {
		return f(w, e)
	}
	if w.m == nil {
		return e.Head().Place.String()
	}
	return Where(w.m, e.Head().Place)
}
