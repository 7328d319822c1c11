package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// The case format's year-end lines (cases_test.go documents them).

func nationList(s string) []game.NationID {
	var out []game.NationID
	for _, x := range strings.Split(s, ",") {
		if x != "" {
			out = append(out, game.NationID(x))
		}
	}
	return out
}

// parsePenalty reads OFFENDER>AGGRIEVED:SINCE[:ENDED].
func parsePenalty(v string) (game.TreatyPenalty, error) {
	off, rest, ok := strings.Cut(v, ">")
	agg, nums, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return game.TreatyPenalty{}, fmt.Errorf("penalty %q: expected OFFENDER>AGGRIEVED:SINCE[:ENDED]", v)
	}
	p := game.TreatyPenalty{Offender: game.NationID(off), Aggrieved: game.NationID(agg)}
	since, ended, _ := strings.Cut(nums, ":")
	p.Since, _ = strconv.Atoi(since)
	p.Ended, _ = strconv.Atoi(ended)
	return p, nil
}

func yearEndPrestate(s *State, word string, w []string) (bool, error) {
	if word != "treaty" {
		return false, nil
	}
	if len(w) < 2 {
		return true, fmt.Errorf("expected treaty ID PARTIES")
	}
	tr := game.Treaty{ID: w[0], Title: w[0], Text: "The text of " + w[0] + ".", Parties: nationList(w[1])}
	for _, kv := range w[2:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "attested":
			tr.Attested = nationList(v)
		case "ratified":
			tr.Ratified, _ = strconv.Atoi(v)
		case "published":
			tr.Published, _ = strconv.Atoi(v)
		case "penalty":
			p, err := parsePenalty(v)
			if err != nil {
				return true, err
			}
			tr.Penalties = append(tr.Penalties, p)
		default:
			return true, fmt.Errorf("treaty field %q: unknown", kv)
		}
	}
	s.Treaties = append(s.Treaties, tr)
	return true, nil
}

// yearEndPoststate checks a year-end POSTSTATE line: ok is false for a word
// it does not know; msg is the failure ("" when it holds).
func yearEndPoststate(m *hexmap.Map, r *ruleset.Ruleset, s *State, word string, w []string) (msg string, ok bool) {
	switch word {
	case "treasury":
		city, got := Treasury(m, s, game.NationID(w[0]))
		if strconv.Itoa(got) != w[1] {
			return fmt.Sprintf("treasury of %s: %d (in %q), want %s", w[0], got, city, w[1]), true
		}
		if len(w) > 2 && city != w[2] {
			return fmt.Sprintf("treasury of %s lies in %q, want %q", w[0], city, w[2]), true
		}
	case "taxbase":
		if got := TaxBase(m, r, s, game.NationID(w[0])); strconv.Itoa(got) != w[1] {
			return fmt.Sprintf("tax base of %s: %d, want %s", w[0], got, w[1]), true
		}
	case "depot", "nodepot":
		i := slices.IndexFunc(s.Depots, func(d game.Depot) bool { return d.ID == w[0] })
		switch {
		case word == "nodepot" && i >= 0:
			return fmt.Sprintf("depot %s should be gone", w[0]), true
		case word == "depot" && i < 0:
			return fmt.Sprintf("depot %s is gone", w[0]), true
		case word == "depot" && len(w) > 1 && string(s.Depots[i].Nation) != w[1]:
			return fmt.Sprintf("depot %s belongs to %s, want %s", w[0], s.Depots[i].Nation, w[1]), true
		}
		if word == "depot" && len(w) > 2 {
			if v, ok := strings.CutPrefix(w[2], "aboard="); ok && string(s.Depots[i].Aboard) != v {
				return fmt.Sprintf("depot %s aboard %q, want %q", w[0], s.Depots[i].Aboard, v), true
			}
		}
	case "treaty":
		tr, found := FindTreaty(s, w[0])
		if !found {
			return fmt.Sprintf("no treaty %s", w[0]), true
		}
		for _, kv := range w[1:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "published":
				if strconv.Itoa(tr.Published) != v {
					return fmt.Sprintf("treaty %s published %d, want %s", tr.ID, tr.Published, v), true
				}
			case "ratified":
				if strconv.Itoa(tr.Ratified) != v {
					return fmt.Sprintf("treaty %s ratified %d, want %s", tr.ID, tr.Ratified, v), true
				}
			case "penalty":
				p, err := parsePenalty(v)
				if err != nil {
					return err.Error(), true
				}
				if !slices.Contains(tr.Penalties, p) {
					return fmt.Sprintf("treaty %s penalties %+v, want %+v among them", tr.ID, tr.Penalties, p), true
				}
			}
		}
	case "victory":
		var got []game.NationID
		if s.Victory != nil {
			got = s.Victory.Winners
		}
		want := nationList(w[0])
		if w[0] == "none" {
			want = nil
		}
		if !slices.Equal(got, want) {
			return fmt.Sprintf("victory %v, want %v", got, want), true
		}
	default:
		return "", false
	}
	return "", true
}
