package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// Public treaties ("Public Treaties"): "players may send me the text of
// public treaties to which they have attested. If I decide that a player has
// broken a clause in a public treaty he will suffer a penalty of 200 tax
// points per year until the aggrieved party agrees to end the penalty … I
// will publish public treaties at the start of the turn when I receive them,
// or at the start of the game-year if I get one during a buy. Public
// treaties may not be secret or delayed."
//
// A treaty's life is in State.Treaties. Between turns, as mail arrives, the
// daemon changes it with ProposeTreaty (the sender's text gets its ID at
// once, attested by the sender), AttestTreaty (each other party), and, on
// the referee's ruling and the aggrieved party's word, BreachTreaty and
// EndPenalty (the rulings step applies the same two for a breach or a lift
// that reaches the engine as a ruling, rulings.go). Each records the turn whose orders were being collected.
// Resolving that turn then publishes what became public during it: a treaty
// whose last party attested during a monthly turn is published at the start
// of the next turn; during the buy, at the start of the game-year (the
// first month, which the year-end's resolution opens). Both are the
// TreatyPublished event, public, and the treaty's Published turn. Breaches
// and their end are announced the same way. The yearly penalty is paid in
// the taxes step (yearend_taxes.go).

// Treaty errors the daemon turns into answers.
var (
	ErrNoTreaty     = errors.New("no such treaty")
	ErrNotParty     = errors.New("not a party to the treaty")
	ErrNotAggrieved = errors.New("only the aggrieved party ends the penalty")
)

// NextTreatyID returns the ID the next treaty gets: "T" and one more than
// the largest number used.
func NextTreatyID(s *State) string {
	n := 0
	for _, t := range s.Treaties {
		if k, err := strconv.Atoi(strings.TrimPrefix(t.ID, "T")); err == nil && k > n {
			n = k
		}
	}
	return "T" + strconv.Itoa(n+1)
}

// FindTreaty returns a treaty by ID (any case).
func FindTreaty(s *State, id string) (*game.Treaty, bool) {
	for i := range s.Treaties {
		if strings.EqualFold(s.Treaties[i].ID, strings.TrimSpace(id)) {
			return &s.Treaties[i], true
		}
	}
	return nil, false
}

// ProposeTreaty records a treaty sent by proposer, one of its parties, and
// returns it with its new ID. The proposer has attested it by sending it.
func ProposeTreaty(s *State, proposer game.NationID, title, text string, parties []game.NationID) (*game.Treaty, error) {
	ps := sortedNations(parties...)
	if !slices.Contains(ps, proposer) {
		return nil, fmt.Errorf("%s: %w", proposer, ErrNotParty)
	}
	if len(ps) < 2 {
		return nil, errors.New("a treaty needs at least two parties")
	}
	for _, p := range ps {
		if _, ok := s.Nation(p); !ok {
			return nil, fmt.Errorf("nation %q is not in this game", p)
		}
	}
	t := game.Treaty{ID: NextTreatyID(s), Title: title, Text: text, Parties: ps, Proposer: proposer,
		Submitted: s.Turn, Attested: []game.NationID{proposer}}
	s.Treaties = append(s.Treaties, t)
	s.Normalize()
	out, _ := FindTreaty(s, t.ID)
	return out, nil
}

// AttestTreaty records nation n's attestation and reports whether the treaty
// is now attested by every party (ratified: to be published when the
// current turn is resolved). Attesting twice is not an error.
func AttestTreaty(s *State, id string, n game.NationID) (ratified bool, err error) {
	t, ok := FindTreaty(s, id)
	if !ok {
		return false, fmt.Errorf("%s: %w", id, ErrNoTreaty)
	}
	if !slices.Contains(t.Parties, n) {
		return false, fmt.Errorf("%s: %w", n, ErrNotParty)
	}
	if !slices.Contains(t.Attested, n) {
		t.Attested = append(t.Attested, n)
		slices.Sort(t.Attested)
	}
	if t.Ratified == 0 && len(t.Attested) == len(t.Parties) {
		t.Ratified = s.Turn
		return true, nil
	}
	return false, nil
}

// BreachTreaty records the referee's ruling that offender broke the public
// treaty id against aggrieved: the penalty runs from now, paid at each
// year-end until EndPenalty. Both must be parties, and the treaty public or
// ratified.
func BreachTreaty(s *State, id string, offender, aggrieved game.NationID) error {
	t, ok := FindTreaty(s, id)
	if !ok {
		return fmt.Errorf("%s: %w", id, ErrNoTreaty)
	}
	for _, n := range []game.NationID{offender, aggrieved} {
		if !slices.Contains(t.Parties, n) {
			return fmt.Errorf("%s: %w %s", n, ErrNotParty, t.ID)
		}
	}
	if offender == aggrieved {
		return errors.New("a nation cannot breach a treaty against itself")
	}
	if t.Ratified == 0 {
		return fmt.Errorf("%s is not public yet: only public treaties carry the penalty", t.ID)
	}
	for _, p := range t.Penalties {
		if p.Offender == offender && p.Aggrieved == aggrieved && p.Ended == 0 {
			return fmt.Errorf("%s already pays the penalty of %s to %s", offender, t.ID, aggrieved)
		}
	}
	t.Penalties = append(t.Penalties, game.TreatyPenalty{Offender: offender, Aggrieved: aggrieved, Since: s.Turn})
	return nil
}

// EndPenalty ends the running penalty of offender under treaty id: by must
// be the aggrieved party ("until the aggrieved party agrees to end the
// penalty"), or the Referee acting on the aggrieved party's word.
func EndPenalty(s *State, id string, offender, aggrieved, by game.NationID) error {
	t, ok := FindTreaty(s, id)
	if !ok {
		return fmt.Errorf("%s: %w", id, ErrNoTreaty)
	}
	if by != aggrieved && by != Referee {
		return ErrNotAggrieved
	}
	for i := range t.Penalties {
		p := &t.Penalties[i]
		if p.Offender == offender && p.Aggrieved == aggrieved && p.Ended == 0 {
			p.Ended = s.Turn
			return nil
		}
	}
	return fmt.Errorf("no penalty of %s to %s runs under %s", offender, aggrieved, t.ID)
}

// stepTreaties publishes the treaties ratified while this turn's orders were
// collected, and announces breaches declared and penalties ended meanwhile.
func (t *turn) stepTreaties() {
	rule := t.cite("Public Treaties", "")
	for i := range t.s.Treaties {
		tr := &t.s.Treaties[i]
		if tr.Ratified != 0 && tr.Published == 0 && tr.Ratified <= t.number {
			tr.Published = t.number + 1
			t.emit(&TreatyPublished{Treaty: tr.ID, Title: tr.Title, Parties: slices.Clone(tr.Parties), Text: tr.Text, Ratified: tr.Ratified},
				rule, game.Place{}, public(), tr.Parties...)
		}
		for _, p := range tr.Penalties {
			if p.Since == t.number {
				t.emit(&TreatyBreachAnnounced{Treaty: tr.ID, Offender: p.Offender, Aggrieved: p.Aggrieved}, rule, game.Place{}, public(), p.Offender, p.Aggrieved)
			}
			if p.Ended == t.number {
				t.emit(&TreatyBreachAnnounced{Treaty: tr.ID, Offender: p.Offender, Aggrieved: p.Aggrieved, Ended: true}, rule, game.Place{}, public(), p.Offender, p.Aggrieved)
			}
		}
	}
}

// stepYearEndTreaties publishes the public treaties attested during the buy
// ("or at the start of the game-year if I get one during a buy").
func (t *turn) stepYearEndTreaties() { t.stepTreaties() }
