package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// The checker runs the statements against a shadow of the nation's forces,
// in the order the engine carries them out (engine/pipeline.go): first the
// organisation orders (stances, standing orders, splits, merges, leaders,
// garrisons, depot grants) in sheet order, then marches and voyages, then
// embarking and landing, then everything else (sieges, fieldworks, repairs,
// the year-end orders) in sheet order. So a force split off on line 20 can be
// moved on line 5, as the engine allows. Each statement gets at most one
// error; warnings do not stop it.

type checker struct {
	ctx   CheckContext
	v     *Vocabulary
	m     *hexmap.Map
	rules *ruleset.Ruleset
	// view is all the checker knows of the game: the nation's View (fog of
	// war), never the whole state.
	view *engine.NationView
	// ledgerState is the view as a State for the year-end's reckonings
	// (ledger, checker_yearend.go), made on first use.
	ledgerState *engine.State
	cal         game.Calendar
	r           *Report
	// final is set once a FINAL line has been accepted.
	final bool
	// forecast is set once a FORECAST line has been accepted.
	forecast bool
	nation   game.NationID
	letter   string
	yearEnd  bool

	// forces is the nation's forces as the organisation orders checked so
	// far leave them (clones; the state is never changed): org's, after
	// each organisation order (organise.go).
	forces map[game.ForceID]*game.Force
	// org carries the sheet's organisation orders out by the engine's own
	// rule over the nation's view (engine.Organiser); nil at the year-end,
	// whose sheets hold none.
	org *engine.Organiser
	// gone maps a force merged away (or emptied) to the line of the order.
	gone map[game.ForceID]int
	// lost maps a force an order leaves under the minimum force size to
	// the order's line and the engine's reason (organise.go).
	lost map[game.ForceID]lostForce
	// created maps the IDs that SPLIT … AS and DETACH … AS name to their
	// lines.
	created map[game.ForceID]int
	// planned is where an accepted MOVE or SAIL takes a force this turn
	// (where it stops when its movement points run out).
	planned map[game.ForceID]game.Place
	// besieging lists the cities a BESIEGE or MASK order names.
	besieging map[string]bool
	// leaderLeft maps a force to the line of the order that took its last
	// general or admiral away.
	leaderLeft map[game.ForceID]int
	nextForce  int
	// fr is what lets one mistake give one error (failedsplit.go).
	fr friction

	funds, spent int
	fundsCity    string
	once         map[string]int // "move E2" → line of the first such order accepted
	// onceKeys are the once keys of the statement being checked, recorded
	// only if it is accepted: a refused MOVE does not block a corrected one.
	onceKeys     []string
	fieldAll     bool
	fielded      map[game.ForceID]bool
	fieldedDepot map[string]bool

	// requests counts the requests of each text, for their tokens.
	requests map[string]int
	// withdrawn are the tokens WITHDRAW REQUEST took back (carry.go).
	withdrawn map[string]bool

	st         *Statement
	annotation string
}

func newChecker(ctx CheckContext, view *engine.NationView, v *Vocabulary, r *Report) *checker {
	c := &checker{ctx: ctx, v: v, m: ctx.Map, rules: ctx.Rules, view: view, r: r, nation: r.Nation,
		yearEnd: r.YearEnd, forces: map[game.ForceID]*game.Force{}, gone: map[game.ForceID]int{}, lost: map[game.ForceID]lostForce{},
		created: map[game.ForceID]int{}, planned: map[game.ForceID]game.Place{}, besieging: map[string]bool{},
		leaderLeft: map[game.ForceID]int{}, requests: map[string]int{}, withdrawn: map[string]bool{},
		once: map[string]int{}, fielded: map[game.ForceID]bool{}, fieldedDepot: map[string]bool{}}
	if c.view == nil {
		c.view = &engine.NationView{Nation: c.nation}
	}
	if ctx.State != nil {
		c.cal = ctx.State.Calendar // public: the game's calendar
	}
	if c.m == nil {
		c.m = &hexmap.Map{}
		c.m.Build()
	}
	if n, ok := c.m.Nation(c.nation); ok {
		c.letter = n.Letter
	}
	for i := range c.view.Own {
		cl := c.view.Own[i].Clone()
		c.forces[cl.ID] = &cl
	}
	c.nextForce = 1
	if c.view.NextForce > 0 {
		c.nextForce = c.view.NextForce
	}
	if !c.yearEnd {
		c.org = engine.NewOrganiser(c.m, c.rules, engine.StateOfView(c.view), c.nation)
	}
	c.funds, c.fundsCity = c.treasury()
	return c
}

