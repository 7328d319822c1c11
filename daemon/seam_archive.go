package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/store"
)

// The archive of a game played through the seam (seam.go; the archive's
// format is archive.go's, one for every campaign). The header names the
// campaign's ruleset and carries what the campaign gives for it
// (campaign.Archived): the version of its rule tables and its map as text.
// A resolved turn's record carries what campaign.Game.Resolve was given —
// the state before it (the record before), every sheet in force (the
// campaign's EncodeOrders; a nation without one gave no orders, and none
// is written for it), the referee's rulings and tabletop results as the
// campaign stores them, the seed — and what it gave: the state, events and
// dice as the turn runner stored them. Verifying opens the campaign's game
// from the header alone (campaign.ArchiveOpener) and resolves every turn in
// force again through the seam, requiring the same bytes.

// archiveCampaignHeader is the archive header of a game played through the
// seam.
func (g *Game) archiveCampaignHeader() (archiveHeader, error) {
	a, ok := g.seamOnly.(campaign.Archived)
	if !ok {
		return archiveHeader{}, fmt.Errorf("game %s plays the %s campaign, whose turns pbem cannot archive yet; its turns are in the store %s",
			g.ID(), g.rulesetID(), g.Config.StorePath())
	}
	version, mapText, err := a.ArchiveRules()
	if err != nil {
		return archiveHeader{}, err
	}
	return archiveHeader{Format: ArchiveFormat, Game: g.ID(), Name: g.Config.Game.Name, Ruleset: g.rulesetID(),
		RulesVersion: version, Map: mapText}, nil
}

// archiveCampaignTurn fills in the archive record of a turn of a game
// played through the seam, resolved from before's state: its stored
// inputs, resolved again first to the stored bytes.
func (g *Game) archiveCampaignTurn(ctx context.Context, before, rec store.TurnRecord, ar *archiveRecord) error {
	in, _, err := g.campaignInput(ctx, before) // seam_turn.go: what decideCampaign gives the campaign
	if err != nil {
		return fmt.Errorf("turn %d: %w", rec.Turn, err)
	}
	if n := in.State.TurnNumber(); n != rec.Turn {
		return fmt.Errorf("turn %d: the state of turn %d before it opens turn %d", rec.Turn, before.Turn, n)
	}
	if in.Seed != rec.Seed {
		return fmt.Errorf("turn %d was resolved with seed %d, but the game's dice key gives %d", rec.Turn, rec.Seed, in.Seed)
	}
	state, events, dice, err := campaignResolvedBytes(g.seamOnly, in)
	if err != nil {
		return fmt.Errorf("resolving turn %d again: %w", rec.Turn, err)
	}
	if err := storedInputsGive(rec, state, events, dice); err != nil {
		return err
	}
	for _, o := range in.Orders {
		js, err := g.seamOnly.EncodeOrders(o)
		if err != nil {
			return err
		}
		ar.Orders = append(ar.Orders, archiveOrders{Nation: o.Nation, Orders: js})
	}
	ar.Rulings, ar.Battles, ar.Seed = in.Rulings, in.Results, rec.Seed
	ar.Dice, ar.Events = json.RawMessage(rec.Dice), json.RawMessage(rec.EventLog)
	return nil
}

// campaignResolvedBytes resolves a turn through the seam and returns the
// state, events and dice as the turn runner stores them (decideCampaign).
// A turn still waiting for a battle's result is an error naming it.
func campaignResolvedBytes(cg campaign.Game, in campaign.TurnInput) (state, events, dice []byte, err error) {
	res, err := cg.Resolve(in)
	if err != nil {
		return nil, nil, nil, err
	}
	if res.State == nil {
		var keys []string
		for _, a := range res.Awaiting {
			keys = append(keys, a.Key)
		}
		return nil, nil, nil, fmt.Errorf("it waits for the referee's result of the battle at %s, which its inputs do not hold", strings.Join(keys, ", "))
	}
	if state, err = res.State.MarshalJSON(); err != nil {
		return nil, nil, nil, err
	}
	if events, err = engine.MarshalEvents(res.Events); err != nil {
		return nil, nil, nil, err
	}
	dice, err = json.Marshal(res.Rolls)
	return state, events, dice, err
}

// openCampaignArchive opens the game of an archive of a campaign played
// through the seam from its header: the campaign's game on the header's
// map, under the same rule tables.
func openCampaignArchive(head archiveHeader) (turnResolver, error) {
	c, err := campaign.ForRuleset(head.Ruleset)
	if err != nil {
		return nil, err
	}
	opener, ok := c.(campaign.ArchiveOpener)
	if !ok {
		return nil, fmt.Errorf("the %s campaign's archives cannot be verified by this pbem", c.ID())
	}
	cg, err := opener.OpenArchived(head.Ruleset, head.Map)
	if err != nil {
		return nil, errors.New("the map: " + err.Error())
	}
	a, ok := cg.(campaign.Archived)
	if !ok {
		return nil, fmt.Errorf("the %s campaign's archives cannot be verified by this pbem", c.ID())
	}
	version, _, err := a.ArchiveRules()
	if err != nil {
		return nil, err
	}
	if err := sameTables(head, version); err != nil {
		return nil, err
	}
	return func(before, rec *archiveRecord) error { return reresolveCampaign(cg, before, rec) }, nil
}

// reresolveCampaign resolves rec's turn through the seam from before's
// state with rec's inputs and compares the result with rec.
func reresolveCampaign(cg campaign.Game, before, rec *archiveRecord) error {
	cs, err := cg.DecodeState(before.State)
	if err != nil {
		return fmt.Errorf("the state of turn %d cannot be read: %v", before.Turn, err)
	}
	if n := cs.TurnNumber(); n != rec.Turn {
		return fmt.Errorf("the state of turn %d before it opens turn %d", before.Turn, n)
	}
	in := campaign.TurnInput{State: cs, Rulings: rec.Rulings, Results: rec.Battles, Seed: rec.Seed}
	for _, o := range rec.Orders {
		orders, err := cg.DecodeOrders(o.Orders)
		if err != nil {
			return fmt.Errorf("the orders of %s cannot be read: %v", o.Nation, err)
		}
		orders.Nation, orders.Turn = o.Nation, rec.Turn
		in.Orders = append(in.Orders, orders)
	}
	state, events, dice, err := campaignResolvedBytes(cg, in)
	if err != nil {
		return fmt.Errorf("the campaign cannot resolve it: %v", err)
	}
	if what := differs(state, events, dice, rec.State, rec.Events, rec.Dice); what != "" {
		return errors.New("resolved again, " + what)
	}
	return nil
}
