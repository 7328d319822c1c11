package ruleset

import "github.com/syw-pbem/pbem/game"

// SeaMovementTable is the rulebook's Sea Movement section.
type SeaMovementTable struct {
	WarshipMP   int // "Warships have 6 MP per turn."
	TransportMP int // "Transports have 4 MP per turn."
	// DamagedPenalty: "Damaged Ships have … -1 movement point."
	DamagedPenalty int
	WithWind       int // 1 MP from area to area with the wind
	AgainstWind    int // 3 MP against the wind, or either way on a double-headed arrow
	Port           int // 1 MP to enter or leave a port
	GoodHolding    int // 2 MP to enter or leave a good-holding hex
	// CoastalLandingOdds: debarking onto an enemy-held good-holding hex needs
	// this ratio over the defenders' infantry, cavalry and gunners.
	CoastalLandingOdds int
	// WarshipAsInfantry: each warship in the hex counts as this many infantry
	// for the landing ratio.
	WarshipAsInfantry int
}

// FleetMP returns the movement points of a fleet: its slowest ship's.
func (s SeaMovementTable) FleetMP(sh game.Ships) int {
	mp := 0
	set := func(v int) {
		if mp == 0 || v < mp {
			mp = v
		}
	}
	if sh.Warships > 0 {
		set(s.WarshipMP)
	}
	if sh.DamagedWarships > 0 {
		set(s.WarshipMP - s.DamagedPenalty)
	}
	if sh.Transports > 0 {
		set(s.TransportMP)
	}
	if sh.DamagedTransports > 0 {
		set(s.TransportMP - s.DamagedPenalty)
	}
	return mp
}

// TransportCargo is the rulebook's Transports table: each transport carries
// Capacity cargo points; each figure, model or depot takes the room given.
type TransportCargo struct {
	Capacity       int // 50
	InfantryFigure int // 1
	CavalryFigure  int // 3
	GunModel       int // 10
	Depot          int // 50
	// Gunners, generals and admirals take no room.
	Gunner, Leader int
}

// PointsOf returns the cargo points a land force takes aboard.
func (c TransportCargo) PointsOf(f *game.Force) int {
	n := 0
	for _, t := range f.Troops {
		switch {
		case t.Arm.IsCavalry():
			n += t.Count * c.CavalryFigure
		case t.Arm == game.Gunners:
			n += t.Count * c.Gunner
		default:
			n += t.Count * c.InfantryFigure
		}
	}
	n += f.GunCount() * c.GunModel
	n += len(f.Leaders) * c.Leader
	return n
}