// treasury returns the nation's funds: the treasury of its temporary capitol
// if it has one, else of its capitol ("Unspent tax points are stored in your
// capitol").
func (c *checker) treasury() (int, string) {
	city := ""
	if n, ok := c.m.Nation(c.nation); ok {
		city = n.Capitol
	}
	if c.view.TemporaryCapitol != "" {
		city = c.view.TemporaryCapitol
	}
	return c.cityState(city).Treasury, city
}

// cityState returns a city's public state as the nation's View gives it
// (with the treasury only of its own cities); a city the View does not list
// is neutral and free.
func (c *checker) cityState(name string) *game.CityState {
	for _, cv := range c.view.Cities {
		if cv.Name == name {
			return &game.CityState{Name: cv.Name, Controller: cv.Controller, Loyalty: cv.Loyalty, Siege: cv.Siege,
				Breaches: cv.Breaches, Treasury: cv.Treasury}
		}
	}
	return &game.CityState{Name: name}
}

// inGame reports a nation of the game.
func (c *checker) inGame(n game.NationID) bool {
	return slices.ContainsFunc(c.view.Nations, func(s engine.NationSummary) bool { return s.ID == n })
}

// ownDepots are the nation's depots (the View also lists those granted to
// it, which are not its own to give orders for).
func (c *checker) ownDepots() []*game.Depot {
	var out []*game.Depot
	for i := range c.view.Depots {
		if d := &c.view.Depots[i]; d.Nation == c.nation {
			out = append(out, d)
		}
	}
	return out
}

// prepass records, before any check, what later checks need to know about
// the whole sheet: which new IDs are named, which cities are besieged.
func (c *checker) prepass(sts []Statement) {
	c.predictSplitIDs(sts)
	for _, st := range sts {
		switch o := st.Order.(type) {
		case engine.Split:
			if o.NewID != "" {
				c.created[o.NewID] = st.Line
			}
		case engine.DetachLeader:
			if o.NewID != "" {
				c.created[o.NewID] = st.Line
			}
		case engine.Besiege:
			c.besieging[fold(o.City)] = true
		case engine.Move:
			c.noteMarch(o, st.Line)
		}
	}
}

// stage is the pass of the checker a statement belongs to.
func stage(st *Statement) int {
	if st.Order == nil {
		return passRest
	}
	if k, ok := checkedKind(st.Order.Kind()); ok {
		return k.pass
	}
	return passRest
}

// run checks every statement, in the engine's order, and accepts the good
// ones into the report in sheet order.
func (c *checker) run(sts []Statement) {
	c.prepass(sts)
	ok := make([]bool, len(sts))
	annots := make([]string, len(sts))
	for pass := passOrganise; pass <= passRest; pass++ {
		for i := range sts {
			if stage(&sts[i]) == pass {
				ok[i] = c.check(&sts[i])
				annots[i] = c.annotation
				if ok[i] {
					for _, k := range c.onceKeys {
						c.once[k] = sts[i].Line
					}
				}
			}
		}
		if pass == passOrganise && c.org != nil {
			c.r.Organised = c.org.State()
		}
	}
	for i := range sts {
		if ok[i] {
			c.r.accept(sts[i], annots[i])
		}
	}
	c.carryOver()
	c.finish()
}

