package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/ruleset"
)

// The year-end orders ("Collecting Taxes, Buying and Fielding Troops") and
// the sheet-level statements (treaties, attestations).

func (c *checker) checkBuy(o engine.Buy) {
	mc, _ := c.city(o.City)
	c.legal(o)
	costs := c.rules.Costs
	w := o.What
	var cost int
	var what string
	switch {
	case w.Troops != nil:
		t := w.Troops
		what = fmt.Sprintf("%d %s %s", t.Count, t.Grade, t.Arm.Keyword(t.Count))
		bf, _ := costs.Figure(t.Arm, t.Grade)
		cost = bf.Buy * t.Count
	case w.Gun != 0:
		what = fmt.Sprintf("%d %s", w.Count, w.Gun)
		cost = costs.Gun(w.Gun).Buy * w.Count
	case w.Depot:
		what, cost = "a depot", costs.Depot.Buy
		if w.Aboard != "" && mc != nil {
			f := c.own(w.Aboard)
			if !f.IsFleet() || f.Ships.AllTransports() == 0 {
				c.reject(string(f.ID), fmt.Sprintf("%s has no transports to carry a depot", f.ID), "Name a fleet with a transport in the port.")
			}
			if f.At.IsSea() || f.At.Hex != mc.Hex {
				c.reject(string(f.ID), fmt.Sprintf("%s does not lie in %s: a bought depot goes \"on a transport in a port\"", f.ID, mc.Name), "Name a fleet in that port, or leave out ABOARD.")
			}
			what = "a depot aboard " + string(f.ID)
		}
	case w.Warships > 0 || w.Transports > 0:
		cost = w.Warships*costs.Warship.Buy + w.Transports*costs.Transport.Buy
		what = FormatContents(Contents{Ships: game.Ships{Warships: w.Warships, Transports: w.Transports}}, nil)
	case w.Leader != nil:
		what = w.Leader.Role.String() + " " + w.Leader.ID
		if l, ok := c.v.Leader(w.Leader.ID); ok {
			c.reject(w.Leader.ID, fmt.Sprintf("there is already a leader named %s", l.ID), "Give the new leader another name.")
		}
		cost = costs.Leader.Buy
	}
	c.spendYearEnd(cost, what)
}

// yearEndFunds is what the nation will hold when the year-end's fielding
// begins: its treasury now, the crowns TREASURY orders above bring it, the
// taxes it will collect from its cities as they stand (engine.TaxesDue:
// taxes are collected before troops are fielded and bought), less the
// treaty penalties it pays.
func (c *checker) yearEndFunds() (total, taxes, penalties int) {
	taxes = engine.TaxesDue(c.m, c.rules, c.ledger(), c.nation).Collected
	penalties = engine.PenaltiesDue(c.rules, c.ledger(), c.nation)
	// c.funds is the treasury the checker started from plus the crowns
	// TREASURY orders above bring; the engine's reckoning replaces the
	// first (a lost capitol's crowns are not the nation's to spend).
	start, _ := c.treasury()
	moved := c.funds - start
	return engine.FundsAtFielding(c.m, c.rules, c.ledger(), c.nation) + moved, taxes, penalties
}

// spendYearEnd adds a year-end order's cost to the sheet's running total
// and warns when the total passes what the nation will hold. The order is
// not refused: the engine pays orders in sheet order, fielding before
// buying, and refuses whole the ones the treasury cannot pay by then
// (engine/yearend_fielding.go), so an order over the total is dropped at
// the year-end and does not count towards the orders after it.
func (c *checker) spendYearEnd(amount int, what string) {
	if amount <= 0 {
		return
	}
	funds, taxes, penalties := c.yearEndFunds()
	total := c.spent + amount
	if total > funds {
		pen := ""
		if penalties > 0 {
			pen = fmt.Sprintf(" - treaty penalties %d", penalties)
		}
		c.warn("", fmt.Sprintf("%s costs %s; with the orders above the sheet would spend %d, but you will hold %d at the year-end (treasury in %s %d + taxes %d%s): the order will be refused",
			what, english.Count(amount, "crown"), total, funds, c.fundsCity, c.funds, taxes, pen),
			"Spend less: drop or reduce this order or an earlier one. Orders are paid in sheet order, fielding before buying; one the treasury cannot pay is refused whole.")
		c.annotation = joinAnnot(c.annotation, fmt.Sprintf("%s, over the %d you will hold", english.Count(amount, "crown"), funds))
		return
	}
	c.spent = total
	c.annotation = joinAnnot(c.annotation, fmt.Sprintf("%s, %d of %d spent", english.Count(amount, "crown"), total, funds))
}

