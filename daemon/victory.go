package daemon

import (
	"fmt"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
)

// MailVictory is the outbox kind of the mail announcing the end of the
// game: a nation ended the game-year with the victory tax base.
const MailVictory = "victory"

// victoryMails announce a VictoryDeclared of the turn to every nation and
// the referee, one mail each, in the turn's commit (so once). A tie played
// on (no winner) is announced too: the game goes on. The mail says whether
// the victory ends the game (game.after_victory, gameover.go).
func (g *Game) victoryMails(events []engine.Event, turn int, now time.Time) []outbox.Message {
	var v *engine.VictoryDeclared
	for _, e := range events {
		if x, ok := e.(*engine.VictoryDeclared); ok {
			v = x
		}
	}
	if v == nil {
		return nil
	}
	var names []string
	for _, n := range v.Winners {
		names = append(names, g.nationName(n))
	}
	var b strings.Builder
	subject := fmt.Sprintf("[%s] The game is won: %s", g.ID(), strings.Join(names, " and "))
	switch {
	case len(v.Winners) == 0:
		subject = fmt.Sprintf("[%s] A tie for victory in %d: the game goes on", g.ID(), v.Year)
		fmt.Fprintf(&b, "At the end of the game-year %d several nations reached the victory tax base with the same\n"+
			"largest tax base. Under this edition's rules a tie is played on: there is no winner yet.\n\n", v.Year)
	case len(v.Winners) == 1:
		fmt.Fprintf(&b, "At the end of the game-year %d %s has won the campaign: the first to end a game-year with\n"+
			"the victory tax base, and the largest.\n\n", v.Year, names[0])
	default:
		fmt.Fprintf(&b, "At the end of the game-year %d %s share the victory: they ended the game-year with the\n"+
			"victory tax base, tied for the largest.\n\n", v.Year, strings.Join(names, " and "))
	}
	b.WriteString("Tax bases at or above the victory tax base:\n")
	for _, c := range v.Contenders {
		fmt.Fprintf(&b, "  %-14s %d\n", g.nationName(c.Nation), c.TaxBase)
	}
	switch {
	case len(v.Winners) == 0:
	case g.Config.Game.GameOverAtVictory():
		b.WriteString("\nThe game is over: no more turns are resolved and no more orders are taken. If you believe\n" +
			"the result is wrong, write to the referee, who alone can reopen the game. Thank you for playing.\n")
	default:
		b.WriteString("\nThe referee plays on past the victory: the next turn is open and orders are taken as usual.\n")
	}
	var out []outbox.Message
	for _, id := range g.Config.NationIDs() {
		if to := g.registered(game.NationID(id)); to != "" {
			out = append(out, g.message(MailVictory, id, turn, "victory", []string{to}, subject, b.String(), now))
		}
	}
	if ref := g.Config.Game.Referee; ref != "" {
		out = append(out, g.message(MailVictory, "referee", turn, "victory", []string{ref}, subject, b.String(), now))
	}
	return out
}
