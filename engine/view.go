package engine

import (
	"slices"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// NationView is what one nation may know of the game between two turns: the
// input of its reports and of its order checker. View is the only function
// that makes one, so fog of war is decided in one place.
type NationView struct {
	Nation game.NationID
	Turn   int
	Label  string
	// Calendar names the game's turns (public): "May 1752", "year-end 1752".
	Calendar game.Calendar
	// Own are the nation's forces in full.
	Own []game.Force `json:",omitempty"`
	// Foreign are every other force: where it is (public, "General
	// Intelligence"), its size class, and what scouting revealed this turn.
	Foreign []ForeignForce `json:",omitempty"`
	// Cities are every city's public state; Treasury only for the cities
	// the nation holds (its capitol, a temporary capitol, a captured one:
	// TreasuryHolder).
	Cities []CityView `json:",omitempty"`
	// Depots are the nation's depots and those granted to it.
	Depots []game.Depot `json:",omitempty"`
	// Treaties are the published treaties, and unpublished ones the nation
	// is a party to.
	Treaties []game.Treaty `json:",omitempty"`
	// Nations are the nations in the game and whether they are eliminated.
	Nations []NationSummary `json:",omitempty"`
	// NextForce and TemporaryCapitol are the nation's own: the number of its
	// next new force ID, and the city acting as its treasury while its
	// capitol is lost ("" when none).
	NextForce        int    `json:",omitempty"`
	TemporaryCapitol string `json:",omitempty"`
	// Victory is the game's end, once a nation has won (public).
	Victory *Victory `json:",omitempty"`
}

// NationSummary is a nation's public standing.
type NationSummary struct {
	ID         game.NationID
	Eliminated bool `json:",omitempty"`
	// TaxBase is the full tax value of the cities it controls (TaxBase):
	// public, as every city's controller is.
	TaxBase int `json:",omitempty"`
}

// CityView is a city's public state.
type CityView struct {
	Name       string
	Hex        game.Hex
	Controller game.NationID    `json:",omitempty"`
	Loyalty    game.NationID    `json:",omitempty"`
	Siege      game.SiegeStatus `json:",omitzero"`
	Breaches   int              `json:",omitempty"`
	Treasury   int              `json:",omitempty"`
}

// ApproxCount is a scouting estimate: about Count figures of an arm
// (ruleset.Approximate); 0 is "a few", fewer than the smallest unit the
// estimate counts in (the arm is present: it is listed).
type ApproxCount struct {
	Arm   game.Arm
	Count int
}

// ForeignForce is a foreign force as a nation sees it. At LevelSize (general
// intelligence) only the location and the size class are filled; each
// scouting level adds what it reveals (ruleset.ScoutingLevel):
//
//	LevelArms    Arms present (infantry, light infantry, Grenzers, cavalry by
//	             kind, gunners, guns, warships, transports) and HasGeneral
//	LevelApprox  + Approx counts per arm (rounded), gun models rounded the same
//	             way, ship counts, and the leaders' names
//	LevelExact   + Troops by arm and grade with exhaustion, Guns, Ships,
//	             Leaders with experience, and Unsupplied
//
// Stance and standing orders are never revealed.
type ForeignForce struct {
	ID     game.ForceID
	Nation game.NationID
	At     game.Place
	Aboard game.ForceID `json:",omitempty"`
	// Size is the land troops' class, Ships the fleet's ("Small: 3 or fewer
	// ships, 100 or fewer land troops …"); generals, gunners and guns do not
	// count.
	Size  ruleset.SizeClass `json:",omitempty"`
	Ships ruleset.SizeClass `json:",omitempty"`
	// Level is the scouting level this nation holds on the force.
	Level ruleset.ScoutingLevel `json:",omitempty"`
	// Revealed is what scouting showed of the force's contents, as the
	// scouts saw it (Sighting.Seen); its fields sit in ForeignForce's JSON
	// as if declared here.
	Revealed
}

// Revealed is what a scouting level shows of a force's contents, beyond
// general intelligence (see ForeignForce for which level fills which
// field). It is what the scouts saw at the moment they scouted: the
// Learned of a Scouted event, kept in Sighting.Seen for the View.
type Revealed struct {
	Arms       []string      `json:",omitempty"`
	HasGeneral bool          `json:",omitempty"`
	Approx     []ApproxCount `json:",omitempty"`
	// ApproxGuns is about how many guns (ruleset.Approximate): 0 with
	// "guns" among Arms is "a few".
	ApproxGuns  int           `json:",omitempty"`
	ShipCounts  *game.Ships   `json:",omitempty"`
	LeaderNames []string      `json:",omitempty"`
	Troops      []game.Troops `json:",omitempty"`
	Guns        []game.Guns   `json:",omitempty"`
	Leaders     []game.Leader `json:",omitempty"`
	Unsupplied  bool          `json:",omitempty"`
}

// Clone returns a copy of r that shares no memory with it.
func (r Revealed) Clone() Revealed {
	c := r
	c.Arms = slices.Clone(r.Arms)
	c.Approx = slices.Clone(r.Approx)
	if r.ShipCounts != nil {
		sh := *r.ShipCounts
		c.ShipCounts = &sh
	}
	c.LeaderNames = slices.Clone(r.LeaderNames)
	c.Troops = slices.Clone(r.Troops)
	c.Guns = slices.Clone(r.Guns)
	c.Leaders = slices.Clone(r.Leaders)
	return c
}

// View returns what nation may know of the game in state: its own forces in
// full; every foreign force's place, size class, and what this nation's
// scouting (State.Intel) revealed of it; every city's controller, loyalty and
// siege status; its own treasuries; its depots and those granted to it;
// published treaties.
//
// A foreign force's place and size class are its current ones (general
// intelligence, public at the end of the turn); its contents are what the
// scouts saw when they scouted it (Sighting.Seen), not what the rest of the
// turn — battles, attrition, splits — left of it. A Sighting stored before
// snapshots existed (no Seen) shows the force's current contents at the
// level reached, as pbem did then.
func View(m *hexmap.Map, rules *ruleset.Ruleset, state *State, nation game.NationID) *NationView {
	v := &NationView{Nation: nation, Turn: state.Turn, Label: state.Calendar.Label(state.Turn), Calendar: state.Calendar}
	best := map[game.ForceID]*Sighting{}
	for i := range state.Intel {
		s := &state.Intel[i]
		if s.Nation == nation && (best[s.Force] == nil || s.Level > best[s.Force].Level) {
			best[s.Force] = s
		}
	}
	v.Foreign = make([]ForeignForce, 0, len(state.Forces))
	for i := range state.Forces {
		f := &state.Forces[i]
		if f.Nation == nation {
			v.Own = append(v.Own, f.Clone())
			continue
		}
		s := best[f.ID]
		if s == nil {
			v.Foreign = append(v.Foreign, Reveal(rules, f, ruleset.LevelSize))
			continue
		}
		level := ruleset.ScoutingLevel(s.Level)
		if s.Seen == nil {
			v.Foreign = append(v.Foreign, Reveal(rules, f, level))
			continue
		}
		ff := Reveal(rules, f, ruleset.LevelSize)
		ff.Level = level
		ff.Revealed = s.Seen.Clone()
		v.Foreign = append(v.Foreign, ff)
	}
	v.Cities = make([]CityView, 0, len(state.Cities))
	for _, c := range state.Cities {
		cv := CityView{Name: c.Name, Controller: c.Controller, Loyalty: c.Loyalty, Siege: c.Siege, Breaches: c.Breaches}
		if mc, ok := m.City(c.Name); ok {
			cv.Hex = mc.Hex
			// The crowns lying in a city are its holder's (TreasuryHolder):
			// a nation sees the treasuries it holds, not those it lost.
			if c.Controller == nation && nation != game.Neutral {
				cv.Treasury = c.Treasury
			}
		}
		v.Cities = append(v.Cities, cv)
	}
	for _, d := range state.Depots {
		if d.Nation == nation || slices.Contains(d.GrantedTo, nation) {
			d.GrantedTo = slices.Clone(d.GrantedTo)
			v.Depots = append(v.Depots, d)
		}
	}
	for _, t := range state.Treaties {
		if t.Published > 0 || slices.Contains(t.Parties, nation) {
			t.Parties = slices.Clone(t.Parties)
			t.Attested = slices.Clone(t.Attested)
			t.Penalties = slices.Clone(t.Penalties)
			v.Treaties = append(v.Treaties, t)
		}
	}
	bases := taxBases(m, rules, state)
	v.Nations = make([]NationSummary, 0, len(state.Nations))
	for _, n := range state.Nations {
		v.Nations = append(v.Nations, NationSummary{ID: n.ID, Eliminated: n.Eliminated, TaxBase: bases[n.ID]})
		if n.ID == nation {
			v.NextForce, v.TemporaryCapitol = n.NextForce, n.TemporaryCapitol
		}
	}
	v.Victory = state.Victory
	return v
}

// Reveal returns what a scouting level shows of a force as it stands now
// (LevelSize: only general intelligence). Scouted events carry it, and their
// sightings keep its Revealed part as what the scouts saw; View uses it for
// a foreign force's place and size class, and for the contents of sightings
// stored before snapshots were kept.
func Reveal(rules *ruleset.Ruleset, f *game.Force, level ruleset.ScoutingLevel) ForeignForce {
	ff := ForeignForce{ID: f.ID, Nation: f.Nation, At: f.At, Aboard: f.Aboard, Level: level}
	land := f.FightingFigures()
	if f.IsFleet() {
		ff.Ships = rules.SizeClasses.Ships(f.Ships.Total())
		if land > 0 {
			ff.Size = rules.SizeClasses.Troops(land)
		}
	} else {
		ff.Size = rules.SizeClasses.Troops(land)
	}
	if level < ruleset.LevelArms {
		return ff
	}
	for _, a := range game.Arms {
		if f.CountArms(func(x game.Arm) bool { return x == a }) > 0 {
			ff.Arms = append(ff.Arms, a.String())
		}
	}
	if f.GunCount() > 0 {
		ff.Arms = append(ff.Arms, "guns")
	}
	if f.Ships.AllWarships() > 0 {
		ff.Arms = append(ff.Arms, "warships")
	}
	if f.Ships.AllTransports() > 0 {
		ff.Arms = append(ff.Arms, "transports")
	}
	ff.HasGeneral = f.HasRole(game.General) || f.HasRole(game.Admiral)
	if level < ruleset.LevelApprox {
		return ff
	}
	for _, a := range game.Arms {
		n := f.CountArms(func(x game.Arm) bool { return x == a })
		if n > 0 {
			ff.Approx = append(ff.Approx, ApproxCount{Arm: a, Count: ruleset.Approximate(n)})
		}
	}
	if g := f.GunCount(); g > 0 {
		ff.ApproxGuns = ruleset.Approximate(g)
	}
	if f.Ships.Total() > 0 {
		sh := f.Ships
		ff.ShipCounts = &sh
	}
	for _, l := range f.Leaders {
		ff.LeaderNames = append(ff.LeaderNames, l.Name)
	}
	if level < ruleset.LevelExact {
		return ff
	}
	ff.Troops = slices.Clone(f.Troops)
	ff.Guns = slices.Clone(f.Guns)
	ff.Leaders = slices.Clone(f.Leaders)
	ff.Unsupplied = f.Unsupplied
	return ff
}

// LevelName names a scouting level for people.
func LevelName(l ruleset.ScoutingLevel) string {
	switch l {
	case ruleset.LevelArms:
		return "arms"
	case ruleset.LevelApprox:
		return "approximate"
	case ruleset.LevelExact:
		return "exact"
	}
	return "size"
}
