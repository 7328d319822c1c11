package daemon

import (
	"strings"
	"unicode"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/store"
)

// KindFinal marks a sheet as final: its MailID is the mail of the sheet,
// sent with the word FINAL in its subject. When every nation's sheet in
// force is final the turn is due at once (early resolution); a later sheet
// without FINAL replaces the sheet in force, and with it the mark.
const KindFinal = "final"

// finalNote ends the answer to a sheet marked FINAL.
const finalNote = "\nMarked FINAL: when every nation's sheet in force is final, the turn is resolved at once,\n" +
	"before the deadline. To change your orders until then, send a new sheet; without FINAL in its\n" +
	"subject it takes the mark away.\n"

// isFinal reports whether a subject holds the word FINAL (any case, as a
// word of its own: "Orders FINAL", "[final] turn 3").
func isFinal(subject string) bool {
	for _, w := range strings.FieldsFunc(subject, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.EqualFold(w, "final") {
			return true
		}
	}
	return false
}

// playingNations are the nations of st still in the game.
func playingNations(st *engine.State) []string {
	var out []string
	for _, ns := range st.Nations {
		if !ns.Eliminated {
			out = append(out, string(ns.ID))
		}
	}
	return out
}

// allFinal reports whether every nation in nations has a sheet in force for
// the turn that was marked final, given the turn's submissions.
func allFinal(subs []store.Submission, nations []string) bool {
	if len(nations) == 0 {
		return false
	}
	inForce := map[string]int64{}
	final := map[int64]bool{}
	for _, s := range subs {
		switch {
		case s.Kind == KindOrders && s.Valid && !s.Superseded:
			inForce[s.Nation] = s.MailID
		case s.Kind == KindFinal:
			final[s.MailID] = true
		}
	}
	for _, n := range nations {
		id, ok := inForce[n]
		if !ok || id == 0 || !final[id] {
			return false
		}
	}
	return true
}
