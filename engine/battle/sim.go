package battle

import (
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// Simulation is the default battle model: the SYW tabletop rules (001)
// played without a table. See the package comment and docs/battles.md.
type Simulation struct{}

// Name returns "simulation".
func (Simulation) Name() string { return ruleset.BattleSimulation }

// SimParams are the simulation's numbers that the rulebooks give in inches
// or leave to the players, turned into the simulation's slots and bounds.
// docs/battles.md gives the reason for each value.
type SimParams struct {
	// FiguresPerSP: campaign figures per tabletop strength point (a
	// 12-figure battalion has 6 SP: its six markers before it is gone).
	FiguresPerSP int
	// Flank is how many slots wider than the smaller side's first line the
	// field is: the larger side's overlap on each wing.
	Flank int
	// Lines: a side forms its main units in this many lines; the first
	// holds 1/Lines of them (rounded up), the rest stand behind as the
	// second line and reserve.
	Lines int
	// FrontageInches is a battalion's frontage in line: one slot.
	FrontageInches int
	// TableWidthInches bounds the battle line by the table it is fought
	// on: 001 plays "with the Peter Pig standard table of 5' x 3' (thus
	// rendered 7.5' x 4.5')" in short inches, 90" wide. The line is then no
	// more than TableWidthInches/FrontageInches slots; the rest of each
	// army stands behind as its second line and reserve ("Reserves. May be
	// held at the rear in Field Column ready to be deployed when deemed
	// necessary"), brought up as gaps open. 0: the referee lays a table as
	// wide as the armies' lines (the default: the campaign's battles are
	// the referee's, and 001's table holds no more than four ranks of 15
	// battalions in its depth — docs/battles.md, "The table").
	TableWidthInches int
	// SetupInches: the two sides' positions are this far apart ("about 18"
	// away", V4).
	SetupInches int
	// SecondLineInches: the second line stands this far behind the first.
	SecondLineInches int
	// TableDepthInches: how far behind its position a side's table edge is
	// (a routing unit that covers it has left the table).
	TableDepthInches int
	// CommandInches: a general's command radius ("Command Radius for each
	// General is 12"", doubled for a genius).
	CommandInches int
	// ChiefLossInches: a general lost shakes the units of his command
	// within this distance ("all units in his chain of command within
	// 18"").
	ChiefLossInches int
	// GroundSectors: the field is laid in this many sections of the front
	// (the standard 5' table, a foot each), each rolled on Ground.
	GroundSectors int
	// Ground is, by the hex's terrain, the D6 table of what each section of
	// a defender's position holds.
	Ground map[game.Terrain][]feature
	// GunsPerRoll: 0, a battery fires once a bound whatever its guns (it is
	// one unit, as 001's ART unit is); n, it fires a roll per n guns (a
	// referee who reads a campaign gun model as one of 001's "2 gun bases"
	// sets 2, two rolls for a battery of four: docs/rules-notes.md).
	GunsPerRoll int
}

// DefaultSimParams are the values docs/battles.md explains.
var DefaultSimParams = SimParams{
	FiguresPerSP: 2, Flank: 1, Lines: 2, FrontageInches: 6, SetupInches: 18, SecondLineInches: 6,
	TableDepthInches: 18, CommandInches: 12, ChiefLossInches: 18,
	GroundSectors: 5,
	Ground: map[game.Terrain][]feature{
		game.Clear: {groundOpen, groundOpen, groundOpen, groundSoft, groundObstacle, groundVillage},
		game.Rough: {groundOpen, groundOpen, groundSoft, groundSoft, groundObstacle, groundVillage},
		game.Woods: {groundOpen, groundSoft, groundSoft, groundSoft, groundSoft, groundVillage},
	},
}

// state is where a unit is.
type state uint8

const (
	stFront       state = iota // in the first line, in its slot
	stReserve                  // in the second line or the reserve
	stSkirmish                 // in the skirmish screen ahead of the line
	stBattery                  // a battery deployed along the line
	stRouting                  // routing: out of the fight until rallied
	stOff                      // routed off the table
	stDead                     // destroyed (no strength left)
	stSurrendered              // surrendered
)

// sunit is one unit on the field.
type sunit struct {
	u          *Unit
	side       int
	maxSP, sp  int
	casSP      int // SP lost to fire and melee
	routSP     int // SP lost as rout hits
	killed     int // figures killed so far (casSP in figures)
	st         state
	slot       int
	fwd        int // inches forward of its side's position (negative: behind it)
	shaken     bool
	provisonal bool // shaken by a general's fall or a lost melee: counts only if its next rally fails
	retiring   bool // failed the rally after a provisional shake: counts until its next rally
	routTests  int
	routed     int // inches run while routing
	moved      bool
	advanced   bool
	firedOut   bool // fired on its side's last fire phase (1752 city)
	halfMarked bool
	gunsTaken  bool
	// limbered (a battery): the moves it still needs to about face and
	// deploy again before it fires, after a retire made it limber up
	// (limberedAt: the bound it limbered in, whose move was the retire).
	limbered   int
	limberedAt int
	facedAbout bool // withdrawing from an attack called off, faced to the rear
	sub        string
}

// general is one general of a side.
type general struct {
	c       Commander
	home    int    // the slot he stands behind
	unit    *sunit // the unit he is attached to (nil: unattached)
	keep    bool   // stays attached through the next bound (failed rally)
	wounds  int
	out     bool
	fate    string
	lostAt  int // the bound he was lost in
	isChief bool
}

type simSide struct {
	idx       int
	side      *Side
	units     []*sunit
	front     []*sunit // by slot; nil = empty
	reserve   []*sunit // second line and reserve, in the order they are committed
	skirm     []*sunit
	batt      []*sunit
	gens      []*general
	chief     *general
	counted   int
	broken    bool
	hits      map[hitKey]int
	attack    bool
	calledOff bool
	usedRes   bool
	genius    bool
	// lineFwd: how far the side's front has advanced in each slot (the
	// second line follows it); held: the slots of the side's own first
	// line, which its second line keeps filled.
	lineFwd []int
	held    []bool
	// chiefLost is the fate of the last commander lost, chiefLostAt the
	// bound (sim.seq) he was lost in.
	chiefLost   string
	chiefLostAt int
}

type hitKey struct {
	n game.NationID
	a game.Arm
	g game.Grade
}

type sim struct {
	r       *ruleset.Ruleset
	p       SimParams
	s       *Setup
	d       Dice
	sides   [2]*simSide
	f       *field
	day     int
	turn    int
	bound   int // 1 or 2: the bound of the turn being played
	seq     int // bounds played in the battle
	weather string
	res     *Result
	lastGap int
}

// Fight plays the battle with DefaultSimParams.
func (m Simulation) Fight(r *ruleset.Ruleset, s *Setup, d Dice) *Result {
	return FightSim(r, s, d, DefaultSimParams)
}

// FightSim plays the battle with the given parameters.
func FightSim(r *ruleset.Ruleset, s *Setup, d Dice, p SimParams) *Result {
	b := newSim(r, s, d, p)
	days := max(1, s.Days)
	if !r.LandBattles.MultiDay {
		days = 1
	}
	for b.day = 1; b.day <= days; b.day++ {
		b.res.Days = b.day
		if b.day > 1 {
			b.night()
		}
		if b.fightDay() {
			break
		}
		att := b.attackers()
		b.moment(Moment{What: MNightfall, Side: max(0, att)})
		if !r.LandBattles.MultiDay || att == -1 || b.day == days {
			break
		}
		// V4 Multi-Day Battles: the attacker that failed to break the enemy
		// retires 18" (both 9" when both attacked); a side may retire one
		// hex unpursued (Result.afterDay).
		if !b.res.afterDay(att, b.intact) {
			if w := b.res.withdrawnSide(); w >= 0 {
				b.moment(Moment{What: MWithdraw, Side: w})
				b.finish()
				return b.res
			}
			break
		}
	}
	b.res.undecided(b.attackers())
	b.finish()
	return b.res
}

// newSim weathers the day, deploys both sides on the field and places the
// generals.
func newSim(r *ruleset.Ruleset, s *Setup, d Dice, p SimParams) *sim {
	b := &sim{r: r, p: p, s: s, d: d, res: &Result{Model: ruleset.BattleSimulation, Winner: -1, Turning: -1}}
	b.weather = rollWeather(d, s)
	b.res.Weather = b.weather
	for i := range s.Sides {
		b.sides[i] = b.form(i)
	}
	b.deploy()
	b.placeGenerals()
	return b
}

// attackers returns the side on attack, -2 when both attack, -1 when none.
func (b *sim) attackers() int { return attackingSide(b.sides[0].attack, b.sides[1].attack) }

func rollWeather(d Dice, s *Setup) string {
	switch d.Roll("weather of the day", 6, s.Hex.String()) {
	case 1:
		return "rain"
	case 2:
		return "overcast"
	}
	return "fair"
}

func (b *sim) d6(purpose, sub string) int { return b.d.Roll(purpose, 6, sub) }

// fightDay plays one day's tabletop turns; it reports whether an army broke.
func (b *sim) fightDay() bool {
	first := 0
	switch b.attackers() {
	case 1:
		first = 1
	case -2:
		a0, a1 := b.sides[0].side.Advantage, b.sides[1].side.Advantage
		switch {
		case a1 > a0:
			first = 1
		case a0 == a1:
			first = b.d6("who moves first", b.s.Hex.String()) % 2
		}
	}
	for _, ss := range b.sides {
		ss.calledOff = false
	}
	turns := max(b.r.LandBattles.TableTurns, 1)
	for b.turn = 1; b.turn <= turns; b.turn++ {
		b.res.Turns = b.turn
		for k := range 2 {
			mover := (first + k) % 2
			b.bound = k + 1
			b.seq++
			b.playBound(mover)
			if b.checkBreak(1 - mover) {
				b.res.Bound = b.bound
				return true
			}
		}
	}
	return false
}

// playBound is one bound in 001's sequence: the mover rallies, routs and
// retirements are completed, the mover moves; the other side fires and the
// mover tests its morale; the mover charges and melees; at the end of the
// bound the units about a general who fell are shaken.
func (b *sim) playBound(mover int) {
	ms, fs := b.sides[mover], b.sides[1-mover]
	b.rally(ms)
	b.routs(ms)
	b.move(ms, fs)
	b.fire(fs, ms)
	b.charges(ms, fs)
	b.endOfBound()
}

// night (V4 multi-day): the attacker retires 18", the lines part to
// their positions; the routing and shaken are regrouped overnight ("During
// the night each player must regroup his figures").
func (b *sim) night() {
	for _, ss := range b.sides {
		ss.chiefLost = ""
		for _, u := range ss.units {
			if u.st == stRouting {
				u.st = stReserve
				ss.reserve = append(ss.reserve, u)
			}
			u.shaken, u.provisonal, u.retiring, u.routed, u.routTests = false, false, false, 0, 0
			u.fwd, u.limbered, u.facedAbout = 0, 0, false
		}
		for k := range ss.lineFwd {
			ss.lineFwd[k] = 0
		}
		for _, g := range ss.gens {
			g.unit, g.keep = nil, false
		}
		b.fillFront(ss)
	}
}