// reject stops the statement being checked with an error.
func (c *checker) reject(read, msg, hint string) {
	panic(failure{c.diag(Error, read, msg, hint)})
}

// warn adds a warning to the statement being checked.
func (c *checker) warn(read, msg, hint string) {
	c.r.Diagnostics = append(c.r.Diagnostics, c.diag(Warning, read, msg, hint))
}

// note adds a note to the statement being checked.
func (c *checker) note(msg string) {
	c.r.Diagnostics = append(c.r.Diagnostics, c.diag(Note, "", msg, ""))
}

func (c *checker) diag(s Severity, read, msg, hint string) Diagnostic {
	d := Diagnostic{Severity: s, Read: read, Message: msg, Hint: hint}
	if c.st != nil {
		d.Line, d.Source = c.st.Line, c.st.Source
		if c.st.EndLine != c.st.Line {
			d.EndLine = c.st.EndLine
		}
	}
	return d
}

// check checks one statement; it reports whether it is accepted. The
// statement's order may be rewritten (names resolved to their exact IDs).
func (c *checker) check(st *Statement) (ok bool) {
	c.st, c.annotation, c.onceKeys = st, "", nil
	defer func() {
		if r := recover(); r != nil {
			f, isFailure := r.(failure)
			if !isFailure {
				panic(r)
			}
			c.r.Diagnostics = append(c.r.Diagnostics, f.d)
			ok = false
		}
	}()
	switch {
	case st.Treaty != nil:
		c.checkTreaty(st.Treaty)
		return true
	case st.Attest != nil:
		c.checkAttest(st.Attest)
		return true
	case st.Lift != nil:
		c.checkLift(st.Lift)
		return true
	case st.Request != nil:
		c.requests[st.Request.Text]++
		st.Request.Token = requestToken(c.ctx.Game, c.nation, c.r.Turn, c.requests[st.Request.Text], st.Request.Text)
		c.annotation = "request " + st.Request.Token
		return true
	case st.Withdraw != nil:
		c.checkWithdraw(st.Withdraw)
		return true
	case st.Password != nil:
		if len(st.Password.New) < 4 {
			c.reject("", "the new password is too short (at least 4 characters)", "Choose a longer password.")
		}
		c.note("your password changes once this sheet is accepted; use the new one from your next sheet on")
		return true
	case st.Final != nil:
		if c.final {
			c.warn("FINAL", "FINAL is written twice; the sheet is final once", "Write FINAL once.")
			return false
		}
		c.final = true
		return true
	case st.Forecast != nil:
		if c.forecast {
			c.warn("FORECAST", "FORECAST is written twice; the last one counts", "Write FORECAST ON or FORECAST OFF once.")
		}
		c.forecast = true
		return true
	}
	c.phase(st.Order)
	st.Order = c.checkOrder(st.Order)
	return true
}

// phase refuses an order of the wrong kind of turn (engine.OrderKind.Turn).
func (c *checker) phase(o engine.Order) {
	kind, _ := engine.KindOf(o.Kind())
	if kind.Turn == engine.AnyTurn {
		return
	}
	yearEndOnly := kind.Turn == engine.YearEndTurn
	kw := strings.Fields(FormatOrder(o, c.v))[0]
	cal := c.cal
	if yearEndOnly && !c.yearEnd {
		d := cal.Date(c.r.Turn)
		ye := cal.Turn(game.Date{Year: d.Year})
		c.reject(kw, fmt.Sprintf("%s is a year-end order, and this is a monthly turn (%s)", kw, c.r.TurnLabel),
			fmt.Sprintf("Send it on your sheet for the year-end, turn %d.", ye))
	}
	if !yearEndOnly && c.yearEnd {
		c.reject(kw, fmt.Sprintf("%s is an order for the monthly turns, and this is the year-end (%s): at the year-end you BUY, FIELD, DISBAND and TRANSFER", kw, c.r.TurnLabel),
			fmt.Sprintf("Send it on your sheet for turn %d.", c.r.Turn+1))
	}
}

