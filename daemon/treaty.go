package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// Public treaties by mail ("Public Treaties"). A treaty lives between turns
// in the treaty ledger: the game's treaties as the engine keeps them
// (game.Treaty), kept in the store's treaty tables (store.TreatyLedger),
// and changed only by the engine's pure functions (engine.ProposeTreaty,
// AttestTreaty, BreachTreaty, EndPenalty) as mail arrives:
//
//   - a sheet's TREATY gets its ID at once: the sender's acknowledgment says
//     it, and every other party is mailed the text, the ID and how to attest
//     (templates/treaty-proposed.txt);
//   - a sheet's ATTEST records the attestation; the last one makes the
//     treaty public, and every party is told when it will be published
//     (treaty-ratified.txt);
//   - the referee's BREACH starts the yearly penalty; the aggrieved
//     party's LIFT on its sheet ends it (or the referee's LIFT on its word);
//     the parties are told (treaty-breach.txt, treaty-lifted.txt);
//   - PublishTreaties mails every nation each treaty that became public
//     during a turn since resolved (treaty-published.txt): at the start of
//     the next turn, or of the game-year for the buy.
//
// The ledger is read when the mail is decided and written in the mail's
// commit transaction only if it has not changed in between; otherwise the
// commit fails and the mail is handled again, so two mails never give one
// ID twice. The turn runner copies the ledger into the state it resolves
// (TreatiesInto) and the resolved state's treaties back (SaveTreaties), so
// that the engine publishes them and charges the penalties at the year-end.

// MailTreaty is the outbox kind of the treaty mails: a treaty sent to its
// parties, made public, published, breached, its penalty ended.
const MailTreaty = "treaty"

// errLedgerMoved aborts a commit whose treaty ledger changed since the mail
// was decided; the mail is handled again.
var errLedgerMoved = errors.New("the treaty ledger changed while the mail was handled; handling it again")

// Treaties returns the game's treaties as they stand now, between turns.
func (g *Game) Treaties(ctx context.Context) ([]game.Treaty, error) {
	l, err := readLedger(ctx, g.DB, g.ID())
	return l.treaties, err
}

// TreatiesInto puts the treaty ledger into st (the state of the turn now
// open), for the checker and for the turn runner before it resolves the turn.
func (g *Game) TreatiesInto(ctx context.Context, st *engine.State) error {
	if g.DB == nil {
		return nil
	}
	l, err := readLedger(ctx, g.DB, g.ID())
	if err != nil {
		return err
	}
	if l.present {
		st.Treaties = l.treaties
		st.Normalize()
	}
	return nil
}

// SaveTreaties stores ts as the treaty ledger inside tx: the turn runner
// saves the resolved state's treaties with the turn.
func (g *Game) SaveTreaties(ctx context.Context, tx *store.Tx, ts []game.Treaty) error {
	return tx.SaveTreatyLedger(ctx, g.ID(), storeTreaties(ts))
}

// treatyOutcome is what a sheet's treaties and attestations add to its
// answer: a paragraph for the sender, mails to the other parties, and the
// ledger to save.
type treatyOutcome struct {
	note    string
	msgs    []outbox.Message
	changed bool
	was     ledger
	ledger  []game.Treaty
}

