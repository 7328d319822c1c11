package parser

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The canonical form: every statement printed one way — keywords in full and
// upper case, force IDs upper case, nations by ID, cities as on the map,
// hexes in four digits, units as "24 C infantry". Parsing the canonical form
// gives back the same statements (FuzzParse checks it).

// FormatStatement prints a statement in canonical form. A treaty takes
// several lines. A password change prints as a comment: the new password is
// not repeated in mail.
func FormatStatement(st *Statement, v *Vocabulary) string {
	switch {
	case st.Order != nil:
		return FormatOrder(st.Order, v)
	case st.Treaty != nil:
		t := st.Treaty
		ps := make([]string, len(t.Parties))
		for i, n := range t.Parties {
			ps[i] = string(n)
		}
		return fmt.Sprintf("TREATY %s PARTIES %s TEXT\n%s\nENDTREATY", quote(t.Title), strings.Join(ps, ", "), t.Text)
	case st.Attest != nil:
		return "ATTEST " + st.Attest.Treaty
	case st.Lift != nil:
		return "LIFT " + st.Lift.Treaty + " " + string(st.Lift.Offender)
	case st.Request != nil:
		return "REQUEST " + quote(st.Request.Text)
	case st.Withdraw != nil:
		return "WITHDRAW REQUEST " + st.Withdraw.Token
	case st.Password != nil:
		return "# PASSWORD CHANGE accepted (the new password is not repeated here)"
	case st.Final != nil:
		return "FINAL"
	case st.Forecast != nil:
		if st.Forecast.On {
			return "FORECAST ON"
		}
		return "FORECAST OFF"
	}
	return ""
}