// onceFor refuses a second order of a kind for the same thing. Only accepted
// orders count: when the first is refused, the second is the one carried
// out, and the reply shows the error on the first.
func (c *checker) onceFor(kind, what, read string) {
	key := kind + " " + what
	if l, dup := c.once[key]; dup && l != c.st.Line {
		article := "a"
		if strings.ContainsRune("aeiou", rune(kind[0])) {
			article = "an"
		}
		c.reject(read, fmt.Sprintf("%s already has %s %s order on line %d", what, article, strings.ToUpper(kind), l),
			"Give each force one order of each kind; delete one of the two.")
	}
	c.onceKeys = append(c.onceKeys, key)
}

// own returns the nation's force id (as the organisation orders so far leave
// it), or rejects the statement saying why there is none.
func (c *checker) own(id game.ForceID) *game.Force {
	if f, ok := c.forces[id]; ok {
		return f
	}
	if l, ok := c.gone[id]; ok {
		c.reject(string(id), fmt.Sprintf("%s is merged into another force by the order on line %d", id, l),
			"Give the order to the force it joins.")
	}
	if l, ok := c.lost[id]; ok {
		c.reject(string(id), fmt.Sprintf("%s is lost at once (%s) after the order on line %d: its stack is under the minimum force size", id, l.reason, l.line),
			"Correct that order: split off more figures, or a general with them.")
	}
	if c.letter != "" && !strings.HasPrefix(strings.ToUpper(string(id)), c.letter) {
		// Whether such a force exists is not said: the answer is the same
		// for a foreign force and a made-up ID (fog of war).
		c.reject(string(id), fmt.Sprintf("%s is not one of your forces: yours are named %s and a number", id, c.letter),
			"You can give orders only to your own forces.")
	}
	if l, ok := c.created[id]; ok {
		c.reject(string(id), fmt.Sprintf("there is no force %s: the order on line %d that would form it failed", id, l),
			"Correct that order first.")
	}
	ids := c.ownIDs()
	hint := "You have no forces."
	if len(ids) > 0 {
		hint = "Your forces are " + andList(ids) + "."
	}
	c.reject(string(id), fmt.Sprintf("no force %s%s", id, didYouMean(suggest(string(id), ids))), hint)
	return nil
}

func (c *checker) ownIDs() []string {
	var out []string
	for _, id := range sortedKeys(c.forces) {
		out = append(out, string(id))
	}
	return out
}

// land returns the nation's land force id.
func (c *checker) land(id game.ForceID) *game.Force {
	f := c.own(id)
	c.refuse(engine.NeedLand(f))
	return f
}

// fleet returns the nation's fleet id.
func (c *checker) fleet(id game.ForceID) *game.Force {
	f := c.own(id)
	c.refuse(engine.NeedFleet(f))
	return f
}

// refuse rejects the statement with a refusal of the engine's legality
// checks (nil: nothing to refuse).
func (c *checker) refuse(r *engine.Refusal) {
	if r != nil {
		c.reject(r.Read, r.Text(), r.Hint)
	}
}

// legal runs the order's legality check — the same function the engine
// calls when it carries the order out (engine.OrderKind.Legal) — against the
// nation's View and the forces as the sheet's earlier orders leave them.
func (c *checker) legal(o engine.Order) {
	k, ok := engine.KindOf(o.Kind())
	if !ok {
		return
	}
	r := k.Legal(c.situation(), o)
	if r == nil {
		return
	}
	switch x := o.(type) {
	case engine.Move:
		// Say which order took the general away.
		if l, ok := c.leaderLeft[x.Force]; ok && r.Code == "no-general" {
			r.Message = fmt.Sprintf("%s has no general once the order on line %d takes its general away: \"A land force must have a general with it in order to move\" (Land Movement)", x.Force, l)
		}
	case engine.Disband:
		// The checker lists what the force holds.
		if f := c.forces[x.Force]; f != nil && r.Code == "not-held" {
			cl := f.Clone()
			c.takeContents(&cl, Contents{Troops: x.Troops, Guns: x.Guns, Ships: x.Ships}, "disband")
		}
	}
	c.refuse(r)
}

