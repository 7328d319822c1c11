package parser

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// Vocabulary is the names a sheet may use besides keywords: the map's
// cities, sea areas and nations, and the leaders in the game. The parser uses
// it to read multiword city names without quotes, to tell a sea area from a
// port, and to suggest the nearest name for a misspelling; the formatter uses
// it to print ports by name and leaders with their role. A nil *Vocabulary is
// valid: names are then single words or quoted strings, taken as written.
type Vocabulary struct {
	cities    []string // display names, sorted
	cityByKey map[string]*hexmap.City
	cityAt    map[game.Hex]string
	cityWords int // the most words in a city name
	seas      []game.SeaID
	seaByKey  map[string]game.SeaID
	seaNamed  map[string]game.SeaID // by nameKey of the name the map prints
	seaWords  int                   // the most words in a sea area's name
	seaTitle  map[game.SeaID]string // the name the map prints
	nations   []game.Nation
	leaders   []game.Leader // every leader in the game, sorted by ID
	leaderKey map[string]game.Leader
	leadWords int
	// calendar names the turns (TURN May 1752); nil without a state.
	calendar *game.Calendar
	// turnNames reads another campaign's turn names (FrameOptions.TurnByName).
	turnNames func(string) (int, error)
}

// NewVocabulary collects the names of a map and a game state; either may be
// nil.
func NewVocabulary(m *hexmap.Map, s *engine.State) *Vocabulary {
	v := &Vocabulary{
		cityByKey: map[string]*hexmap.City{},
		cityAt:    map[game.Hex]string{},
		seaByKey:  map[string]game.SeaID{},
		leaderKey: map[string]game.Leader{},
	}
	if s != nil {
		cal := s.Calendar
		v.calendar = &cal
	}
	if m != nil {
		for i := range m.Cities {
			c := &m.Cities[i]
			v.cities = append(v.cities, c.Name)
			key := nameKey(c.Name)
			v.cityByKey[key] = c
			v.cityAt[c.Hex] = c.Name
			v.cityWords = max(v.cityWords, len(strings.Fields(c.Name)), len(strings.Fields(key)))
		}
		for _, s := range m.Seas {
			v.seas = append(v.seas, s.ID)
			v.seaByKey[fold(string(s.ID))] = s.ID
			v.addSeaName(s.Name, s.ID)
		}
		v.nations = slices.Clone(m.Nations)
	}
	if s != nil {
		for _, f := range s.Forces {
			for _, l := range f.Leaders {
				key := nameKey(l.ID)
				if _, dup := v.leaderKey[key]; !dup {
					v.leaders = append(v.leaders, l)
					v.leaderKey[key] = l
					v.leadWords = max(v.leadWords, len(strings.Fields(l.ID)), len(strings.Fields(key)))
				}
			}
		}
		slices.SortFunc(v.leaders, func(a, b game.Leader) int { return strings.Compare(a.ID, b.ID) })
	}
	slices.Sort(v.cities)
	return v
}

// NewVocabularyFromView collects the names of a map and of what one nation
// sees: its own leaders, and the foreign leaders its scouting named exactly.
// The order checker uses it, so that a foreign leader's name reads like a
// made-up one (fog of war). view may be nil.
func NewVocabularyFromView(m *hexmap.Map, view *engine.NationView) *Vocabulary {
	v := NewVocabulary(m, nil)
	if view == nil {
		return v
	}
	s := &engine.State{}
	s.Forces = append(s.Forces, view.Own...)
	for _, f := range view.Foreign {
		if len(f.Leaders) > 0 {
			s.Forces = append(s.Forces, game.Force{ID: f.ID, Nation: f.Nation, Leaders: f.Leaders})
		}
	}
	withLeaders := NewVocabulary(nil, s)
	v.leaders, v.leaderKey, v.leadWords = withLeaders.leaders, withLeaders.leaderKey, withLeaders.leadWords
	cal := view.Calendar
	v.calendar = &cal
	return v
}

// City returns a city of the map by name, ignoring case, accents and the
// difference between a hyphen and a space: "königsfeld", "Port Aurele" and
// "Saint-Nazelle" all find their city.
func (v *Vocabulary) City(name string) (*hexmap.City, bool) {
	if v == nil {
		return nil, false
	}
	c, ok := v.cityByKey[nameKey(name)]
	return c, ok
}

// CityAt returns the name of the city in a hex.
func (v *Vocabulary) CityAt(h game.Hex) (string, bool) {
	if v == nil {
		return "", false
	}
	n, ok := v.cityAt[h]
	return n, ok
}