// FormatOrder prints an engine order in canonical form.
func FormatOrder(o engine.Order, v *Vocabulary) string {
	switch o := o.(type) {
	case engine.Move:
		if len(o.Path) == 0 {
			return fmt.Sprintf("MOVE %s TO %s", o.Force, formatPlace(game.AtHex(o.Dest), v))
		}
		return fmt.Sprintf("MOVE %s %s", o.Force, hexList(o.Path))
	case engine.SetStance:
		return fmt.Sprintf("STANCE %s %s", o.Force, strings.ToUpper(o.Stance.String()))
	case engine.Retreat:
		switch {
		case o.Always:
			return fmt.Sprintf("RETREAT %s ALWAYS", o.Force)
		case o.Never:
			return fmt.Sprintf("RETREAT %s NEVER", o.Force)
		}
		return fmt.Sprintf("RETREAT %s IF ODDS %s", o.Force, formatOdds(o.Odds))
	case engine.Pursue:
		if o.On {
			return "PURSUE " + string(o.Force)
		}
		return "NO PURSUE " + string(o.Force)
	case engine.OnContact:
		if o.Continue {
			return fmt.Sprintf("ON CONTACT %s CONTINUE", o.Force)
		}
		return fmt.Sprintf("ON CONTACT %s STOP", o.Force)
	case engine.SlowEnemy:
		if o.On {
			return "SLOW ENEMY " + string(o.Force)
		}
		return "NO SLOW ENEMY " + string(o.Force)
	case engine.Split:
		as := ""
		if o.NewID != "" {
			as = " AS " + string(o.NewID)
		}
		return fmt.Sprintf("SPLIT %s%s %s", o.Force, as, FormatContents(Contents{Troops: o.Troops, Guns: o.Guns, Ships: o.Ships, Leaders: o.Leaders}, v))
	case engine.Merge:
		return fmt.Sprintf("MERGE %s INTO %s", o.Force, o.Into)
	case engine.AssignLeader:
		return fmt.Sprintf("ASSIGN %s TO %s", leaderName(o.Leader), o.To)
	case engine.DetachLeader:
		if o.NewID != "" {
			return fmt.Sprintf("DETACH %s AS %s", leaderName(o.Leader), o.NewID)
		}
		return "DETACH " + leaderName(o.Leader)
	case engine.Garrison:
		return fmt.Sprintf("GARRISON %s %s", o.Force, cityName(o.City))
	case engine.Fieldworks:
		return fmt.Sprintf("FIELDWORKS %s %d", o.Force, o.Inches)
	case engine.Besiege:
		if o.MaskOnly {
			return fmt.Sprintf("MASK %s %s", o.Force, cityName(o.City))
		}
		return fmt.Sprintf("BESIEGE %s %s", o.Force, cityName(o.City))
	case engine.Assault:
		if o.Infantry > 0 {
			return fmt.Sprintf("ASSAULT %s %s WITH %d", o.Force, cityName(o.City), o.Infantry)
		}
		return fmt.Sprintf("ASSAULT %s %s WITH ALL", o.Force, cityName(o.City))
	case engine.Bombard:
		k := "BREACH"
		if o.CounterFire {
			k = "GUNS"
		}
		return fmt.Sprintf("BOMBARD %s %s %s", o.Force, cityName(o.City), k)
	case engine.Embark:
		return fmt.Sprintf("EMBARK %s ON %s", o.Force, o.Fleet)
	case engine.Sail:
		parts := make([]string, len(o.Path))
		for i, pl := range o.Path {
			parts[i] = formatPlace(pl, v)
		}
		return fmt.Sprintf("SAIL %s %s", o.Fleet, strings.Join(parts, " "))
	case engine.Debark:
		if o.Hex.IsZero() {
			return "DEBARK " + string(o.Force)
		}
		return fmt.Sprintf("DEBARK %s AT %s", o.Force, formatPlace(game.AtHex(o.Hex), v))
	case engine.FleetStance:
		if o.Avoid {
			return fmt.Sprintf("FLEET %s AVOID", o.Fleet)
		}
		return fmt.Sprintf("FLEET %s SEEK", o.Fleet)
	case engine.Repair:
		return "REPAIR " + string(o.Fleet)
	case engine.GrantSupply:
		if o.Withdraw {
			return fmt.Sprintf("WITHDRAW SUPPLY %s FROM %s", o.Depot, o.Nation)
		}
		return fmt.Sprintf("SUPPLY %s TO %s", o.Depot, o.Nation)
	case engine.Special:
		return "SPECIAL " + quote(o.Text)
	case engine.Buy:
		if o.What.Depot && o.What.Aboard != "" {
			return fmt.Sprintf("BUY %s AT %s ABOARD %s", formatPurchase(o.What), cityName(o.City), o.What.Aboard)
		}
		return fmt.Sprintf("BUY %s AT %s", formatPurchase(o.What), cityName(o.City))
	case engine.Field:
		switch {
		case o.All:
			return "FIELD ALL"
		case o.Depot != "":
			return "FIELD DEPOT " + o.Depot
		}
		return "FIELD " + string(o.Force)
	case engine.Disband:
		c := FormatContents(Contents{Troops: o.Troops, Guns: o.Guns, Ships: o.Ships}, v)
		if c == "" {
			return "DISBAND " + string(o.Force)
		}
		return fmt.Sprintf("DISBAND %s %s", o.Force, c)
	case engine.Transfer:
		switch {
		case o.Depot != "":
			return fmt.Sprintf("TRANSFER DEPOT %s TO %s", o.Depot, o.To)
		case o.Leader != "":
			return fmt.Sprintf("TRANSFER %s %s TO %s", strings.ToUpper(v.roleOf(o.Leader)), leaderName(o.Leader), o.To)
		}
		return fmt.Sprintf("TRANSFER %s %s TO %s", o.Force, FormatContents(Contents{Guns: o.Guns, Ships: o.Ships}, v), o.To)
	case engine.MoveTreasury:
		return fmt.Sprintf("TREASURY FROM %s %d TO %s", cityName(o.From), o.Amount, o.To)
	case engine.TemporaryCapitol:
		return "TEMPORARY CAPITOL " + cityName(o.City)
	}
	return fmt.Sprintf("# unknown order %T", o)
}

func hexList(hs []game.Hex) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, " ")
}

func formatPlace(pl game.Place, v *Vocabulary) string {
	if pl.IsSea() {
		return string(pl.Sea)
	}
	if name, ok := v.CityAt(pl.Hex); ok {
		return cityName(name)
	}
	return pl.Hex.String()
}

