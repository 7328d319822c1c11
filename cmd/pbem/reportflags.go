package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/parser"
)

// reportNation reads "pbem report --nation" as a sheet's NATION line is
// read: the ID or the name, in any case, with or without accents, or a
// unique prefix; anything else is a usage error listing the nations.
func reportNation(e *env, m *hexmap.Map, word string) (game.NationID, int) {
	id, amb := parser.NewVocabulary(m, nil).Nation(word)
	if id != "" {
		return id, exitOK
	}
	var ids []string
	for _, n := range m.Nations {
		ids = append(ids, string(n.ID))
	}
	if len(amb) > 0 {
		e.errorf("report: --nation %s could be %s; write more of it", word, strings.Join(amb, " or "))
	} else {
		e.errorf("report: --nation %s: this game has no such nation; expected one of %s", word, strings.Join(ids, ", "))
	}
	return "", exitUsage
}

// storedTurns says which turns the store holds, for a --turn that is not
// there: "the store holds turns 0 (the opening position) to 3 (the latest
// resolved)".
func storedTurns(ctx context.Context, g *daemon.Game) string {
	latest, err := g.DB.LatestTurn(ctx, g.ID())
	if err != nil {
		return fmt.Sprintf("game %s has no turns in the store yet: run \"pbem new\"", g.ID())
	}
	var have []int
	for t := 0; t <= latest.Turn; t++ {
		if _, err := g.DB.Turn(ctx, g.ID(), t); err == nil {
			have = append(have, t)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "game %s has no such turn; the store holds ", g.ID())
	switch {
	case len(have) == 1:
		fmt.Fprintf(&b, "turn %d only", have[0])
	case len(have) == latest.Turn+1:
		fmt.Fprintf(&b, "turns 0 to %d", latest.Turn)
	default:
		parts := make([]string, len(have))
		for i, t := range have {
			parts[i] = fmt.Sprint(t)
		}
		fmt.Fprintf(&b, "turns %s", strings.Join(parts, ", "))
	}
	b.WriteString(" (0: the starting report; leave out --turn for the latest)")
	return b.String()
}
