// Package scenario loads a campaign's starting position — the map and each
// nation's treasury, leaders, armies, fleets and depots — and turns it into
// the engine's first State.
//
// A scenario is a directory holding map.txt (the hexmap text format) and
// scenario.yaml (docs/scenario.md lists every key). Load reads both strictly:
// an unknown key, a misspelt troop type or a force standing in the sea is an
// error naming the file and line, and every such error is reported at once,
// not the first alone. Load checks what can be checked without a rule
// edition; InitialState, given the edition, also checks the map's tax bases
// against the rules and that every troop type is on the edition's cost chart.
//
// The starting position follows the rules: every home city is controlled by
// and loyal to its nation, the neutral provinces are unheld, each nation's
// unspent crowns lie in its capitol, force IDs are the nation's letter and a
// number (E1, E2 …) and the nation's next new force continues the count.
package scenario

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
)

// FileName is the scenario file inside a scenario directory.
const FileName = "scenario.yaml"

// DefaultMapFile is the map file used when scenario.yaml names none.
const DefaultMapFile = "map.txt"

// Scenario is a loaded, checked starting position.
type Scenario struct {
	// Dir is the scenario's directory; File and MapFile the paths read.
	Dir, File, MapFile string
	// Name is the scenario's title ("The Continent, 1752").
	Name     string
	Map      *hexmap.Map
	Calendar game.Calendar
	// Nations are the starting positions, one per nation of the map, in the
	// map's nation order.
	Nations []Nation
}

// Nation is one nation's starting position.
type Nation struct {
	ID game.NationID
	// Treasury is the crowns lying in the capitol.
	Treasury int
	// Depots are the cities holding the nation's depots, in file order.
	Depots []string
	// Forces are the nation's armies, garrisons and fleets, normalised, in
	// file order.
	Forces []game.Force
}

// Load reads and checks the scenario in dir. On failure the error lists every
// mistake found: hexmap.SyntaxErrors for a map that does not parse, Errors
// otherwise.
func Load(dir string) (*Scenario, error) {
	return load(dir, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }, filepath.Join)
}

// LoadFS reads and checks the scenario at the root of fsys, as Load does a
// folder (the scenario built into pbem: package scenarios). dir names it in
// error messages and becomes the Scenario's Dir.
func LoadFS(fsys fs.FS, dir string) (*Scenario, error) {
	read := func(name string) ([]byte, error) {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("%s (built into pbem): %w", path.Join(dir, name), err)
		}
		return data, nil
	}
	return load(dir, read, path.Join)
}