// FormatContents prints a list of units in canonical order: troops as given,
// then guns, ships and leaders.
func FormatContents(c Contents, v *Vocabulary) string {
	var parts []string
	for _, t := range c.Troops {
		parts = append(parts, fmt.Sprintf("%d %s %s", t.Count, t.Grade, t.Arm.Keyword(t.Count)))
	}
	for _, g := range c.Guns {
		s := fmt.Sprintf("%d %s", g.Count, g.Kind)
		if g.Owner != "" {
			s += " OF " + string(g.Owner)
		}
		parts = append(parts, s)
	}
	ship := func(n int, w string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	ship(c.Ships.Warships, "warship")
	ship(c.Ships.DamagedWarships, "damaged-warship")
	ship(c.Ships.Transports, "transport")
	ship(c.Ships.DamagedTransports, "damaged-transport")
	for _, l := range c.Leaders {
		parts = append(parts, v.roleOf(l)+" "+leaderName(l))
	}
	return strings.Join(parts, ", ")
}

func formatPurchase(p engine.Purchase) string {
	switch {
	case p.Troops != nil:
		return fmt.Sprintf("%d %s %s", p.Troops.Count, p.Troops.Grade, p.Troops.Arm.Keyword(p.Troops.Count))
	case p.Gun != 0:
		return fmt.Sprintf("%d %s", p.Count, p.Gun)
	case p.Depot:
		return "DEPOT"
	case p.Warships > 0:
		return fmt.Sprintf("%d warship", p.Warships)
	case p.Transports > 0:
		return fmt.Sprintf("%d transport", p.Transports)
	case p.Leader != nil:
		id := leaderName(p.Leader.ID)
		s := strings.ToUpper(p.Leader.Role.String()) + " " + id
		if p.Leader.Name != p.Leader.ID || strings.HasPrefix(id, `"`) {
			s += " " + quote(p.Leader.Name)
		}
		return s
	}
	return "nothing"
}

// formatOdds prints a ratio as the smallest fraction a:b (b ≤ 99) that gives
// exactly the same float64, so that 1.5 prints as 3:2.
func formatOdds(x float64) string {
	for b := 1; b <= 99; b++ {
		a := math.Round(x * float64(b))
		if a >= 1 && a <= 999 && a/float64(b) == x {
			return fmt.Sprintf("%d:%d", int(a), b)
		}
	}
	return fmt.Sprintf("%d:100", int(math.Round(x*100)))
}

// quote prints a string in double quotes, doubling any quote inside.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

var plainName = lazyRegexp(`^[\p{L}\p{M}][\p{L}\p{M}\p{N}'._/&-]*( [\p{L}\p{M}][\p{L}\p{M}\p{N}'._/&-]*)*$`)

// reserved are words that, as a name, could be read as a keyword where the
// name stands; such names are quoted.
var reserved = map[string]bool{"to": true, "at": true, "as": true, "in": true, "into": true, "with": true,
	"from": true, "and": true, "of": true, "general": true, "admiral": true, "leader": true, "all": true,
	"breach": true, "guns": true, "crowns": true, "parties": true, "text": true, "along": true, "via": true}

// cityName prints a city's name bare when it is one plain word, else in
// quotes.
func cityName(s string) string {
	if plainName().MatchString(s) && !strings.HasSuffix(s, ".") && !strings.Contains(s, " ") {
		ok := true
		for _, w := range strings.Fields(s) {
			if reserved[fold(w)] {
				ok = false
			}
		}
		if ok {
			return s
		}
	}
	return quote(s)
}

// leaderName prints a leader's ID bare when it is one plain word.
func leaderName(s string) string {
	if plainName().MatchString(s) && !strings.Contains(s, " ") && !reserved[fold(s)] && !strings.HasSuffix(s, ".") {
		return s
	}
	return quote(s)
}

// lazyRegexp compiles expr when it is first used, not when the program
// starts: every pbem command carries the parser, and the Unicode classes
// of these patterns take a large part of a millisecond to compile.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
