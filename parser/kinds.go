package parser

import (
	"slices"

	"github.com/syw-pbem/pbem/engine"
)

// checkedKinds is the parser's side of the engine's registry of order kinds
// (engine.Kinds): for each kind, the sheet keywords whose grammar
// (grammar.go) reads it, the checker's pass, and the checker's sheet-level
// check (the forces as earlier orders leave them, once-a-turn, the route
// planned, spending), which calls the kind's engine legality function
// (checker.legal). Sorted by kind. TestOrderKindsComplete fails if a kind of
// the engine lacks an entry here, a grammar, a formatter or an example in
// docs/orders.md.
var checkedKinds = []kindEntry{
	{kind: "assault", keywords: []string{"ASSAULT"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { c.checkAssault(o.(engine.Assault)); return o }},
	{kind: "assign", keywords: []string{"ASSIGN"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { return c.checkAssign(o.(engine.AssignLeader)) }},
	{kind: "besiege", keywords: []string{"BESIEGE", "MASK"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { c.checkBesiege(o.(engine.Besiege)); return o }},
	{kind: "bombard", keywords: []string{"BOMBARD"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { c.checkBombard(o.(engine.Bombard)); return o }},
	{kind: "buy", keywords: []string{"BUY"}, pass: passLand, check: func(c *checker, o engine.Order) engine.Order { c.checkBuy(o.(engine.Buy)); return o }},
	{kind: "debark", keywords: []string{"DEBARK"}, pass: passLand, check: func(c *checker, o engine.Order) engine.Order { c.checkDebark(o.(engine.Debark)); return o }},
	{kind: "detach", keywords: []string{"DETACH"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { return c.checkDetach(o.(engine.DetachLeader)) }},
	{kind: "disband", keywords: []string{"DISBAND"}, pass: passMarch, check: func(c *checker, o engine.Order) engine.Order { c.checkDisband(o.(engine.Disband)); return o }},
	{kind: "embark", keywords: []string{"EMBARK"}, pass: passEmbark, check: func(c *checker, o engine.Order) engine.Order { c.checkEmbark(o.(engine.Embark)); return o }},
	{kind: "field", keywords: []string{"FIELD"}, pass: passEmbark, check: func(c *checker, o engine.Order) engine.Order { return c.checkField(o.(engine.Field)) }},
	{kind: "fieldworks", keywords: []string{"FIELDWORKS"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { c.checkFieldworks(o.(engine.Fieldworks)); return o }},
	{kind: "fleet-stance", keywords: []string{"FLEET"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkFleetStance(o.(engine.FleetStance)); return o }},
	{kind: "garrison", keywords: []string{"GARRISON"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkGarrison(o.(engine.Garrison)); return o }},
	{kind: "merge", keywords: []string{"MERGE"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkMerge(o.(engine.Merge)); return o }},
	{kind: "move", keywords: []string{"MOVE"}, pass: passMarch, check: func(c *checker, o engine.Order) engine.Order { return c.checkMove(o.(engine.Move)) }},
	{kind: "on-contact", keywords: []string{"ON"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkStanding(o, "on contact"); return o }},
	{kind: "pursue", keywords: []string{"PURSUE", "NO"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkStanding(o, "pursue"); return o }},
	{kind: "repair", keywords: []string{"REPAIR"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { c.checkRepair(o.(engine.Repair)); return o }},
	{kind: "retreat", keywords: []string{"RETREAT"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkStanding(o, "retreat"); return o }},
	{kind: "sail", keywords: []string{"SAIL"}, pass: passMarch, check: func(c *checker, o engine.Order) engine.Order { c.checkSail(o.(engine.Sail)); return o }},
	{kind: "slow", keywords: []string{"SLOW", "NO"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkSlow(o.(engine.SlowEnemy)); return o }},
	{kind: "special", keywords: []string{"SPECIAL"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkSpecial(o.(engine.Special)); return o }},
	{kind: "split", keywords: []string{"SPLIT"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { return c.checkSplit(o.(engine.Split)) }},
	{kind: "stance", keywords: []string{"STANCE"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkStanding(o, "stance"); return o }},
	{kind: "supply", keywords: []string{"SUPPLY", "WITHDRAW"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { return c.checkGrant(o.(engine.GrantSupply)) }},
	{kind: "temporary-capitol", keywords: []string{"TEMPORARY"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order {
		c.checkTemporaryCapitol(o.(engine.TemporaryCapitol))
		return o
	}},
	{kind: "transfer", keywords: []string{"TRANSFER"}, pass: passRest, check: func(c *checker, o engine.Order) engine.Order { return c.checkTransfer(o.(engine.Transfer)) }},
	{kind: "treasury", keywords: []string{"TREASURY"}, pass: passOrganise, check: func(c *checker, o engine.Order) engine.Order { c.checkTreasury(o.(engine.MoveTreasury)); return o }},
}

// kindEntry is one entry of checkedKinds.
type kindEntry struct {
	kind     string
	keywords []string
	pass     int
	check    func(*checker, engine.Order) engine.Order
}

// The checker's passes, in the order the engine carries the orders out
// (engine/pipeline.go): organisation, marches and voyages, embarking,
// landing, then the rest (sieges, fieldworks, repairs). A year-end sheet
// holds only year-end kinds, and the same five passes follow the year-end
// pipeline: capitols and treasuries (passOrganise), disbanding (passMarch),
// fielding (passEmbark), buying (passLand), transfers (passRest).
const (
	passOrganise = iota
	passMarch
	passEmbark
	passLand
	passRest
)

// checkedKind returns the parser's entry for an engine order kind.
func checkedKind(kind string) (kindEntry, bool) {
	i, ok := slices.BinarySearchFunc(checkedKinds, kind, func(k kindEntry, kw string) int {
		switch {
		case k.kind < kw:
			return -1
		case k.kind > kw:
			return 1
		}
		return 0
	})
	if !ok {
		return kindEntry{}, false
	}
	return checkedKinds[i], true
}