// situation is the legality checks' view of the game: the nation's View,
// with its forces as the sheet's earlier orders leave them.
func (c *checker) situation() *engine.Situation {
	return engine.SituationFromView(c.m, c.rules, c.view, func() []*game.Force {
		out := make([]*game.Force, 0, len(c.forces))
		for _, id := range sortedKeys(c.forces) {
			out = append(out, c.forces[id])
		}
		return out
	})
}

// where returns the place a force is at now and where it ends its move.
func (c *checker) where(f *game.Force) (start, end game.Place) {
	start = f.At
	if f.Aboard != "" {
		if fl, ok := c.forces[f.Aboard]; ok {
			start = fl.At
			if p, ok := c.planned[fl.ID]; ok {
				return start, p
			}
		}
	}
	if p, ok := c.planned[f.ID]; ok {
		return start, p
	}
	return start, start
}

func (c *checker) label(p game.Place) string {
	if p.IsSea() {
		return "sea area " + string(p.Sea)
	}
	return c.m.HexLabel(p.Hex)
}

// city returns a city of the map and its state.
func (c *checker) city(name string) (*hexmap.City, *game.CityState) {
	mc, ok := c.m.City(name)
	if !ok {
		c.reject(name, fmt.Sprintf("no city %q on the map%s", name, didYouMean(suggest(name, c.v.cityNames()))),
			"Name the city as it is printed on the map.")
	}
	return mc, c.cityState(mc.Name)
}

// atCity rejects unless the force is in (or marches this turn into) the
// city's hex.
func (c *checker) atCity(f *game.Force, mc *hexmap.City, what string) {
	start, end := c.where(f)
	if end.Hex == mc.Hex && !end.IsSea() && f.Aboard == "" {
		return
	}
	if end != start {
		c.reject(mc.Name, fmt.Sprintf("%s ends its move at %s, not in %s (%s): a force %s the city in its own hex", f.ID, c.label(end), mc.Name, mc.Hex, what),
			c.marchHint(f.ID, mc, end, fmt.Sprintf("Move %s into %s first (MOVE %s TO %s).", f.ID, mc.Name, f.ID, mc.Hex)))
	}
	c.reject(mc.Name, fmt.Sprintf("%s is at %s, not in %s (%s): a force %s the city in its own hex", f.ID, c.label(start), mc.Name, mc.Hex, what),
		c.marchHint(f.ID, mc, end, fmt.Sprintf("Move %s into %s first (MOVE %s TO %s).", f.ID, mc.Name, f.ID, mc.Hex)))
}

// newID checks the ID a SPLIT … AS or DETACH … AS names for the new
// force: the nation's letter and a number not yet in use. The engine
// gives the new force that ID (or, with no AS, the next free number:
// organise says which).
func (c *checker) newID(want game.ForceID) {
	used := func(id game.ForceID) bool {
		if _, ok := c.forces[id]; ok {
			return true
		}
		return slices.ContainsFunc(c.view.Own, func(f game.Force) bool { return f.ID == id })
	}
	num, err := strconv.Atoi(strings.TrimPrefix(string(want), c.letter))
	if c.letter != "" && (!strings.HasPrefix(string(want), c.letter) || err != nil || num < 1) {
		c.reject(string(want), fmt.Sprintf("a new force of %s is named %s and a number, not %s", c.r.NationName, c.letter, want),
			fmt.Sprintf("Write AS %s%d, or leave AS out and the next free number is used.", c.letter, c.nextForce))
	}
	if used(want) {
		c.reject(string(want), fmt.Sprintf("the force ID %s is already in use", want),
			"Choose a number not yet used, or leave AS out and the next free number is used.")
	}
}