// sheetTreaties applies an accepted sheet's TREATY and ATTEST statements to
// a copy of the ledger in st (which handleSheet filled with TreatiesInto).
func (g *Game) sheetTreaties(ctx context.Context, m store.Mail, st *engine.State, nation game.NationID, r *parser.Report) (treatyOutcome, error) {
	var out treatyOutcome
	if len(r.Treaties) == 0 && len(r.Attestations) == 0 && len(r.Lifts) == 0 {
		return out, nil
	}
	l, err := readLedger(ctx, g.DB, g.ID())
	if err != nil {
		return out, err
	}
	out.was = l
	s := st.Clone()
	s.Treaties = l.treaties
	s.Normalize()
	var lines []string
	for _, t := range r.Treaties {
		if id := sameTreaty(s, nation, t); id != "" {
			lines = append(lines, fmt.Sprintf("Treaty %q was recorded before as %s; nothing more is sent.", t.Title, id))
			continue
		}
		tr, err := engine.ProposeTreaty(s, nation, t.Title, t.Text, t.Parties)
		if err != nil {
			lines = append(lines, fmt.Sprintf("Treaty %q could not be recorded: %v.", t.Title, err))
			continue
		}
		out.changed = true
		var others []string
		for _, p := range tr.Parties {
			if p == nation {
				continue
			}
			others = append(others, g.nationName(p))
			out.msgs = append(out.msgs, g.message(MailTreaty, string(p), st.Turn, tr.ID+".proposed", []string{g.registered(p)},
				fmt.Sprintf("[%s] Treaty %s proposed by %s: %s", g.ID(), tr.ID, g.nationName(nation), tr.Title),
				templates.Must("treaty-proposed", map[string]any{"Proposer": g.nationName(nation), "ID": tr.ID, "Title": tr.Title,
					"Parties": g.partyNames(tr.Parties), "Text": tr.Text}), mailDate(m)))
		}
		lines = append(lines, fmt.Sprintf("Treaty %q is recorded with the ID %s. %s %s been sent its text and asked to attest it (ATTEST %s). It is published to every nation when all have attested: at the start of the next turn, or of the game-year if that happens during the buy.",
			tr.Title, tr.ID, strings.Join(others, " and "), map[bool]string{true: "has", false: "have"}[len(others) == 1], tr.ID))
	}
	for _, a := range r.Attestations {
		before, _ := engine.FindTreaty(s, a.Treaty)
		already := before != nil && slices.Contains(before.Attested, nation)
		ratified, err := engine.AttestTreaty(s, a.Treaty, nation)
		if err != nil {
			lines = append(lines, fmt.Sprintf("ATTEST %s could not be recorded: %v.", a.Treaty, err))
			continue
		}
		tr, _ := engine.FindTreaty(s, a.Treaty)
		if already {
			lines = append(lines, fmt.Sprintf("You had attested %s already.", tr.ID))
			continue
		}
		out.changed = true
		if !ratified {
			var waiting []string
			for _, p := range tr.Parties {
				if !slices.Contains(tr.Attested, p) {
					waiting = append(waiting, g.nationName(p))
				}
			}
			lines = append(lines, fmt.Sprintf("Your attestation of %s is recorded; it waits for %s.", tr.ID, strings.Join(waiting, " and ")))
			continue
		}
		when := "at the start of " + st.Calendar.Name(st.Turn+1)
		if st.Calendar.Date(st.Turn).IsYearEnd() {
			when = "at the start of the game-year, " + st.Calendar.Name(st.Turn+1)
		}
		lines = append(lines, fmt.Sprintf("Your attestation of %s is recorded: every party has attested it, and it is published to every nation %s.", tr.ID, when))
		for _, p := range tr.Parties {
			out.msgs = append(out.msgs, g.message(MailTreaty, string(p), st.Turn, tr.ID+".ratified", []string{g.registered(p)},
				fmt.Sprintf("[%s] Treaty %s is public: %s", g.ID(), tr.ID, tr.Title),
				templates.Must("treaty-ratified", map[string]any{"ID": tr.ID, "Title": tr.Title, "Parties": g.partyNames(tr.Parties), "When": when}), mailDate(m)))
		}
	}
	for _, l := range r.Lifts {
		if err := engine.EndPenalty(s, l.Treaty, l.Offender, nation, nation); err != nil {
			lines = append(lines, fmt.Sprintf("LIFT %s %s could not be recorded: %v.", l.Treaty, l.Offender, err))
			continue
		}
		out.changed = true
		tr, _ := engine.FindTreaty(s, l.Treaty)
		lines = append(lines, fmt.Sprintf("The penalty of %s under %s is ended: nothing more is taken from it at the year-ends.", g.nationName(l.Offender), tr.ID))
		data := map[string]any{"ID": tr.ID, "Title": tr.Title, "Offender": g.nationName(l.Offender), "Aggrieved": g.nationName(nation)}
		subject := fmt.Sprintf("[%s] Treaty %s: the penalty of %s is ended", g.ID(), tr.ID, g.nationName(l.Offender))
		key := tr.ID + ".lift." + string(l.Offender) + "." + string(nation) + "." + store.SHA256Hex(m.Raw)[:12]
		out.msgs = append(out.msgs, g.message(MailTreaty, string(l.Offender), st.Turn, key, []string{g.registered(l.Offender)},
			subject, templates.Must("treaty-lifted", data), mailDate(m)))
		if g.Config.Game.Referee != "" {
			out.msgs = append(out.msgs, g.message(MailTreaty, "referee", st.Turn, key, []string{g.Config.Game.Referee},
				subject, templates.Must("treaty-lifted", data), mailDate(m)))
		}
	}
	out.ledger = s.Treaties
	out.note = "\nTREATIES\n\n" + strings.Join(lines, "\n\n") + "\n"
	return out, nil
}

