package trossian

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
)

// UnitType is a kind of stand on the tabletop: "The tabletop armies have
// been assembled using army packs available from Irregular Miniatures".
// The buyable types are 004's troop costs ("4AP: HQ … 3AP: Foot
// Artillery"); militia appear in the post-battle modifiers and in a
// kingdom's census but have no price.
type UnitType string

// The unit types, in the order stands are listed.
const (
	HQ            UnitType = "hq"
	LightInfantry UnitType = "light-infantry"
	LineInfantry  UnitType = "line-infantry"
	HeavyInfantry UnitType = "heavy-infantry"
	Militia       UnitType = "militia"
	LightCavalry  UnitType = "light-cavalry"
	HeavyCavalry  UnitType = "heavy-cavalry"
	FootArtillery UnitType = "foot-artillery"
)

// UnitTypes lists every unit type in listing order.
var UnitTypes = []UnitType{HQ, LightInfantry, LineInfantry, HeavyInfantry, Militia, LightCavalry, HeavyCavalry, FootArtillery}

// unitSynonyms are the other words a sheet or scenario may use for a type.
var unitSynonyms = map[string]UnitType{
	"hqs": HQ, "headquarters": HQ, "general": HQ,
	"light": LightInfantry, "lightinfantry": LightInfantry, "light-inf": LightInfantry,
	"line": LineInfantry, "infantry": LineInfantry, "line-inf": LineInfantry,
	"heavy": HeavyInfantry, "grenadiers": HeavyInfantry, "elite": HeavyInfantry, "heavy-inf": HeavyInfantry,
	"light-cav": LightCavalry, "heavy-cav": HeavyCavalry, "cavalry": LightCavalry,
	"artillery": FootArtillery, "guns": FootArtillery, "foot-art": FootArtillery,
}

// ParseUnitType reads a unit type by its name or a synonym, any case,
// singular or plural ("line-infantry", "Grenadiers", "HQ").
func ParseUnitType(s string) (UnitType, bool) {
	w := strings.ToLower(s)
	for _, u := range UnitTypes {
		if w == string(u) || w == string(u)+"s" {
			return u, true
		}
	}
	if u, ok := unitSynonyms[w]; ok {
		return u, true
	}
	if u, ok := unitSynonyms[strings.TrimSuffix(w, "s")]; ok {
		return u, true
	}
	return "", false
}

// Mounted reports the unit types that "move two provinces per phase":
// cavalry, and the HQ (the general and his mounted staff).
func (u UnitType) Mounted() bool { return u == LightCavalry || u == HeavyCavalry || u == HQ }

// order is the type's place in listing order.
func (u UnitType) order() int {
	if i := slices.Index(UnitTypes, u); i >= 0 {
		return i
	}
	return len(UnitTypes)
}

// Stand is a number of stands of one type, Guard or not ("Guard and HQ
// units get a -1 to this roll").
type Stand struct {
	Type  UnitType
	Guard bool `json:",omitempty"`
	Count int
}

// Label names the stand's type: "guard heavy-infantry".
func (s Stand) Label() string {
	if s.Guard {
		return "guard " + string(s.Type)
	}
	return string(s.Type)
}

// Stands is a force's stands by type, normalised: listing order, Guard
// after line, no empty entry, one entry per type and guard.
type Stands []Stand

// Normalize returns the stands in canonical form.
func (s Stands) Normalize() Stands {
	out := Stands{}
	for _, x := range s {
		if x.Count <= 0 {
			continue
		}
		i := slices.IndexFunc(out, func(y Stand) bool { return y.Type == x.Type && y.Guard == x.Guard })
		if i >= 0 {
			out[i].Count += x.Count
			continue
		}
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b Stand) int {
		if c := a.Type.order() - b.Type.order(); c != 0 {
			return c
		}
		switch {
		case a.Guard == b.Guard:
			return 0
		case b.Guard:
			return -1
		}
		return 1
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// Count returns the stands of a type, Guard or not.
func (s Stands) Count(u UnitType) int {
	n := 0
	for _, x := range s {
		if x.Type == u {
			n += x.Count
		}
	}
	return n
}

// Of returns the stands of a type and guard.
func (s Stands) Of(u UnitType, guard bool) int {
	for _, x := range s {
		if x.Type == u && x.Guard == guard {
			return x.Count
		}
	}
	return 0
}

// Total returns every stand.
func (s Stands) Total() int {
	n := 0
	for _, x := range s {
		n += x.Count
	}
	return n
}

// Plus returns s and o together.
func (s Stands) Plus(o Stands) Stands { return append(slices.Clone(s), o...).Normalize() }

// Minus returns s without o, and false (and s unchanged) if s does not
// hold all of o.
func (s Stands) Minus(o Stands) (Stands, bool) {
	out := slices.Clone(s)
	for _, x := range o.Normalize() {
		i := slices.IndexFunc(out, func(y Stand) bool { return y.Type == x.Type && y.Guard == x.Guard })
		if i < 0 || out[i].Count < x.Count {
			return s, false
		}
		out[i].Count -= x.Count
	}
	return out.Normalize(), true
}

// Contains reports whether s holds all of o.
func (s Stands) Contains(o Stands) bool { _, ok := s.Minus(o); return ok }

// String lists the stands as sheets write them: "1 hq, 4 line-infantry,
// 2 guard heavy-infantry" ("none" when empty).
func (s Stands) String() string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.Itoa(x.Count) + " " + x.Label()
	}
	return strings.Join(parts, ", ")
}

// ParseStands reads "1 hq, 4 line-infantry, 2 guard heavy-infantry" (the
// form String writes, and scenarios and rules cases use).
func ParseStands(s string) (Stands, error) {
	var out Stands
	for _, part := range strings.Split(s, ",") {
		w := strings.Fields(part)
		if len(w) == 0 {
			continue
		}
		if len(w) < 2 || len(w) > 3 {
			return nil, fmt.Errorf("%q: expected COUNT [guard] TYPE, e.g. 4 line-infantry", strings.TrimSpace(part))
		}
		n, err := strconv.Atoi(w[0])
		if err != nil || n < 1 || n > 999 {
			return nil, fmt.Errorf("%q: expected a count from 1 to 999 first", strings.TrimSpace(part))
		}
		guard := false
		if len(w) == 3 {
			if !strings.EqualFold(w[1], "guard") {
				return nil, fmt.Errorf("%q: expected guard or a unit type after the count", strings.TrimSpace(part))
			}
			guard = true
		}
		u, ok := ParseUnitType(w[len(w)-1])
		if !ok {
			return nil, fmt.Errorf("%q: expected a unit type (%s)", w[len(w)-1], unitTypeList())
		}
		out = append(out, Stand{Type: u, Guard: guard, Count: n})
	}
	return out.Normalize(), nil
}

func unitTypeList() string {
	s := make([]string, len(UnitTypes))
	for i, u := range UnitTypes {
		s[i] = string(u)
	}
	return strings.Join(s, ", ")
}

// The province kinds, as the area map has them.
const (
	Plain = areamap.Plain
	Town  = areamap.Town
	Port  = areamap.Port
)
