package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
)

// Requests survive a replacement sheet. A sheet that replaces the nation's
// sheet in force keeps that sheet's requests — its REQUESTs and SPECIAL
// orders, pending or approved by the referee — unless it takes them back
// by name (WITHDRAW REQUEST token). The daemon gives the checker the
// requests of the sheet in force (CheckContext.Open); after every
// statement is checked, those neither withdrawn nor sent again are carried
// over into the new sheet's accepted statements — a REQUEST with its token,
// a SPECIAL as an order — so that the orders as understood, the receipt
// and the stored sheet all show what is in force; the answer lists what was
// carried over and what was withdrawn (Report.Carried, Withdrawn). A
// request the referee denied has nothing left to keep: it is not carried
// (Report.Lapsed).

// OpenRequest is a request of the nation's sheet in force, as the daemon
// knows it.
type OpenRequest struct {
	Token string // "R1a2b3c" (REQUEST) or "S1a2b3c" (SPECIAL)
	// Text is the request's text (a SPECIAL's without the keyword).
	Text    string
	Special bool `json:",omitempty"`
	// Ruling is the referee's last word on it: "" while pending,
	// "approved" or "denied".
	Ruling string `json:",omitempty"`
}

// Status says where a request stands, for people.
func (o OpenRequest) Status() string {
	switch o.Ruling {
	case "approved":
		return "approved by the referee"
	case "denied":
		return "denied by the referee"
	}
	return "awaiting the referee"
}

// Label names the request for people: `R1a2b3c ("May Eisenmark …")`.
func (o OpenRequest) Label() string {
	kw := "REQUEST"
	if o.Special {
		kw = "SPECIAL"
	}
	return fmt.Sprintf("%s %s %q", o.Token, kw, clip(strings.Join(strings.Fields(o.Text), " "), 60))
}

// IsRequestToken reports a request token as the answers print them: R (a
// REQUEST) or S (a SPECIAL) and six hex digits, in any case.
func IsRequestToken(s string) bool {
	if len(s) != 7 || !strings.ContainsRune("RrSs", rune(s[0])) {
		return false
	}
	for _, r := range s[1:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// NormalToken writes a request token as pbem prints it: "R1a2b3c".
func NormalToken(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
}

// checkWithdraw checks a WITHDRAW REQUEST: the token must be a request of
// the sheet in force.
func (c *checker) checkWithdraw(w *Withdraw) {
	i := slices.IndexFunc(c.ctx.Open, func(o OpenRequest) bool { return o.Token == w.Token })
	switch {
	case i >= 0:
		c.withdrawn[w.Token] = true
		c.annotation = "withdraws " + c.ctx.Open[i].Label() + ", " + c.ctx.Open[i].Status()
	case !c.ctx.Replaces:
		c.warn(w.Token, fmt.Sprintf("no earlier sheet of yours is in force, so there is no request %s to withdraw", w.Token),
			"Leave the line out, or check that this sheet is for the turn your request was sent in.")
	default:
		var have []string
		for _, o := range c.ctx.Open {
			have = append(have, o.Token)
		}
		open := "your sheet in force carries no request"
		if len(have) > 0 {
			open = "your sheet in force carries " + andList(have)
		}
		c.reject(w.Token, fmt.Sprintf("no request %s is on your sheet in force: %s%s", w.Token, open, didYouMean(suggest(w.Token, have))),
			"Copy the token from the answer to your earlier sheet.")
	}
}

// carryOver carries the sheet in force's requests over into this sheet,
// after every statement is checked and accepted.
func (c *checker) carryOver() {
	sent := map[string]bool{}
	for _, q := range c.r.Requests {
		sent[q.Token], sent[q.Text] = true, true
	}
	specials := map[string]int{}
	for _, o := range c.r.Orders.List {
		if sp, ok := o.(engine.Special); ok {
			specials[sp.Text]++
		}
	}
	for _, o := range c.ctx.Open {
		switch {
		case c.withdrawn[o.Token]:
			c.r.Withdrawn = append(c.r.Withdrawn, o)
		case !o.Special && (sent[o.Token] || sent[o.Text]):
			// Sent again (the same text has the same token).
		case o.Special && specials[o.Text] > 0:
			specials[o.Text]--
		case o.Ruling == "denied":
			c.r.Lapsed = append(c.r.Lapsed, o)
		default:
			st := Statement{Request: &Request{Text: o.Text, Token: o.Token}}
			if o.Special {
				st = Statement{Order: engine.Special{Text: o.Text}}
			}
			c.r.accept(st, fmt.Sprintf("%s, carried over from your earlier sheet, %s", o.Token, o.Status()))
			c.r.Carried = append(c.r.Carried, o)
		}
	}
}

// carryText is what the answer says about the requests of the sheet this
// one replaces ("" when it carried none).
func (r *Report) carryText() string {
	var b strings.Builder
	list := func(head string, os []OpenRequest) {
		if len(os) == 0 {
			return
		}
		wrap(&b, head, "")
		for _, o := range os {
			wrap(&b, "- "+o.Label()+", "+o.Status(), "  ")
		}
	}
	list("Carried over from your earlier sheet (they stand until you WITHDRAW REQUEST them by token):", r.Carried)
	list("Withdrawn by this sheet (the referee is told; a ruling on them no longer applies):", r.Withdrawn)
	list("Not carried over (denied: nothing is left of them):", r.Lapsed)
	if b.Len() == 0 {
		return ""
	}
	return b.String() + "\n"
}
