package parser

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

// MaxSheetBytes is the largest sheet Check reads; a longer mail is refused
// (the mail layer has its own, larger limits).
const MaxSheetBytes = 512 << 10

// CheckContext is everything Check needs besides the sheet.
type CheckContext struct {
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// State is the game as it stands before the turn the orders are for.
	State *engine.State
	// Game is the game's ID; the sheet's GAME line must name it.
	Game string
	// Nation is the nation the sheet is from (known from the sender's
	// address). Empty: taken from the sheet's NATION line. When both are
	// given they must agree.
	Nation game.NationID
	// Turn is the turn orders are being taken for; 0 means State.Turn.
	Turn int
	// VerifyPassword tells whether a password is the nation's. Nil means
	// passwords are not checked (the CLI's offline check).
	VerifyPassword func(nation game.NationID, password string) bool
	// Deadline is when the turn is resolved (zero: none is printed); Zone is
	// the game's time zone for printing it (nil: Deadline's own location).
	Deadline time.Time
	Zone     *time.Location
	// Replaces is set when this sheet replaces one received earlier for the
	// same turn; the reply says so.
	Replaces bool
	// Open are the requests of the sheet this one replaces (its REQUESTs
	// and SPECIALs, with the referee's rulings on them): carried over
	// unless withdrawn (carry.go).
	Open []OpenRequest
}

// Report is the result of checking a sheet: the orders accepted, the
// messages, and everything the reply prints.
type Report struct {
	Game       string
	Nation     game.NationID
	NationName string
	Turn       int
	// TurnLabel is the turn for people: "Turn 3, June 1752".
	TurnLabel string
	YearEnd   bool
	// Refused is set when the sheet as a whole is not accepted (no header,
	// wrong game, nation, password or turn): nothing on it counts.
	Refused bool
	// Orders are the accepted engine orders, in sheet order.
	Orders engine.Orders
	// Treaties, Attestations and Requests are the accepted sheet-level
	// statements; PasswordChange is set when the sheet changes the password.
	Treaties       []Treaty
	Attestations   []Attest
	Lifts          []Lift // penalties the sender, aggrieved, ends
	Requests       []Request
	PasswordChange *PasswordChange
	// Carried are the requests of the sheet replaced that this one keeps
	// (in Requests, or a SPECIAL in Orders); Withdrawn those it takes back
	// (WITHDRAW REQUEST); Lapsed the denied ones, not carried (carry.go).
	Carried, Withdrawn, Lapsed []OpenRequest
	// Final is set when the sheet holds a FINAL line: the nation's last
	// orders for the turn (the daemon marks the sheet final when it has no
	// errors).
	Final bool
	// Forecast is the sheet's FORECAST line: "on", "off", or "" when it
	// has none (the nation's earlier choice, or the game's default,
	// stands).
	Forecast string `json:",omitempty"`
	// Accepted lists every accepted statement in sheet order, with
	// Annotations (by index into Accepted) saying what the checker worked
	// out: a route, a new force's ID, a request's token.
	Accepted    []Statement
	Annotations map[int]string
	// Organised is the nation's view as a State after the sheet's accepted
	// organisation orders, as the engine's organisation step will leave it
	// (engine.Organiser): its forces split, merged and led as ordered, with
	// their new IDs, stances and standing orders. A forecast of the turn
	// goes on from it (engine.ResolveSteps). Nil at the year-end and for a
	// refused sheet.
	Organised *engine.State `json:"-"`
	// Diagnostics are the errors, warnings and notes, by line.
	Diagnostics []Diagnostic
	// Receipt identifies the accepted orders: the first 10 hex digits of the
	// SHA-256 of their canonical form.
	Receipt  string
	Deadline time.Time
	Zone     *time.Location
	Replaces bool

	vocab *Vocabulary
}

// HasErrors reports whether any diagnostic is an error.
func (r *Report) HasErrors() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of diagnostics of a severity.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// ExitCode is what `pbem check` exits with: 0 when the sheet has no errors,
// 1 otherwise.
func (r *Report) ExitCode() int {
	if r.HasErrors() || r.Refused {
		return 1
	}
	return 0
}

