package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/syw-pbem/pbem/game"
)

// Referee is the pseudo-nation that sees every event. EventsFor(events,
// Referee) returns them all.
const Referee game.NationID = "#referee"

// Event is one thing that happened during a turn. Each kind is its own struct
// (eventkinds.go) embedding a Header; reports and narratives are built from
// events and from View only.
type Event interface {
	// Kind is the event's name in JSON envelopes ("ForceMoved").
	Kind() string
	// Head returns the common header: step, rule, place, nations, visibility.
	Head() *Header
	// VisibleTo reports whether a nation may see the event at all; what of
	// it the nation may see is EventFor's.
	VisibleTo(n game.NationID) bool
}

// Header is embedded in every event.
type Header struct {
	// Step is the pipeline step that emitted the event (pipeline.go).
	Step string
	// Rule cites the rule applied: edition, section and paragraph, e.g.
	// "1752 Land Movement ¶Movement Table".
	Rule string
	// Place is where it happened (zero for events about no place).
	Place game.Place `json:",omitzero"`
	// Nations are the nations involved, sorted.
	Nations []game.NationID `json:",omitempty"`
	// Visibility says who may see the event.
	Visibility Visibility
}

// Visibility is who may see an event: everyone (Public), or the nations
// listed (sorted). The referee sees everything; an event that is neither
// public nor addressed to any nation is for the referee alone.
type Visibility struct {
	Public bool            `json:",omitempty"`
	To     []game.NationID `json:",omitempty"`
}

// Head returns the header itself.
func (h *Header) Head() *Header { return h }

// VisibleTo reports whether nation n may see the event.
func (h *Header) VisibleTo(n game.NationID) bool {
	if n == Referee || h.Visibility.Public {
		return true
	}
	_, ok := slices.BinarySearch(h.Visibility.To, n)
	return ok
}

// EventsFor returns the events a nation may see, in order, each as the nation
// may see it: an event shared between nations comes without the other
// nations' own numbers (fog.go). Reports for a nation must be built from
// EventsFor, never from the events filtered by VisibleTo alone. EventsFor
// with Referee returns every event whole.
func EventsFor(events []Event, n game.NationID) []Event {
	var out []Event
	for _, e := range events {
		if x, ok := EventFor(e, n); ok {
			out = append(out, x)
		}
	}
	return out
}

// eventKinds is the registry of event kinds for UnmarshalEvents: one
// constructor per kind. It is only looked up, never iterated.
var eventKinds = map[string]func() Event{}

func registerEvent(f func() Event) {
	eventKinds[f().Kind()] = f
}

// RegisterEvent adds an event kind of another campaign's engine (package
// trossian registers its own) to the registry, so that UnmarshalEvents,
// the daemon's event log and the reports decode it like the SYW kinds. It
// is called from an init function; a kind already registered — an SYW kind
// or another campaign's of the same name — panics at start-up, so that two
// campaigns can never decode each other's events by mistake.
func RegisterEvent(f func() Event) {
	if _, dup := eventKinds[f().Kind()]; dup {
		panic("engine.RegisterEvent: event kind " + f().Kind() + " is registered twice")
	}
	registerEvent(f)
}

// EventKinds lists the registered event kinds, sorted.
func EventKinds() []string {
	out := make([]string, 0, len(eventKinds))
	for k := range eventKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// MarshalEvent encodes one event as a JSON envelope: an object whose first
// member is "kind", followed by the event's fields.
func MarshalEvent(e Event) ([]byte, error) {
	body, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", e.Kind(), err)
	}
	return envelope(e.Kind(), body), nil
}

// envelope prefixes a JSON object's members with "kind": the encoding of
// events and orders.
func envelope(kind string, body []byte) []byte {
	k, _ := json.Marshal(kind)
	var b bytes.Buffer
	b.WriteString(`{"kind":`)
	b.Write(k)
	if len(body) > 2 {
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes()
}

// envelopeKind reads the kind of an envelope as envelope wrote it — `{"kind":"`,
// a name of letters and digits, `"`, and no other "kind" member in the object — without
// decoding the whole object (a stored year's events are decoded for every
// report). ok is false for any other shape, which the caller then decodes in
// full.
func envelopeKind(data []byte) (kind string, ok bool) {
	rest, found := bytes.CutPrefix(data, []byte(`{"kind":"`))
	if !found || bytes.Count(data, []byte(`"kind"`)) != 1 {
		return "", false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return "", false
	}
	for _, c := range rest[:end] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return "", false // an escape or a byte JSON would read otherwise
		}
	}
	return string(rest[:end]), true
}

// MarshalEvents encodes events as a JSON array of envelopes. The output is
// deterministic: fields in declaration order, lists as the engine sorted them.
func MarshalEvents(events []Event) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range events {
		if i > 0 {
			b.WriteByte(',')
		}
		one, err := MarshalEvent(e)
		if err != nil {
			return nil, err
		}
		b.Write(one)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalEvent decodes one envelope written by MarshalEvent.
func UnmarshalEvent(data []byte) (Event, error) {
	var k struct {
		Kind string `json:"kind"`
	}
	if kind, ok := envelopeKind(data); ok {
		k.Kind = kind
	} else if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("event envelope: %w", err)
	}
	mk, ok := eventKinds[k.Kind]
	if !ok {
		return nil, fmt.Errorf("event kind %q: expected one of %v", k.Kind, EventKinds())
	}
	e := mk()
	if err := json.Unmarshal(data, e); err != nil {
		return nil, fmt.Errorf("event %s: %w", k.Kind, err)
	}
	return e, nil
}

// UnmarshalEvents decodes a JSON array written by MarshalEvents.
func UnmarshalEvents(data []byte) ([]Event, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	out := make([]Event, 0, len(raw))
	for i, r := range raw {
		e, err := UnmarshalEvent(r)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// sortedNations returns a sorted, de-duplicated copy without Neutral.
func sortedNations(ns ...game.NationID) []game.NationID {
	out := make([]game.NationID, 0, len(ns))
	for _, n := range ns {
		if n != game.Neutral {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Visibility helpers.
func public() Visibility { return Visibility{Public: true} }

func to(ns ...game.NationID) Visibility { return Visibility{To: sortedNations(ns...)} }

func refereeOnly() Visibility { return Visibility{} }

// EventStrings calls f with every non-empty string value an event carries
// (force and leader IDs, names, cities, reasons), as its JSON would hold
// them, without encoding it: the reports learn from it which forces a
// nation was told of. Hexes and other values that print as text are not
// strings here.
func EventStrings(e Event, f func(string)) {
	eventStrings(reflect.ValueOf(e), f)
}

func eventStrings(v reflect.Value, f func(string)) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); s != "" {
			f(s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			eventStrings(v.Elem(), f)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				eventStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			eventStrings(v.Index(i), f)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() { // every value is visited: the order does not matter
			eventStrings(it.Value(), f)
		}
	}
}