// Sea returns a sea area by ID or by the name the map prints ("Sea of
// Calpe"), ignoring case and accents.
func (v *Vocabulary) Sea(id string) (game.SeaID, bool) {
	if v == nil {
		return "", false
	}
	if s, ok := v.seaByKey[fold(id)]; ok {
		return s, true
	}
	s, ok := v.seaNamed[nameKey(id)]
	return s, ok
}

// Leader returns a leader by ID, ignoring case and accents (as City).
func (v *Vocabulary) Leader(id string) (game.Leader, bool) {
	if v == nil {
		return game.Leader{}, false
	}
	l, ok := v.leaderKey[nameKey(id)]
	return l, ok
}

// Nation resolves a nation written as its ID or its name, ignoring case and
// accents, or by a unique prefix of at least three letters. Without a
// vocabulary any word is taken as the ID.
func (v *Vocabulary) Nation(word string) (game.NationID, []string) {
	if v == nil || len(v.nations) == 0 {
		return game.NationID(fold(word)), nil
	}
	key := nameKey(word)
	// match on the keys (lower case, accents off), then back to the
	// spelling the map gives.
	lookup := func(spell []string) (string, []string) {
		keys := make([]string, len(spell))
		for i, s := range spell {
			keys[i] = nameKey(s)
		}
		k, amb := match(key, keys)
		back := func(k string) string { return spell[slices.Index(keys, k)] }
		if k != "" {
			return back(k), nil
		}
		for i := range amb {
			amb[i] = back(amb[i])
		}
		return "", amb
	}
	var opts []string
	for _, n := range v.nations {
		opts = append(opts, string(n.ID))
	}
	if id, amb := lookup(opts); id != "" || len(amb) > 0 {
		return game.NationID(id), amb
	}
	var names []string
	for _, n := range v.nations {
		names = append(names, n.Name)
	}
	if name, amb := lookup(names); name != "" {
		for _, n := range v.nations {
			if n.Name == name {
				return n.ID, nil
			}
		}
	} else if len(amb) > 0 {
		return "", amb
	}
	return "", nil
}

// NationIDs lists the nations' IDs, sorted.
func (v *Vocabulary) NationIDs() []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, n := range v.nations {
		out = append(out, string(n.ID))
	}
	return out
}

// nationName returns the printed name of a nation ("Eisenmark").
func (v *Vocabulary) nationName(id game.NationID) string {
	if v != nil {
		for _, n := range v.nations {
			if n.ID == id {
				return n.Name
			}
		}
	}
	return string(id)
}

func (v *Vocabulary) cityNames() []string {
	if v == nil {
		return nil
	}
	return v.cities
}

func (v *Vocabulary) seaNames() []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v.seas))
	for i, s := range v.seas {
		out[i] = string(s)
	}
	return out
}

// roleOf returns "admiral" for a known admiral, else "general".
func (v *Vocabulary) roleOf(id string) string {
	if l, ok := v.Leader(id); ok && l.Role == game.Admiral {
		return "admiral"
	}
	return "general"
}

// nameKey is the form names are looked up by: lower case, accents dropped
// (a mail client or keyboard may add them, or the map may have them and the
// player's keyboard not), hyphens read as spaces, single spaces.
func nameKey(s string) string {
	if k, ok := asciiNameKey(s); ok {
		return k
	}
	return generalNameKey(s)
}

// generalNameKey is nameKey for any s, rune by rune.
func generalNameKey(s string) string {
	var b strings.Builder
	for _, r := range fold(s) {
		switch {
		case r == '-':
			b.WriteByte(' ')
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		default:
			if a, ok := unaccented[r]; ok {
				b.WriteString(a)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// asciiNameKey is nameKey of an ASCII s, without the general path's
// allocations (the checker makes the keys of every city and leader for
// each sheet): lower case, a hyphen a space, runs of white space one
// space, none at either end. ok is false when s is not ASCII.
func asciiNameKey(s string) (key string, ok bool) {
	canonical := true // s is its own key
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return "", false
		case 'A' <= c && c <= 'Z', c == '-', c != ' ' && asciiSpace(c):
			canonical = false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			canonical = false
		}
	}
	if canonical {
		return s, true
	}
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' || asciiSpace(c):
			space = len(b) > 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = append(b, c)
	}
	return string(b), true
}

// asciiSpace reports whether c is white space to strings.Fields.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// unaccented maps the lower-case accented Latin letters of the European
// languages to the letters a player without them types.
var unaccented = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ı': "i"}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ď", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥ",
		"i": "ìíîïĩīĭį", "j": "ĵ", "k": "ķ", "l": "ĺļľ", "n": "ñńņň", "o": "òóôõöōŏő",
		"r": "ŕŗř", "s": "śŝşš", "t": "ţť", "u": "ùúûüũūŭůűų", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()