// CheckReader reads a sheet (at most MaxSheetBytes) and checks it: the entry
// point for `pbem check FILE|-`.
func CheckReader(rd io.Reader, ctx CheckContext) (*Report, error) {
	b, err := io.ReadAll(io.LimitReader(rd, MaxSheetBytes+1))
	if err != nil {
		return nil, err
	}
	return Check(string(b), ctx), nil
}

// Check reads an order sheet and checks every statement against the game:
// that the forces exist, are the nation's and are where the order assumes;
// that marches and voyages are legal; that purchases are in the Cost Chart,
// placed where the rules allow and affordable; that every order is of the
// turn's kind. Every problem is reported with its line; statements with
// errors are left out, the others are accepted.
//
// The checker learns nothing a player could not see: it reads the nation's
// engine.View (its own forces in full, foreign forces as general
// intelligence and scouting show them, public cities and treaties), and its
// vocabulary holds only the leaders that View names.
func Check(sheet string, ctx CheckContext) *Report {
	view := checkView(sheet, ctx)
	v := NewVocabularyFromView(ctx.Map, view)
	r := &Report{Game: ctx.Game, Deadline: ctx.Deadline, Zone: ctx.Zone, Replaces: ctx.Replaces,
		Annotations: map[int]string{}, vocab: v}
	turn := ctx.Turn
	if turn == 0 && ctx.State != nil {
		turn = ctx.State.Turn
	}
	r.Turn = turn
	if ctx.State != nil {
		r.TurnLabel = ctx.State.Calendar.Label(turn)
		r.YearEnd = ctx.State.Calendar.Date(turn).IsYearEnd()
	}
	if len(sheet) > MaxSheetBytes {
		r.refuse(Diagnostic{Severity: Error, Message: fmt.Sprintf("the mail is too long to be an order sheet (more than %d KiB)", MaxSheetBytes>>10),
			Hint: "Send the orders alone, without attachments or long quotations."})
		r.finish()
		return r
	}
	sh := Parse(sheet, v)
	if !sh.Header.Found {
		r.Refused = true
		r.Diagnostics = sh.Diagnostics
		r.Nation = ctx.Nation
		r.NationName = v.nationName(ctx.Nation)
		r.finish()
		return r
	}
	if !r.checkHeader(sh, ctx, v) {
		r.finish()
		return r
	}
	if ctx.Rules == nil {
		// No default edition: the checker does not guess the rules.
		r.refuse(Diagnostic{Line: sh.Header.Line, Severity: Error,
			Message: "pbem cannot check this sheet: the game names no ruleset",
			Hint:    "Write to the referee: the game's configuration must name its ruleset (" + strings.Join(ruleset.IDs(), ", ") + ")."})
		r.finish()
		return r
	}
	r.Diagnostics = append(r.Diagnostics, sh.Diagnostics...)
	r.Orders = engine.Orders{Nation: r.Nation, Turn: turn}
	if view == nil || view.Nation != r.Nation {
		view = checkView("", CheckContext{Map: ctx.Map, Rules: ctx.Rules, State: ctx.State, Nation: r.Nation})
	}
	newChecker(ctx, view, v, r).run(sh.Statements)
	sortDiagnostics(r.Diagnostics)
	r.finish()
	return r
}

// checkView returns the View of the nation a sheet is from (the context's,
// or the one its NATION line names), or nil when there is no game state or
// nation to take it from.
func checkView(sheet string, ctx CheckContext) *engine.NationView {
	nation := ctx.Nation
	if nation == "" && sheet != "" {
		nation = Parse(sheet, NewVocabulary(ctx.Map, nil)).Header.NationID
	}
	if nation == "" || ctx.State == nil || ctx.Rules == nil {
		return nil
	}
	m := ctx.Map
	if m == nil {
		m = &hexmap.Map{}
		m.Build()
	}
	return engine.View(m, ctx.Rules, ctx.State, nation)
}