// sameTreaty returns the ID of a treaty the nation sent before with the
// same title, parties and text (a sheet sent again), or "".
func sameTreaty(s *engine.State, n game.NationID, t parser.Treaty) string {
	ps := slices.Clone(t.Parties)
	slices.Sort(ps)
	ps = slices.Compact(ps)
	for _, tr := range s.Treaties {
		if tr.Proposer == n && tr.Title == t.Title && tr.Text == t.Text && slices.Equal(tr.Parties, ps) {
			return tr.ID
		}
	}
	return ""
}

func (g *Game) partyNames(ps []game.NationID) string {
	var names []string
	for _, p := range ps {
		names = append(names, g.nationName(p))
	}
	return strings.Join(names, ", ")
}

// PublishTreaties mails every nation each treaty that became public during a
// turn that has since been resolved and has not been published by mail yet
// ("I will publish public treaties at the start of the turn when I receive
// them, or at the start of the game-year if I get one during a buy"), and
// marks it published with the turn now open. The turn runner calls it after
// committing a turn; the daemon also calls it when it starts. It is
// idempotent: each treaty is mailed once.
func (g *Game) PublishTreaties(ctx context.Context) error {
	if g.DB == nil {
		return nil
	}
	st, err := g.State(ctx)
	if err != nil {
		return err
	}
	return g.DB.Update(ctx, func(tx *store.Tx) error {
		l, err := readLedger(ctx, tx, g.ID())
		if err != nil || !l.present {
			return err
		}
		changed := false
		for i := range l.treaties {
			tr := &l.treaties[i]
			if tr.Ratified == 0 || tr.Ratified >= st.Turn {
				continue
			}
			if done, err := tx.TreatyMailed(ctx, g.ID(), tr.ID); err != nil || done {
				if err != nil {
					return err
				}
				continue
			}
			if tr.Published == 0 {
				tr.Published = st.Turn
				changed = true
			}
			text := templates.Must("treaty-published", map[string]any{"ID": tr.ID, "Title": tr.Title, "Parties": g.partyNames(tr.Parties),
				"Text": tr.Text, "Turn": st.Calendar.Name(tr.Published)})
			for _, n := range g.Scenario.Nations {
				addr := g.registered(n.ID)
				if addr == "" {
					continue
				}
				msg := g.message(MailTreaty, string(n.ID), tr.Published, tr.ID+".published", []string{addr},
					fmt.Sprintf("[%s] Public treaty %s: %s", g.ID(), tr.ID, tr.Title), text, time.Time{})
				if err := g.enqueue(ctx, tx, msg); err != nil {
					return err
				}
			}
			if err := tx.MarkTreatyMailed(ctx, g.ID(), tr.ID, g.Now()); err != nil {
				return err
			}
		}
		if changed {
			return g.SaveTreaties(ctx, tx, l.treaties)
		}
		return nil
	})
}

// withTreaties fills st with the ledger for the checker; a ledger that
// cannot be read leaves st as it is (the checker then says no treaty is
// known, and the mail is answered).
func (g *Game) withTreaties(ctx context.Context, st *engine.State) {
	if err := g.TreatiesInto(ctx, st); err != nil {
		g.Log.Error("reading the treaty ledger", "err", err)
	}
}