// leaderOf finds one of the nation's leaders by ID (any case) and the force
// holding him.
func (c *checker) leaderOf(id string) (*game.Force, game.Leader) {
	for _, fid := range sortedKeys(c.forces) {
		f := c.forces[fid]
		for _, l := range f.Leaders {
			if fold(l.ID) == fold(id) {
				return f, l
			}
		}
	}
	// A foreign leader gets the same answer as a made-up name (fog of war).
	var mine []string
	for _, fid := range sortedKeys(c.forces) {
		for _, l := range c.forces[fid].Leaders {
			mine = append(mine, l.ID)
		}
	}
	c.reject(id, fmt.Sprintf("no general or admiral %q%s", id, didYouMean(suggest(id, mine))),
		"Your leaders are "+andList(mine)+".")
	return nil, game.Leader{}
}

// depot finds one of the nation's depots by ID (any case). A foreign depot
// gets the same answer as a made-up ID (fog of war).
func (c *checker) depot(id string) *game.Depot {
	var mine []string
	for _, d := range c.ownDepots() {
		if fold(d.ID) == fold(id) {
			return d
		}
		mine = append(mine, d.ID)
	}
	hint := "You have no depots."
	if len(mine) > 0 {
		hint = "Your depots are " + andList(mine) + "."
	}
	c.reject(id, fmt.Sprintf("no depot %s%s", id, didYouMean(suggest(id, mine))), hint)
	return nil
}

// otherNation checks a nation named as the receiver of a grant, a transfer
// or crowns.
func (c *checker) otherNation(n game.NationID, allowSelf bool) {
	if !c.inGame(n) {
		c.reject(string(n), fmt.Sprintf("%s takes no part in this game", n), "Name a nation of the game: "+orList(c.v.NationIDs())+".")
	}
	if n == c.nation && !allowSelf {
		c.reject(string(n), "that is your own nation", "Name another nation.")
	}
}

// spend adds crowns to the sheet's spending, rejecting the statement that
// would take it past the treasury.
func (c *checker) spend(amount int, what string) {
	if amount <= 0 {
		return
	}
	if c.spent+amount > c.funds {
		c.reject("", fmt.Sprintf("%s costs %s; with the orders before it you would spend %d, but your treasury in %s holds %d",
			what, english.Count(amount, "crown"), c.spent+amount, c.fundsCity, c.funds),
			"Spend less: drop or reduce this order or an earlier one. Orders are paid for in the order of the sheet.")
	}
	c.spent += amount
	c.annotation = joinAnnot(c.annotation, english.Count(amount, "crown"))
}