func (r *Report) refuse(d Diagnostic) {
	r.Refused = true
	r.Diagnostics = append(r.Diagnostics, d)
}

// checkHeader validates GAME, NATION, PASSWORD and TURN. A sheet with a
// wrong one is refused whole: nothing of it is read further, and nothing
// about the game is revealed in the reply.
func (r *Report) checkHeader(sh *Sheet, ctx CheckContext, v *Vocabulary) bool {
	h := sh.Header
	src := func(kw string) int {
		if l, ok := h.Lines[kw]; ok {
			return l
		}
		return h.Line
	}
	// Header problems found while reading (an unknown nation, a bad turn
	// number) refuse the sheet too.
	for _, d := range h.Problems {
		r.refuse(d)
	}
	switch {
	case h.Game == "":
		r.refuse(Diagnostic{Line: h.Line, Severity: Error, Message: "the GAME line names no game",
			Hint: "Write GAME " + ctx.Game + "."})
	case ctx.Game != "" && fold(h.Game) != fold(ctx.Game):
		r.refuse(Diagnostic{Line: src("GAME"), Severity: Error, Read: h.Game,
			Message: fmt.Sprintf("this sheet is for game %q, but this is game %q", h.Game, ctx.Game),
			Hint:    "Send the sheet to the address of its own game, or correct the GAME line."})
	}
	nation := ctx.Nation
	switch {
	case h.Nation == "" && nation == "":
		r.refuse(Diagnostic{Line: h.Line, Severity: Error, Message: "the sheet has no NATION line",
			Hint: "Add a line NATION and your nation after the GAME line."})
	case h.NationID != "" && nation != "" && h.NationID != nation:
		r.refuse(Diagnostic{Line: src("NATION"), Severity: Error, Read: h.Nation,
			Message: fmt.Sprintf("the sheet is for %s, but it came from the address of %s", v.nationName(h.NationID), v.nationName(nation)),
			Hint:    "Send each nation's orders from that nation's registered address."})
	case nation == "":
		nation = h.NationID
	}
	r.Nation = nation
	r.NationName = v.nationName(nation)
	if nation != "" && ctx.State != nil {
		ns, ok := ctx.State.Nation(nation)
		switch {
		case !ok:
			r.refuse(Diagnostic{Line: src("NATION"), Severity: Error, Read: string(nation),
				Message: fmt.Sprintf("%s takes no part in this game", v.nationName(nation)), Hint: "Check the NATION line."})
		case ns.Eliminated:
			r.refuse(Diagnostic{Line: src("NATION"), Severity: Error, Read: string(nation),
				Message: fmt.Sprintf("%s has been eliminated and gives no more orders", v.nationName(nation))})
		}
	}
	if ctx.VerifyPassword != nil && !r.Refused {
		switch {
		case !h.HasPassword:
			r.refuse(Diagnostic{Line: h.Line, Severity: Error, Message: "the sheet has no PASSWORD line",
				Hint: "Add a line PASSWORD and your nation's password after the NATION line."})
		case !ctx.VerifyPassword(nation, h.Password):
			r.refuse(Diagnostic{Line: src("PASSWORD"), Severity: Error,
				Message: fmt.Sprintf("the password is not %s's", v.nationName(nation)),
				Hint:    "Copy the password exactly (capitals matter). If you have lost it, write to the referee."})
		}
	}
	if !r.Refused {
		switch {
		case h.Turn == 0 && h.Lines["TURN"] == 0:
			r.refuse(Diagnostic{Line: h.Line, Severity: Error, Message: "the sheet has no TURN line",
				Hint: fmt.Sprintf("Add a line TURN %d: the turn these orders are for.", r.Turn)})
		case h.Turn != r.Turn && (h.Turn != 0 || h.TurnRead):
			msg := fmt.Sprintf("this sheet is for turn %d, but orders are now taken for %s", h.Turn, r.TurnLabel)
			if h.Turn < r.Turn {
				msg += "; an old sheet sent again is refused so that it cannot change your orders"
			}
			r.refuse(Diagnostic{Line: src("TURN"), Severity: Error, Read: itoa(h.Turn), Message: msg,
				Hint: fmt.Sprintf("If these are your orders for this turn, change the line to TURN %d and send the sheet again.", r.Turn)})
		}
	}
	return !r.Refused
}

