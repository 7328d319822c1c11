package refcmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// The referee's rulings in a campaign played through the seam (the
// Trossian campaign, seed 004): "Chance cards can be both harmful and
// beneficial", a captor of false plans told what they say "as judged by
// the umpire", and "other rule conflicts will be dealt with by the Umpire
// as they occur". A RULE line is one effect of trossian.Ruling, carried
// out by the turn's rulings step (trossian/rulings.go) when the turn
// resolves; an effect that cannot be applied is reported in the turn's
// events, not guessed at. SYW rulings are APPROVE's (rulings.go).
//
//	RULE AP Norhaven +5              (AP to the bank of a city)
//	RULE COURIERS varn +1            (couriers at a kingdom's seat)
//	RULE CONTROL Wendmoor carrowland (or NONE: unclaimed)
//	RULE MOVE N2 TO Elkmoor          (an army or navy placed)
//	RULE ADD N1 2 line-infantry      (stands to an army)
//	RULE REMOVE N1 1 line-infantry   (stands from an army; all when none named)
//	RULE TELL ostmark "The captured plans say Norvale marches on Kessel."
//	RULE ALLIES norvale ostmark      (and WAR: they go to war)

// Rule is one effect of a referee's ruling.
type Rule struct {
	Line   int
	Effect trossian.Effect
}

// ruleKinds are this family's kinds.
var ruleKinds = []Kind{
	{Verb: "rule", Keyword: "RULE", Family: "rule", Zero: Rule{}, Parse: parseRule,
		Example: "RULE COURIERS varn +1"},
}

// ruleWords are the effects a RULE line names, in the order the docs list
// them.
var ruleWords = []string{"AP", "COURIERS", "CONTROL", "MOVE", "ADD", "REMOVE", "TELL", "ALLIES", "WAR"}

// RULE effect …
func parseRule(r *parser.Reader, at Reading) Command {
	const hint = "Write RULE AP city ±n, COURIERS kingdom ±n, CONTROL province kingdom|NONE, MOVE force TO province, " +
		"ADD army stands, REMOVE army [stands], TELL kingdom \"text\", ALLIES kingdom kingdom or WAR kingdom kingdom (docs/referee.md)."
	word := func(what string) string {
		it := r.Next()
		if it.Type != parser.TokenWord {
			r.Expected(it, what, hint)
		}
		return it.Val
	}
	delta := func() int {
		sign := 1
		if it := r.Peek(); it.Type == parser.TokenSign {
			r.Next()
			if it.Val == "-" {
				sign = -1
			}
		}
		return sign * r.Number("the change, such as +5 or -2", 1000)
	}
	nation := func() game.NationID { return game.NationID(strings.ToLower(word("a kingdom's id, such as norvale"))) }
	stands := func(need bool) trossian.Stands {
		rest := r.Rest()
		if rest == "" && !need {
			return nil
		}
		s, err := trossian.ParseStands(rest)
		if err != nil || s.Total() == 0 {
			r.Fail(r.Peek(), fmt.Sprintf("expected stands such as \"2 line-infantry, 1 hq\", read %s", strconv.Quote(rest)), hint)
		}
		r.SkipRest()
		return s
	}
	var e trossian.Effect
	switch kw := r.Keyword(hint, ruleWords...); kw {
	case "AP":
		e = trossian.Effect{Kind: trossian.EffectAP, Province: word("a city, such as Norhaven"), Delta: delta()}
	case "COURIERS":
		e = trossian.Effect{Kind: trossian.EffectCouriers, Nation: nation(), Delta: delta()}
	case "CONTROL":
		e = trossian.Effect{Kind: trossian.EffectControl, Province: word("a province, such as Wendmoor")}
		if n := nation(); !strings.EqualFold(string(n), "none") {
			e.Nation = n
		}
	case "MOVE":
		e = trossian.Effect{Kind: trossian.EffectMove, Force: game.ForceID(strings.ToUpper(word("an army or navy, such as N2")))}
		r.Keyword("Write RULE MOVE force TO province.", "TO")
		e.Province = word("a province, such as Elkmoor")
	case "ADD":
		e = trossian.Effect{Kind: trossian.EffectAdd, Force: game.ForceID(strings.ToUpper(word("an army, such as N1")))}
		e.Stands = stands(true)
	case "REMOVE":
		e = trossian.Effect{Kind: trossian.EffectRemove, Force: game.ForceID(strings.ToUpper(word("an army, such as N1")))}
		e.Stands = stands(false)
	case "TELL":
		e = trossian.Effect{Kind: trossian.EffectTell, Nation: nation()}
		e.Text = r.FreeText("what the kingdom is told")
	case "ALLIES", "WAR":
		e = trossian.Effect{Kind: trossian.EffectAllies, Nation: nation(), Other: nation()}
		if kw == "WAR" {
			e.Kind = trossian.EffectWar
		}
	}
	r.End("the effect")
	return Rule{Line: at.Line, Effect: e}
}

// Verb returns "rule".
func (Rule) Verb() string { return "rule" }

// SourceLine returns the mail line the Rule command was read from.
func (c Rule) SourceLine() int { return c.Line }

// Format prints the RULE line as parseRule reads it.
func (c Rule) Format(*parser.Vocabulary) string {
	e := c.Effect
	switch e.Kind {
	case trossian.EffectAP:
		return fmt.Sprintf("RULE AP %s %+d", e.Province, e.Delta)
	case trossian.EffectCouriers:
		return fmt.Sprintf("RULE COURIERS %s %+d", e.Nation, e.Delta)
	case trossian.EffectControl:
		n := string(e.Nation)
		if n == "" {
			n = "NONE"
		}
		return fmt.Sprintf("RULE CONTROL %s %s", e.Province, n)
	case trossian.EffectMove:
		return fmt.Sprintf("RULE MOVE %s TO %s", e.Force, e.Province)
	case trossian.EffectAdd:
		return fmt.Sprintf("RULE ADD %s %s", e.Force, e.Stands)
	case trossian.EffectRemove:
		if len(e.Stands) == 0 {
			return fmt.Sprintf("RULE REMOVE %s", e.Force)
		}
		return fmt.Sprintf("RULE REMOVE %s %s", e.Force, e.Stands)
	case trossian.EffectTell:
		return fmt.Sprintf("RULE TELL %s %s", e.Nation, strconv.Quote(e.Text))
	case trossian.EffectAllies:
		return fmt.Sprintf("RULE ALLIES %s %s", e.Nation, e.Other)
	case trossian.EffectWar:
		return fmt.Sprintf("RULE WAR %s %s", e.Nation, e.Other)
	}
	return "RULE " + strings.ToUpper(e.Kind)
}

// Ruling is the ruling the turn carries out.
func (c Rule) Ruling() trossian.Ruling {
	return trossian.Ruling{Note: c.Format(nil), Effects: []trossian.Effect{c.Effect}}
}
