package sheet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/trossian"
)

// Context is everything Check needs besides the sheet.
type Context struct {
	Map   *areamap.Map
	Rules *trossian.Rules
	// State is the game before the turn the orders are for.
	State *trossian.State
	// Game is the game's ID; the GAME line must name it.
	Game string
	// Nation is the kingdom the sheet is from (known from the sender's
	// address); empty: the NATION line's.
	Nation game.NationID
	// VerifyPassword tells whether a password is the kingdom's; nil: not
	// checked.
	VerifyPassword func(n game.NationID, password string) bool
	// Deadline and Zone are printed in the reply; Replaces says the sheet
	// replaces an earlier one.
	Deadline time.Time
	Zone     *time.Location
	Replaces bool
}

// Statement is one accepted statement: the sheet lines it came from and
// its order (a courier with the orders it carries).
type Statement struct {
	Line, EndLine int
	Source        string
	Order         engine.Order
}

// Report is a checked sheet: the orders accepted, the diagnostics, and
// what the reply prints.
type Report struct {
	Game       string
	Nation     game.NationID
	NationName string
	Turn       int
	TurnLabel  string
	Winter     bool
	// Refused: the sheet as a whole is not accepted (no header, wrong game,
	// kingdom, password or turn).
	Refused bool
	// Orders are the accepted orders, the couriers carrying theirs.
	Orders      engine.Orders
	Accepted    []Statement
	Annotations map[int]string
	Diagnostics []parser.Diagnostic
	// Receipt is the first 10 hex digits of the SHA-256 of Canonical().
	Receipt  string
	Deadline time.Time
	Zone     *time.Location
	Replaces bool
}

// HasErrors reports an error among the diagnostics.
func (r *Report) HasErrors() bool {
	return slices.ContainsFunc(r.Diagnostics, func(d parser.Diagnostic) bool { return d.Severity == parser.Error })
}

// checker is one sheet's check: the shadow of the kingdom's state as the
// sheet's orders leave it, and what has been accepted.
type checker struct {
	ctx    Context
	r      *Report
	shadow *trossian.State
	sit    *trossian.Situation
	nation game.NationID
	winter bool
	seat   string
	once   map[string]int
	// created are the armies made by this sheet's DETACH orders.
	created map[game.ForceID]bool
}

// Check reads a Trossian order sheet and checks every statement against the
// kingdom's view of the game: the forces are its own; orders for a force
// away from the King's seat ride with a courier sent to it on the same
// sheet ("shall direct their generals via messages sent by couriers"); a
// courier waits at the seat for each; marches follow the borders; every
// order meets its kind's legality check (the engine's own, trossian.Kind);
// purchases are priced, within the census and the winter's funds. Each
// problem is reported with its line, what was read, what was expected and
// what to do; statements with errors are left out, the rest accepted.
func Check(mail string, ctx Context) *Report {
	r := &Report{Game: ctx.Game, Deadline: ctx.Deadline, Zone: ctx.Zone, Replaces: ctx.Replaces, Annotations: map[int]string{}}
	if ctx.State != nil {
		r.Turn = ctx.State.Turn
		r.TurnLabel = ctx.State.Label()
		r.Winter = ctx.State.Calendar.PhaseOf(r.Turn) == trossian.Winter
	}
	if len(mail) > parser.MaxSheetBytes {
		r.refuse(parser.Diagnostic{Severity: parser.Error, Message: fmt.Sprintf("the mail is too long to be an order sheet (more than %d KiB)", parser.MaxSheetBytes>>10),
			Hint: "Send the orders alone, without attachments or long quotations."})
		return r
	}
	opts := parser.FrameOptions{Keywords: Keywords, Nations: ctx.Map.Nations()}
	if ctx.State != nil {
		opts.TurnByName = ctx.State.Calendar.ParseName
	}
	fr := parser.ReadFrame(mail, opts)
	if !fr.Header.Found {
		r.Refused = true
		r.Diagnostics = fr.Diagnostics
		r.Nation = ctx.Nation
		return r
	}
	if !r.checkHeader(fr, ctx) || ctx.State == nil || ctx.Rules == nil {
		if !r.Refused {
			r.refuse(parser.Diagnostic{Line: fr.Header.Line, Severity: parser.Error, Message: "pbem cannot check this sheet: the game has no state or ruleset",
				Hint: "Write to the referee."})
		}
		return r
	}
	r.Diagnostics = append(r.Diagnostics, fr.Diagnostics...)
	r.Orders = engine.Orders{Nation: r.Nation, Turn: r.Turn}
	view := trossian.View(ctx.Map, ctx.Rules, ctx.State, r.Nation)
	c := &checker{ctx: ctx, r: r, nation: r.Nation, winter: r.Winter, once: map[string]int{}, created: map[game.ForceID]bool{}}
	c.shadow = trossian.StateOfView(ctx.Map, ctx.Rules, view, ctx.State.Calendar)
	c.sit = trossian.SituationOf(ctx.Map, ctx.Rules, c.shadow, r.Nation)
	c.seat = c.sit.Seat
	var stmts []Statement
	var prev *parser.FrameLine
	for i := range fr.Lines {
		l := fr.Lines[i]
		o, d := parseStatement(ctx.Map, l, prev)
		prev = &fr.Lines[i]
		if d != nil {
			r.Diagnostics = append(r.Diagnostics, *d)
			continue
		}
		stmts = append(stmts, Statement{Line: l.Line, EndLine: l.EndLine, Source: l.Text, Order: o})
	}
	c.run(stmts)
	parser.SortDiagnostics(r.Diagnostics)
	r.finish()
	return r
}