// accept adds an accepted statement to the report.
func (r *Report) accept(st Statement, annot string) {
	if annot != "" {
		r.Annotations[len(r.Accepted)] = annot
	}
	r.Accepted = append(r.Accepted, st)
	switch {
	case st.Order != nil:
		r.Orders.List = append(r.Orders.List, st.Order)
	case st.Treaty != nil:
		r.Treaties = append(r.Treaties, *st.Treaty)
	case st.Attest != nil:
		r.Attestations = append(r.Attestations, *st.Attest)
	case st.Lift != nil:
		r.Lifts = append(r.Lifts, *st.Lift)
	case st.Request != nil:
		r.Requests = append(r.Requests, *st.Request)
	case st.Password != nil:
		r.PasswordChange = st.Password
	case st.Final != nil:
		r.Final = true
	case st.Forecast != nil:
		r.Forecast = "off"
		if st.Forecast.On {
			r.Forecast = "on"
		}
	}
}

// finish computes the receipt.
func (r *Report) finish() {
	if r.Refused {
		r.Accepted, r.Orders.List, r.Annotations = nil, nil, map[int]string{}
		r.Treaties, r.Attestations, r.Lifts, r.Requests, r.PasswordChange = nil, nil, nil, nil, nil
		r.Carried, r.Withdrawn, r.Lapsed = nil, nil, nil
		r.Final = false
		r.Forecast = ""
		return
	}
	sum := sha256.Sum256([]byte(r.canonical(false)))
	r.Receipt = hex.EncodeToString(sum[:])[:10]
}

// Canonical returns the accepted statements as a sheet in canonical form,
// without the password: GAME, NATION, TURN, the statements, END. Parsing it
// gives back the same statements.
func (r *Report) Canonical() string { return r.canonical(false) }

func (r *Report) canonical(annotate bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME %s\nNATION %s\n", r.Game, r.Nation)
	if annotate && r.TurnLabel != "" {
		fmt.Fprintf(&b, "TURN %d   # %s\n", r.Turn, r.TurnLabel)
	} else {
		fmt.Fprintf(&b, "TURN %d\n", r.Turn)
	}
	for i := range r.Accepted {
		line := FormatStatement(&r.Accepted[i], r.vocab)
		if a := r.Annotations[i]; annotate && a != "" {
			line += "   # " + a
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteString("END\n")
	return b.String()
}

// Canonical prints a parsed sheet in canonical form: the header without the
// password, every statement read, END.
func (sh *Sheet) Canonical(v *Vocabulary) string {
	var b strings.Builder
	h := sh.Header
	nation := string(h.NationID)
	if nation == "" {
		nation = h.Nation
	}
	fmt.Fprintf(&b, "GAME %s\nNATION %s\nTURN %d\n", h.Game, nation, h.Turn)
	for i := range sh.Statements {
		b.WriteString(FormatStatement(&sh.Statements[i], v))
		b.WriteByte('\n')
	}
	b.WriteString("END\n")
	return b.String()
}

// requestToken makes the token the referee answers a request with: R and the
// first 6 hex digits of the SHA-256 of game, nation, turn and text, so that
// the same request sent again on a corrected sheet keeps its token; the nth
// identical request of a sheet gets n mixed in.
func requestToken(gameID string, n game.NationID, turn, nth int, text string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s", gameID, n, turn, nth, text)))
	return "R" + hex.EncodeToString(sum[:3])
}

func sortedKeys[V any](m map[game.ForceID]V) []game.ForceID {
	out := make([]game.ForceID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, game.CompareForceIDs)
	return out
}
