package sheet

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// The referee's tabletop result, as he mails it back for a battle sheet:
//
//	RESULT Elkmoor
//	OUTCOME win                 (win or draw)
//	WINNER norvale              (a kingdom of the winning side; none for a draw)
//	UNIT N1 line-infantry DESTROYED 2 ROUTED 1
//	UNIT N1 guard heavy-infantry DESTROYED 1
//	END
//
// One UNIT line per army and stand type that lost stands on the table:
// "units destroyed during the game" and "units forced off the table by
// routing"; every other stand "remained on the tabletop". ParseResult reads
// it line by line with the checker's quality; the engine checks it against
// the battle (trossian.BattleResult.Check) and applies the post-battle
// sequence.

// ParseResult reads a tabletop result. The diagnostics say the line, what
// was read and what was expected; with any error the result is not to be
// used.
func ParseResult(text string) (trossian.BattleResult, []parser.Diagnostic) {
	var res trossian.BattleResult
	var diags []parser.Diagnostic
	bad := func(line int, src, read, msg, hint string) {
		diags = append(diags, parser.Diagnostic{Line: line, Severity: parser.Error, Source: src, Read: read, Message: msg, Hint: hint})
	}
	seen := map[string]int{}
	started := false
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := i + 1
		src := strings.TrimSpace(raw)
		if j := strings.IndexByte(src, '#'); j >= 0 {
			src = strings.TrimSpace(src[:j])
		}
		if src == "" {
			continue
		}
		w := strings.Fields(src)
		kw, _ := parser.MatchKeyword(w[0], []string{"RESULT", "OUTCOME", "WINNER", "UNIT", "END"})
		if !started && kw != "RESULT" {
			continue // the referee's covering words
		}
		switch kw {
		case "RESULT":
			started = true
			if len(w) != 2 {
				bad(line, src, "", "expected RESULT and the battle's province, e.g. RESULT Elkmoor", "Copy the RESULT line from the battle sheet.")
				continue
			}
			res.Province = w[1]
		case "OUTCOME":
			if len(w) != 2 {
				bad(line, src, "", "expected OUTCOME win or OUTCOME draw", "")
				continue
			}
			o, _ := parser.MatchKeyword(w[1], []string{"win", "draw"})
			if o == "" {
				bad(line, src, w[1], fmt.Sprintf("expected win or draw, read %q", w[1]), "A battle is won by one side, or drawn.")
				continue
			}
			res.Outcome = o
		case "WINNER":
			if len(w) != 2 {
				bad(line, src, "", "expected WINNER and a kingdom of the winning side", "")
				continue
			}
			if !strings.EqualFold(w[1], "none") {
				res.Winner = game.NationID(strings.ToLower(w[1]))
			}
		case "UNIT":
			u, msg := unitLine(w[1:])
			if msg != "" {
				bad(line, src, "", msg, "Write UNIT army [guard] type DESTROYED n ROUTED n, e.g. UNIT N1 line-infantry DESTROYED 2 ROUTED 1.")
				continue
			}
			key := fmt.Sprintf("%s %s %v", u.Army, u.Type, u.Guard)
			if first, dup := seen[key]; dup {
				bad(line, src, string(u.Army), fmt.Sprintf("%s %s is given twice (first on line %d)", u.Army, u.Type, first), "Give each army's type once.")
				continue
			}
			seen[key] = line
			res.Units = append(res.Units, u)
		case "END":
			return res, check(res, diags)
		default:
			bad(line, src, w[0], fmt.Sprintf("expected RESULT, OUTCOME, WINNER, UNIT or END, read %q", w[0]), "")
		}
	}
	if !started {
		bad(0, "", "", "no RESULT line: expected RESULT and the battle's province", "Answer the battle sheet with its RESULT block.")
	}
	return res, check(res, diags)
}