func (r *Report) refuse(d parser.Diagnostic) {
	r.Refused = true
	r.Diagnostics = append(r.Diagnostics, d)
	r.Accepted, r.Orders.List, r.Annotations = nil, nil, map[int]string{}
}

// checkHeader checks GAME, NATION, PASSWORD and TURN; a wrong one refuses
// the sheet whole.
func (r *Report) checkHeader(fr *parser.Frame, ctx Context) bool {
	h := fr.Header
	line := func(kw string) int {
		if l, ok := h.Lines[kw]; ok {
			return l
		}
		return h.Line
	}
	for _, d := range h.Problems {
		r.refuse(d)
	}
	switch {
	case h.Game == "":
		r.refuse(parser.Diagnostic{Line: h.Line, Severity: parser.Error, Message: "the GAME line names no game", Hint: "Write GAME " + ctx.Game + "."})
	case ctx.Game != "" && !strings.EqualFold(h.Game, ctx.Game):
		r.refuse(parser.Diagnostic{Line: line("GAME"), Severity: parser.Error, Read: h.Game,
			Message: fmt.Sprintf("this sheet is for game %q, but this is game %q", h.Game, ctx.Game),
			Hint:    "Send the sheet to the address of its own game, or correct the GAME line."})
	}
	nation := ctx.Nation
	switch {
	case h.NationID == "" && nation == "":
		r.refuse(parser.Diagnostic{Line: h.Line, Severity: parser.Error, Message: "the sheet has no NATION line", Hint: "Add a line NATION and your kingdom after the GAME line."})
	case h.NationID != "" && nation != "" && h.NationID != nation:
		r.refuse(parser.Diagnostic{Line: line("NATION"), Severity: parser.Error, Read: h.Nation,
			Message: fmt.Sprintf("the sheet is for %s, but it came from the address of %s", h.NationID, nation),
			Hint:    "Send each kingdom's orders from that kingdom's registered address."})
	case nation == "":
		nation = h.NationID
	}
	r.Nation = nation
	if k, ok := ctx.Map.Kingdom(nation); ok {
		r.NationName = k.Name
	}
	if ctx.State != nil && nation != "" {
		if ns, ok := ctx.State.Nation(nation); !ok || ns.Eliminated {
			r.refuse(parser.Diagnostic{Line: line("NATION"), Severity: parser.Error, Read: string(nation),
				Message: fmt.Sprintf("%s gives no orders in this game", nation), Hint: "Check the NATION line."})
		}
	}
	if ctx.VerifyPassword != nil && !r.Refused {
		switch {
		case !h.HasPassword:
			r.refuse(parser.Diagnostic{Line: h.Line, Severity: parser.Error, Message: "the sheet has no PASSWORD line",
				Hint: "Add a line PASSWORD and your kingdom's password after the NATION line."})
		case !ctx.VerifyPassword(nation, h.Password):
			r.refuse(parser.Diagnostic{Line: line("PASSWORD"), Severity: parser.Error, Message: fmt.Sprintf("the password is not %s's", r.NationName),
				Hint: "Copy the password exactly (capitals matter). If you have lost it, write to the referee."})
		}
	}
	if !r.Refused {
		switch {
		case !h.TurnRead:
			r.refuse(parser.Diagnostic{Line: h.Line, Severity: parser.Error, Message: "the sheet has no TURN line",
				Hint: fmt.Sprintf("Add a line TURN %d: the turn these orders are for.", r.Turn)})
		case h.Turn != r.Turn:
			msg := fmt.Sprintf("this sheet is for turn %d, but orders are now taken for %s", h.Turn, r.TurnLabel)
			if h.Turn < r.Turn {
				msg += "; an old sheet sent again is refused so that it cannot change your orders"
			}
			r.refuse(parser.Diagnostic{Line: line("TURN"), Severity: parser.Error, Read: fmt.Sprint(h.Turn), Message: msg,
				Hint: fmt.Sprintf("If these are your orders for this turn, change the line to TURN %d and send the sheet again.", r.Turn)})
		}
	}
	return !r.Refused
}

// finish computes the receipt.
func (r *Report) finish() {
	if r.Refused {
		return
	}
	sum := sha256.Sum256([]byte(r.Canonical()))
	r.Receipt = hex.EncodeToString(sum[:])[:10]
}

// Canonical returns the accepted orders as a sheet, without the password:
// GAME, NATION, TURN, the orders (each courier followed by those it
// carries), END. Checking it again gives the same orders.
func (r *Report) Canonical() string { return r.canonical(false) }

func (r *Report) canonical(annotate bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME %s\nNATION %s\n", r.Game, r.Nation)
	if annotate && r.TurnLabel != "" {
		fmt.Fprintf(&b, "TURN %d   # %s\n", r.Turn, r.TurnLabel)
	} else {
		fmt.Fprintf(&b, "TURN %d\n", r.Turn)
	}
	for i, st := range r.Accepted {
		lines := strings.Split(Format(st.Order), "\n")
		if a := r.Annotations[i]; annotate && a != "" {
			lines[0] += "   # " + a
		}
		b.WriteString(strings.Join(lines, "\n") + "\n")
	}
	b.WriteString("END\n")
	return b.String()
}
