package daemon

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// The end of the game. The engine records the victory in State.Victory at
// the year-end that declares a winner (a tie played on declares none). With
// game.after_victory "end" (the default) the state after that turn is the
// last: the game is over. Nothing is stored to say so — the latest turn
// record's state is the whole truth — so a ROLLBACK or RERUN that sets the
// winning turn aside, or resolves it to no winner, reopens the game without
// more ado. While the game is over:
//
//   - the turn runner finds no turn due, resolves nothing and sets no
//     deadline (the winning turn opens none); no reminders go out;
//   - "pbem resolve", PREVIEW and RESOLVE NOW/DEADLINE are refused with the
//     referee's ways on (GameOverError);
//   - a player's mail is answered with the result, not checked, and nothing
//     on it is recorded (answerGameOver);
//   - "pbem status" says who won.
//
// With "play-on" the victory is announced and the game goes on as before.

// gameOver returns the victory that ended the game in state st, or nil
// while the game goes on (no winner yet, or game.after_victory play-on).
func (g *Game) gameOver(st *engine.State) *engine.Victory {
	if st == nil || st.Victory == nil || len(st.Victory.Winners) == 0 || !g.Config.Game.GameOverAtVictory() {
		return nil
	}
	return st.Victory
}

// victoryTurn returns the number of the turn that declared v: the year-end
// of its year.
func victoryTurn(st *engine.State, v *engine.Victory) int {
	return st.Calendar.Turn(game.Date{Year: v.Year})
}

// victorySentence says who won, when and with which tax base: "Eisenmark
// won the campaign at the year-end 1752 (turn 7) with a tax base of 4900."
func (g *Game) victorySentence(st *engine.State, v *engine.Victory) string {
	bases := map[game.NationID]int{}
	for _, c := range v.Contenders {
		bases[c.Nation] = c.TaxBase
	}
	var names []string
	for _, n := range v.Winners {
		names = append(names, g.nationName(n))
	}
	turn := victoryTurn(st, v)
	if len(v.Winners) == 1 {
		return fmt.Sprintf("%s won the campaign at the year-end %d (turn %d) with a tax base of %d.",
			names[0], v.Year, turn, bases[v.Winners[0]])
	}
	return fmt.Sprintf("%s share the victory of the year-end %d (turn %d), tied with a tax base of %d each.",
		strings.Join(names, " and "), v.Year, turn, bases[v.Winners[0]])
}

// GameOverError is the refusal of anything that would resolve a turn or set
// a deadline after the game has ended. Its text tells the referee the
// result and what can be done instead.
type GameOverError struct {
	Result string // the victory sentence
	Turn   int    // the winning turn
}

func (e *GameOverError) Error() string {
	return fmt.Sprintf("the game is over: %s; no turn is resolved and no deadline set after it. "+
		"To reopen the game, ROLLBACK %d (by mail, or \"pbem rollback %d\") opens the winning turn again, "+
		"to be resolved on RESOLVE NOW or RERUN %d; to play on past the victory, set game.after_victory: play-on "+
		"in the config and restart pbem",
		strings.TrimSuffix(e.Result, "."), e.Turn, e.Turn, e.Turn)
}

// errGameOver returns a *GameOverError when the game is over in st, nil
// otherwise.
func (g *Game) errGameOver(st *engine.State) error {
	v := g.gameOver(st)
	if v == nil {
		return nil
	}
	return &GameOverError{Result: g.victorySentence(st, v), Turn: victoryTurn(st, v)}
}

// answerGameOver answers a player's mail that came after the game ended:
// the result, and that no more orders are taken. Nothing on the mail is
// checked or recorded, so no sheet, treaty, request or password change
// counts. nation is the nation the answer is for.
func (g *Game) answerGameOver(m store.Mail, ex *inbox.Extracted, st *engine.State, nation game.NationID) outcome {
	v := g.gameOver(st)
	type contender struct {
		Name    string
		TaxBase int
	}
	var cs []contender
	for _, c := range v.Contenders {
		cs = append(cs, contender{g.nationName(c.Nation), c.TaxBase})
	}
	text := templates.Must("game-over", map[string]any{"Result": g.victorySentence(st, v), "Contenders": cs,
		"Needed": g.Rules.Taxes.VictoryTaxBase, "Referee": g.Config.Game.Referee})
	var names []string
	for _, n := range v.Winners {
		names = append(names, g.nationName(n))
	}
	subject := fmt.Sprintf("[%s] %s: the game is over, %s won in %d; no orders taken", g.ID(), g.nationName(nation),
		strings.Join(names, " and "), v.Year)
	return outcome{status: store.MailAcknowledged, class: ClassGameOver, note: "the game is over",
		msgs: []outbox.Message{g.reply(m, ex, []string{g.registered(nation)}, MailAck, string(nation), st.Turn, subject, text)}}
}