// fieldCost is the crowns to field a force for another year: the field
// column of the Cost Chart for each figure, gun (of its own nation), ship
// and leader.
func (c *checker) fieldCost(f *game.Force) int { return engine.FieldCost(c.rules, f) }

// depotFieldable says why a depot cannot be fielded ("" if it can): "You may
// not field depots that are in besieged or masked cities, or that are
// carried on transports".
func (c *checker) depotFieldable(d *game.Depot) string {
	if why := engine.DepotUnfieldable(c.m, c.ledger(), d); why != "" {
		return fmt.Sprintf("depot %s is %s", d.ID, why)
	}
	return ""
}

func (c *checker) checkField(o engine.Field) engine.Field {
	c.legal(o)
	switch {
	case o.All:
		if c.fieldAll {
			c.reject("ALL", "FIELD ALL is given twice", "Delete one.")
		}
		c.fieldAll = true
		cost := 0
		for _, of := range c.view.Own {
			if !c.fielded[of.ID] {
				if f, ok := c.forces[of.ID]; ok {
					cost += c.fieldCost(f)
				}
			}
		}
		for _, d := range c.ownDepots() {
			if c.fieldedDepot[d.ID] {
				continue
			}
			if why := c.depotFieldable(d); why != "" {
				c.warn("ALL", why+", and cannot be fielded: it is lost at the year-end", "Nothing to do; FIELD ALL keeps everything else.")
				continue
			}
			cost += c.rules.Costs.Depot.Field
		}
		c.spendYearEnd(cost, "fielding everything")
	case o.Depot != "":
		d := c.depot(o.Depot)
		o.Depot = d.ID
		if c.fieldedDepot[d.ID] || c.fieldAll {
			c.reject(d.ID, fmt.Sprintf("depot %s is fielded already by an order above", d.ID), "Delete one of the two.")
		}
		if why := c.depotFieldable(d); why != "" {
			c.reject(d.ID, why+": \"You may not field depots that are in besieged or masked cities, or that are carried on transports\"", "Leave the order out.")
		}
		c.fieldedDepot[d.ID] = true
		c.spendYearEnd(c.rules.Costs.Depot.Field, "fielding "+d.ID)
	default:
		f := c.own(o.Force)
		if c.fielded[f.ID] || c.fieldAll {
			c.reject(string(f.ID), fmt.Sprintf("%s is fielded already by an order above", f.ID), "Delete one of the two.")
		}
		c.fielded[f.ID] = true
		c.spendYearEnd(c.fieldCost(f), "fielding "+string(f.ID))
	}
	return o
}

func (c *checker) checkDisband(o engine.Disband) {
	f := c.own(o.Force)
	c.legal(o)
	ct := Contents{Troops: o.Troops, Guns: o.Guns, Ships: o.Ships}
	if ct.IsEmpty() {
		delete(c.forces, f.ID)
		c.gone[f.ID] = c.st.Line
		return
	}
	c.takeContents(f, ct, "disband")
}

func (c *checker) checkTransfer(o engine.Transfer) engine.Transfer {
	c.otherNation(o.To, false)
	c.legal(o)
	switch {
	case o.Depot != "":
		d := c.depot(o.Depot)
		o.Depot = d.ID
	case o.Leader != "":
		f, l := c.leaderOf(o.Leader)
		o.Leader = l.ID
		f.Leaders = slices.DeleteFunc(f.Leaders, func(x game.Leader) bool { return x.ID == l.ID })
	default:
		f := c.own(o.Force)
		c.takeContents(f, Contents{Guns: o.Guns, Ships: o.Ships}, "transfer")
	}
	return o
}

func (c *checker) checkTreasury(o engine.MoveTreasury) {
	c.city(o.From)
	c.legal(o)
	c.otherNation(o.To, true)
	if o.To == c.nation {
		// The crowns reach the nation's own treasury, for this sheet's
		// purchases too.
		c.funds += o.Amount
	}
}

func (c *checker) checkTemporaryCapitol(o engine.TemporaryCapitol) {
	c.city(o.City)
	c.legal(o)
}