// load is Load with the file system abstracted: read reads a file by its
// name inside the scenario, join(dir, name) names it in messages.
func load(dir string, read func(string) ([]byte, error), join func(...string) string) (*Scenario, error) {
	file := join(dir, FileName)
	data, err := read(FileName)
	if err != nil {
		return nil, err
	}
	spec, root, err := decodeFile(data, file)
	if err != nil {
		return nil, err
	}
	mapName := spec.Map
	if mapName == "" {
		mapName = DefaultMapFile
	}
	mapFile := join(dir, mapName)
	mapData, err := read(mapName)
	if err != nil {
		return nil, err
	}
	m, err := hexmap.Parse(bytes.NewReader(mapData), mapFile)
	if err != nil {
		return nil, err
	}
	s := &Scenario{Dir: dir, File: file, MapFile: mapFile, Name: spec.Name, Map: m,
		Calendar: game.Calendar{StartYear: spec.Calendar.StartYear, FirstMonth: spec.Calendar.FirstMonth}}
	l := &loader{s: s, file: file, root: root, leaders: map[string]int{}, forces: map[game.ForceID]int{}}
	for _, p := range m.Validate(hexmap.ValidateOptions{}) {
		l.errs = append(l.errs, &Error{File: mapFile, Line: p.Line, Msg: p.String()})
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	l.resolve(spec)
	if len(l.errs) > 0 {
		slices.SortStableFunc(l.errs, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
		return nil, l.errs
	}
	return s, nil
}

// loader turns the file's specs into game values, collecting mistakes.
type loader struct {
	s       *Scenario
	file    string
	root    *yaml.Node
	errs    Errors
	leaders map[string]int // leader ID → line first seen
	forces  map[game.ForceID]int
}

func (l *loader) errorf(line int, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: l.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) resolve(spec *fileSpec) {
	if spec.Name == "" {
		l.errorf(lineOf(l.root), "the scenario has no name: expected name: \"…\"")
	}
	if spec.Calendar.StartYear < 1 {
		l.errorf(lineOf(l.root, "calendar", "start_year"), "read start_year %d, expected the first game-year, such as 1752", spec.Calendar.StartYear)
	}
	if spec.Calendar.FirstMonth < 1 || spec.Calendar.FirstMonth > 12 {
		l.errorf(lineOf(l.root, "calendar", "first_month"), "read first_month %d, expected the month of the first turn, 1 to 12 (4 = April)", spec.Calendar.FirstMonth)
	}
	seen := map[game.NationID]int{}
	byID := map[game.NationID]Nation{}
	for i, ns := range spec.Nations {
		line := lineOf(l.root, "nations", i, "id")
		id := game.NationID(ns.ID)
		n, ok := l.s.Map.Nation(id)
		if !ok {
			l.errorf(line, "read nation %q, expected one of the map's nations: %s", ns.ID, l.nationIDs())
			continue
		}
		if first, dup := seen[id]; dup {
			l.errorf(line, "nation %s is set up twice (first at line %d), expected once", id, first)
			continue
		}
		seen[id] = line
		byID[id] = l.nation(n, ns, i)
	}
	for _, n := range l.s.Map.Nations {
		nat, ok := byID[n.ID]
		if !ok {
			l.errorf(lineOf(l.root, "nations"), "nation %s has no starting position, expected an entry with id: %s", n.ID, n.ID)
			continue
		}
		l.s.Nations = append(l.s.Nations, nat)
	}
}

func (l *loader) nationIDs() string {
	var ids []string
	for _, n := range l.s.Map.Nations {
		ids = append(ids, string(n.ID))
	}
	return strings.Join(ids, ", ")
}

func (l *loader) nation(n *game.Nation, ns nationSpec, i int) Nation {
	out := Nation{ID: n.ID, Treasury: ns.Treasury}
	if ns.Treasury < 0 {
		l.errorf(lineOf(l.root, "nations", i, "treasury"), "read treasury %d, expected crowns, 0 or more", ns.Treasury)
	}
	for j, name := range ns.Depots {
		line := lineOf(l.root, "nations", i, "depots", j)
		c, ok := l.s.Map.City(name)
		switch {
		case !ok:
			l.errorf(line, "depot in %q: no such city on the map", name)
		case !l.isHome(n.ID, c.Hex):
			l.errorf(line, "depot in %s: expected one of %s's own cities (depots start in cities the nation controls)", c.Name, n.ID)
		case slices.Contains(out.Depots, c.Name):
			l.errorf(line, "a second depot in %s: expected one per city", c.Name)
		default:
			out.Depots = append(out.Depots, c.Name)
		}
	}
	for j, fs := range ns.Forces {
		if f, ok := l.force(n, fs, i, j); ok {
			out.Forces = append(out.Forces, f)
		}
	}
	return out
}

// isHome reports a hex of one of the nation's home provinces.
func (l *loader) isHome(n game.NationID, h game.Hex) bool {
	p, ok := l.s.Map.ProvinceOf(h)
	return ok && p.Owner == n
}

var forceIDPattern = regexp.MustCompile(`^([A-Z]+)([1-9][0-9]*)$`)

func (l *loader) force(n *game.Nation, fs forceSpec, i, j int) (game.Force, bool) {
	at := func(key ...any) int { return lineOf(l.root, append([]any{"nations", i, "forces", j}, key...)...) }
	ok := true
	f := game.Force{ID: game.ForceID(fs.ID), Nation: n.ID, Garrison: fs.Garrison}
	if m := forceIDPattern.FindStringSubmatch(fs.ID); m == nil || m[1] != n.Letter {
		l.errorf(at("id"), "read force ID %q, expected %s's letter and a number, such as %s1", fs.ID, n.ID, n.Letter)
		ok = false
	} else if first, dup := l.forces[f.ID]; dup {
		l.errorf(at("id"), "force %s is set up twice (first at line %d)", f.ID, first)
		ok = false
	} else {
		l.forces[f.ID] = at("id")
	}
	if err := f.Stance.UnmarshalText([]byte(fs.Stance)); err != nil {
		l.errorf(at("stance"), "%v", err)
	}
	for k, t := range fs.Troops {
		tr, err := parseTroops(t)
		if err != nil {
			l.errorf(at("troops", k), "%v", err)
			continue
		}
		if tr.Arm == game.IrregularLight {
			switch {
			case !n.Traits.IrregularLight:
				l.errorf(at("troops", k), "%q: %s may not raise irregular light infantry (Grenzlers are Unterreich's)", t, n.ID)
			case tr.Grade != game.GradeD:
				l.errorf(at("troops", k), "%q: irregular light infantry are Grade D only", t)
			}
		}
		f.Troops = append(f.Troops, tr)
	}
	for k, g := range fs.Guns {
		gs, err := parseGuns(g)
		if err != nil {
			l.errorf(at("guns", k), "%v", err)
			continue
		}
		f.Guns = append(f.Guns, gs)
	}
	if fs.Ships.Warships < 0 || fs.Ships.Transports < 0 {
		l.errorf(at("ships"), "read a negative number of ships, expected 0 or more")
	}
	f.Ships = game.Ships{Warships: max(fs.Ships.Warships, 0), Transports: max(fs.Ships.Transports, 0)}
	for k, ls := range fs.Generals {
		f.Leaders = append(f.Leaders, l.leader(ls, game.General, at("generals", k)))
	}
	for k, ls := range fs.Admirals {
		f.Leaders = append(f.Leaders, l.leader(ls, game.Admiral, at("admirals", k)))
	}
	place, placed := l.place(n, fs, f.IsFleet(), at("at"))
	f.At = place
	l.checkForce(&f, fs, placed, at)
	f.Normalize()
	return f, ok
}

func (l *loader) leader(ls leaderSpec, role game.LeaderRole, line int) game.Leader {
	ld := game.Leader{ID: ls.ID, Name: ls.Name, Role: role, Experience: ls.Experience}
	switch {
	case ls.ID == "" || strings.ContainsAny(ls.ID, " \t"):
		l.errorf(line, "read %s ID %q, expected one word (it is typed in orders)", role, ls.ID)
	default:
		if first, dup := l.leaders[strings.ToLower(ls.ID)]; dup {
			l.errorf(line, "%s ID %s is already used (line %d): expected each leader's ID once in the game", role, ls.ID, first)
		}
		l.leaders[strings.ToLower(ls.ID)] = line
	}
	if ls.Name == "" {
		l.errorf(line, "%s %s has no name: expected name: \"…\" as reports print it", role, ls.ID)
	}
	if ls.Experience < 0 {
		l.errorf(line, "%s %s has experience %d, expected 0 or more", role, ls.ID, ls.Experience)
	}
	return ld
}

// place resolves a force's at: a city name, a hex ("0812") or a sea area ID,
// and checks it suits the force: land forces on their own land, fleets in
// their own ports or at sea.
func (l *loader) place(n *game.Nation, fs forceSpec, fleet bool, line int) (game.Place, bool) {
	m := l.s.Map
	var p game.Place
	cityName := ""
	switch c, isCity := m.City(fs.At); {
	case fs.At == "":
		l.errorf(line, "force %s has no at:, expected a city, a hex or a sea area", fs.ID)
		return p, false
	case isCity:
		p, cityName = game.AtHex(c.Hex), c.Name
	default:
		if _, isSea := m.Sea(game.SeaID(fs.At)); isSea {
			p = game.AtSea(game.SeaID(fs.At))
			break
		}
		h, err := game.ParseHex(fs.At)
		if err != nil || !m.InBounds(h) {
			l.errorf(line, "force %s at %q: expected a city of the map, a hex on it (0812) or a sea area ID", fs.ID, fs.At)
			return p, false
		}
		p = game.AtHex(h)
		if c, ok := m.CityAt(h); ok {
			cityName = c.Name
		}
	}
	where := fs.At
	if fleet {
		switch {
		case p.IsSea():
		case cityName == "":
			l.errorf(line, "fleet %s at %s: expected a port or a sea area", fs.ID, where)
			return p, false
		default:
			c, _ := m.City(cityName)
			if !c.Port {
				l.errorf(line, "fleet %s in %s: %s is not a port, expected a port or a sea area", fs.ID, c.Name, c.Name)
				return p, false
			}
			if !l.isHome(n.ID, c.Hex) {
				l.errorf(line, "fleet %s in %s: expected one of %s's own ports", fs.ID, c.Name, n.ID)
				return p, false
			}
		}
		return p, true
	}
	switch t := m.TerrainAt(p.Hex); {
	case p.IsSea() || t == game.Sea:
		l.errorf(line, "land force %s at %s: expected a land hex (only fleets start at sea)", fs.ID, where)
		return p, false
	case t == game.Mountain:
		l.errorf(line, "land force %s at %s: a mountain hex, which troops may not enter", fs.ID, p.Hex)
		return p, false
	case !l.isHome(n.ID, p.Hex):
		l.errorf(line, "land force %s at %s: expected a hex of %s's home provinces %s", fs.ID, m.HexLabel(p.Hex), n.ID, strings.Join(n.Provinces, ","))
		return p, false
	}
	return p, true
}

// checkForce checks a force's make-up.
func (l *loader) checkForce(f *game.Force, fs forceSpec, placed bool, at func(...any) int) {
	fleet := f.IsFleet()
	if fleet {
		if len(f.Troops) > 0 || len(f.Guns) > 0 || len(fs.Generals) > 0 {
			l.errorf(at("ships"), "fleet %s carries troops, guns or generals: expected ships and admirals only (armies embark during the game)", f.ID)
		}
		if fs.Garrison {
			l.errorf(at("garrison"), "fleet %s is marked garrison: only land forces garrison a city", f.ID)
		}
		return
	}
	if len(fs.Admirals) > 0 {
		l.errorf(at("admirals"), "land force %s has admirals: expected them with a fleet", f.ID)
	}
	if len(f.Troops) == 0 && len(f.Leaders) == 0 {
		l.errorf(at("id"), "force %s is empty: expected troops, guns, generals or ships", f.ID)
		return
	}
	gunners := f.CountArms(func(a game.Arm) bool { return a == game.Gunners })
	if need := 4 * f.GunCount(); gunners < need {
		l.errorf(at("guns"), "force %s has %s and %s: expected 4 gunners per gun (%d)", f.ID, english.Count(f.GunCount(), "gun"), english.Count(gunners, "gunner"), need)
	}
	_, inCity := l.s.Map.CityAt(f.At.Hex)
	if fs.Garrison && placed && !inCity {
		l.errorf(at("garrison"), "force %s is marked garrison but stands at %s, which has no city", f.ID, f.At.Hex)
	}
	if !f.HasRole(game.General) && placed {
		switch {
		case !inCity:
			l.errorf(at("id"), "force %s has no general and is not in a city: it would desert (give it a general or put it in a city)", f.ID)
		case f.FightingFigures() < 10:
			l.errorf(at("troops"), "force %s has no general and %d infantry and cavalry: expected at least 10, or it deserts", f.ID, f.FightingFigures())
		}
	}
}

// parseTroops reads "72 B infantry": a count, a grade and an arm, as order
// sheets write them.
func parseTroops(s string) (game.Troops, error) {
	parts := strings.Fields(s)
	if len(parts) != 3 {
		return game.Troops{}, fmt.Errorf("read troops %q, expected COUNT GRADE ARM such as \"72 B infantry\"", s)
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 1 {
		return game.Troops{}, fmt.Errorf("read troops %q: expected a count of 1 or more first", s)
	}
	g, err := game.ParseGrade(parts[1])
	if err != nil {
		return game.Troops{}, fmt.Errorf("read troops %q: %v", s, err)
	}
	a, err := game.ParseArm(parts[2])
	if err != nil {
		return game.Troops{}, fmt.Errorf("read troops %q: %v", s, err)
	}
	return game.Troops{Arm: a, Grade: g, Count: n}, nil
}

// parseGuns reads "4 field-gun".
func parseGuns(s string) (game.Guns, error) {
	parts := strings.Fields(s)
	if len(parts) != 2 {
		return game.Guns{}, fmt.Errorf("read guns %q, expected COUNT KIND such as \"4 field-gun\"", s)
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 1 {
		return game.Guns{}, fmt.Errorf("read guns %q: expected a count of 1 or more first", s)
	}
	k, err := game.ParseGunKind(parts[1])
	if err != nil {
		return game.Guns{}, fmt.Errorf("read guns %q: %v", s, err)
	}
	return game.Guns{Kind: k, Count: n}, nil
}