func check(res trossian.BattleResult, diags []parser.Diagnostic) []parser.Diagnostic {
	if res.Province != "" && res.Outcome == "" {
		diags = append(diags, parser.Diagnostic{Severity: parser.Error, Message: "no OUTCOME line: expected OUTCOME win or OUTCOME draw"})
	}
	if res.Outcome == "win" && res.Winner == "" {
		diags = append(diags, parser.Diagnostic{Severity: parser.Error, Message: "a win with no WINNER: expected WINNER and a kingdom of the winning side"})
	}
	return diags
}

// unitLine reads "N1 [guard] type DESTROYED n [ROUTED n]".
func unitLine(w []string) (trossian.UnitFate, string) {
	var u trossian.UnitFate
	if len(w) < 3 {
		return u, "expected an army, a stand type and DESTROYED or ROUTED counts"
	}
	u.Army = game.ForceID(strings.ToUpper(w[0]))
	w = w[1:]
	if strings.EqualFold(w[0], "guard") {
		u.Guard, w = true, w[1:]
	}
	t, ok := trossian.ParseUnitType(w[0])
	if !ok {
		return u, fmt.Sprintf("expected a stand type (%s), read %q", typeList(), w[0])
	}
	u.Type = t
	w = w[1:]
	if len(w) == 0 || len(w)%2 != 0 {
		return u, "expected DESTROYED n and/or ROUTED n after the type"
	}
	for i := 0; i < len(w); i += 2 {
		n, err := strconv.Atoi(w[i+1])
		if err != nil || n < 0 || n > 999 {
			return u, fmt.Sprintf("expected a count after %s, read %q", strings.ToUpper(w[i]), w[i+1])
		}
		switch kw, _ := parser.MatchKeyword(w[i], []string{"DESTROYED", "ROUTED"}); kw {
		case "DESTROYED":
			u.Destroyed = n
		case "ROUTED":
			u.Routed = n
		default:
			return u, fmt.Sprintf("expected DESTROYED or ROUTED, read %q", w[i])
		}
	}
	return u, ""
}

// FormatResult writes a result in the form ParseResult reads.
func FormatResult(r trossian.BattleResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "RESULT %s\nOUTCOME %s\n", r.Province, r.Outcome)
	if r.Winner != "" {
		fmt.Fprintf(&b, "WINNER %s\n", r.Winner)
	}
	for _, u := range r.Units {
		label := string(u.Type)
		if u.Guard {
			label = "guard " + label
		}
		fmt.Fprintf(&b, "UNIT %s %s", u.Army, label)
		if u.Destroyed > 0 {
			fmt.Fprintf(&b, " DESTROYED %d", u.Destroyed)
		}
		if u.Routed > 0 {
			fmt.Fprintf(&b, " ROUTED %d", u.Routed)
		}
		if u.Destroyed == 0 && u.Routed == 0 {
			b.WriteString(" DESTROYED 0")
		}
		b.WriteByte('\n')
	}
	b.WriteString("END\n")
	return b.String()
}

// FormatSheet writes a battle sheet for the referee: the province, the
// sides and their armies' stands, and the RESULT block to fill in.
func FormatSheet(sh trossian.BattleSheet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Battle of %s (%s), %s\n", sh.Province, sh.Kind, sh.Label)
	if sh.Controller != "" {
		fmt.Fprintf(&b, "Held by %s\n", sh.Controller)
	}
	for i, s := range sh.Sides {
		var ns []string
		for _, n := range s.Nations {
			ns = append(ns, string(n))
		}
		fmt.Fprintf(&b, "\nSide %d: %s\n", i+1, strings.Join(ns, ", "))
		for _, a := range s.Armies {
			fmt.Fprintf(&b, "  %s (%s, %s): %s\n", a.Army, a.Nation, a.Stance, a.Stands)
		}
	}
	fmt.Fprintf(&b, "\nFight it on the table and answer with:\n\nRESULT %s\nOUTCOME win\nWINNER %s\nUNIT ARMY TYPE DESTROYED n ROUTED n\nEND\n", sh.Province, sh.Sides[0].Nations[0])
	return b.String()
}