func joinAnnot(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// finish adds the sheet-wide messages.
func (c *checker) finish() {
	if c.yearEnd {
		var unfielded []string
		if !c.fieldAll {
			for _, f := range c.view.Own {
				if !c.fielded[f.ID] {
					if _, gone := c.gone[f.ID]; !gone {
						unfielded = append(unfielded, string(f.ID))
					}
				}
			}
			for _, d := range c.ownDepots() {
				if !c.fieldedDepot[d.ID] {
					unfielded = append(unfielded, d.ID)
				}
			}
		}
		if len(unfielded) > 0 {
			c.st = nil
			c.warn("", unfieldedWarning(c.rules, andList(unfielded)),
				"Add FIELD ALL, or a FIELD line for each force and depot you keep, or DISBAND what you do not.")
		}
	}
	if c.spent > 0 {
		c.st = nil
		c.r.Diagnostics = append(c.r.Diagnostics, Diagnostic{Severity: Note,
			Message: spendingNote(c)})
	}
}

// describeTroops lists what a force holds, for messages: "24 C infantry, 2
// field-gun".
func describe(f *game.Force) string {
	s := FormatContents(Contents{Troops: f.Troops, Guns: f.Guns, Ships: f.Ships}, nil)
	var ls []string
	for _, l := range f.Leaders {
		ls = append(ls, l.Role.String()+" "+l.ID)
	}
	if len(ls) > 0 {
		if s != "" {
			s += ", "
		}
		s += strings.Join(ls, ", ")
	}
	if s == "" {
		return "nothing"
	}
	return s
}

// takeContents checks that f holds the contents and removes them from it.
func (c *checker) takeContents(f *game.Force, ct Contents, verb string) {
	for _, want := range ct.Troops {
		have := 0
		for _, t := range f.Troops {
			if t.Arm == want.Arm && t.Grade == want.Grade {
				have += t.Count
			}
		}
		asked := 0
		for _, t := range ct.Troops {
			if t.Arm == want.Arm && t.Grade == want.Grade {
				asked += t.Count
			}
		}
		if asked > have {
			c.reject(fmt.Sprintf("%d %s %s", want.Count, want.Grade, want.Arm.Keyword(want.Count)),
				fmt.Sprintf("%s has %d %s %s, so cannot %s %d; it has %s", f.ID, have, want.Grade, want.Arm, verb, asked, describe(f)),
				"List only what the force holds, by grade and arm as your report prints them.")
		}
	}
	for _, want := range ct.Guns {
		have, asked := 0, 0
		for _, g := range f.Guns {
			if g.Kind == want.Kind && g.Owner == want.Owner {
				have += g.Count
			}
		}
		for _, g := range ct.Guns {
			if g.Kind == want.Kind && g.Owner == want.Owner {
				asked += g.Count
			}
		}
		if asked > have {
			c.reject(fmt.Sprintf("%d %s", want.Count, want.Kind),
				fmt.Sprintf("%s has %d %s, so cannot %s %d; it has %s", f.ID, have, want.Kind, verb, asked, describe(f)),
				"List only the guns the force holds.")
		}
	}
	sh, have := ct.Ships, f.Ships
	if sh.Warships > have.Warships || sh.DamagedWarships > have.DamagedWarships || sh.Transports > have.Transports || sh.DamagedTransports > have.DamagedTransports {
		c.reject(FormatContents(Contents{Ships: sh}, nil), fmt.Sprintf("%s has not the ships to %s: it has %s", f.ID, verb, describe(f)),
			"List only the ships the fleet holds; damaged ships are listed as damaged-warship and damaged-transport.")
	}
	for i, l := range ct.Leaders {
		j := slices.IndexFunc(f.Leaders, func(x game.Leader) bool { return fold(x.ID) == fold(l) })
		if j < 0 {
			c.reject(l, fmt.Sprintf("%s is not with %s; it has %s", l, f.ID, describe(f)), "Name only leaders with the force.")
		}
		ct.Leaders[i] = f.Leaders[j].ID
	}
	// Remove them.
	for _, want := range ct.Troops {
		left := want.Count
		for i := range f.Troops {
			if t := &f.Troops[i]; t.Arm == want.Arm && t.Grade == want.Grade && left > 0 {
				k := min(left, t.Count)
				t.Count -= k
				left -= k
			}
		}
	}
	for _, want := range ct.Guns {
		left := want.Count
		for i := range f.Guns {
			if g := &f.Guns[i]; g.Kind == want.Kind && g.Owner == want.Owner && left > 0 {
				k := min(left, g.Count)
				g.Count -= k
				left -= k
			}
		}
	}
	f.Ships.Warships -= sh.Warships
	f.Ships.DamagedWarships -= sh.DamagedWarships
	f.Ships.Transports -= sh.Transports
	f.Ships.DamagedTransports -= sh.DamagedTransports
	for _, l := range ct.Leaders {
		f.Leaders = slices.DeleteFunc(f.Leaders, func(x game.Leader) bool { return x.ID == l })
	}
	f.Normalize()
}