func (c *checker) checkTreaty(t *Treaty) {
	if !slices.Contains(t.Parties, c.nation) {
		c.reject("", fmt.Sprintf("%s is not among the treaty's parties: players send the treaties they have attested to", c.r.NationName),
			fmt.Sprintf("Add %s to the PARTIES.", c.nation))
	}
	if len(t.Parties) < 2 {
		c.reject("", "a treaty needs at least two parties", "Name every nation that is party to it.")
	}
	for _, p := range t.Parties {
		c.otherNation(p, true)
	}
	c.note("the treaty gets its ID when this sheet is accepted, and the other parties are sent its text; it is published to every nation once they have all attested it (ATTEST with its ID)")
}

func (c *checker) checkAttest(a *Attest) {
	var ids []string
	for i := range c.view.Treaties {
		t := &c.view.Treaties[i]
		ids = append(ids, t.ID)
		if fold(t.ID) != fold(a.Treaty) {
			continue
		}
		a.Treaty = t.ID
		if !slices.Contains(t.Parties, c.nation) {
			c.reject(a.Treaty, fmt.Sprintf("%s is not a party to %s (%q)", c.r.NationName, t.ID, t.Title), "Only a treaty's parties attest it.")
		}
		if slices.Contains(t.Attested, c.nation) {
			c.warn(a.Treaty, fmt.Sprintf("you have attested %s already", t.ID), "Leave the order out.")
		}
		return
	}
	c.reject(a.Treaty, fmt.Sprintf("no treaty %s%s", a.Treaty, didYouMean(suggest(a.Treaty, ids))), "Name the treaty by the ID printed in your report.")
}

// unfieldedWarning says what happens at the year-end to what the sheet
// neither fields nor disbands, by the ruleset's YearEnd.Unfielded.
func unfieldedWarning(r *ruleset.Ruleset, list string) string {
	if r.YearEnd.Unfielded == ruleset.UnfieldedDisband {
		return fmt.Sprintf("not fielded: %s; they are disbanded at the year-end (\"You must then field any existing troops you want to keep\")", list)
	}
	return fmt.Sprintf("not fielded: %s; after your orders they are fielded in turn while the treasury can pay, and what it cannot pay for is disbanded (\"You must then field any existing troops you want to keep\")", list)
}

// spendingNote is the sheet's closing note on its spending.
func spendingNote(c *checker) string {
	if !c.yearEnd {
		return fmt.Sprintf("these orders spend %d of the %s in your treasury (%s)", c.spent, english.Count(c.funds, "crown"), c.fundsCity)
	}
	funds, taxes, _ := c.yearEndFunds()
	return fmt.Sprintf("these orders spend %d of the %s you will hold at the year-end (treasury in %s %d + taxes %d), leaving %d",
		c.spent, english.Count(funds, "crown"), c.fundsCity, c.funds, taxes, funds-c.spent)
}

// turnByName reads a turn's name at the start of words ("May 1752", "1752
// year-end", "year-end 1752"; game.Calendar.ParseName), stopping at the
// next header keyword: the turn number and how many words it took.
func (v *Vocabulary) turnByName(words []string) (turn, used int, ok bool) {
	var parse func(string) (int, error)
	switch {
	case v == nil:
		return 0, 0, false
	case v.calendar != nil && v.calendar.StartYear != 0:
		parse = v.calendar.ParseName
	case v.turnNames != nil:
		parse = v.turnNames // another campaign's calendar (ReadFrame)
	default:
		return 0, 0, false
	}
	end := len(words)
	for k, w := range words {
		if k > 0 && contains(headerKeywords, strings.ToUpper(strings.TrimSuffix(w, ":"))) {
			end = k
			break
		}
	}
	// The longest run of up to three words that names a turn.
	for n := min(end, 3); n >= 2; n-- {
		if t, err := parse(strings.Join(words[:n], " ")); err == nil {
			return t, n, true
		}
	}
	return 0, 0, false
}

// ledger is the game as far as the nation's view shows it, for the
// engine's public reckonings of the year-end (taxes due, penalties, the
// crowns held when fielding begins): engine.StateOfView.
func (c *checker) ledger() *engine.State {
	if c.ledgerState == nil {
		c.ledgerState = engine.StateOfView(c.view)
	}
	return c.ledgerState
}
