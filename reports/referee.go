package reports

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
)

// RefereeInput is what the referee's master report is built from: the whole
// state and every event and die roll of the turn, the rulings, and the
// sheets received.
type RefereeInput struct {
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// State is the game after the turn.
	State *engine.State
	// Events and Rolls are the turn's, whole (empty for the opening).
	Events []engine.Event
	Rolls  []engine.Roll
	// Rulings are every ruling of the turn.
	Rulings []Ruling
	// Sheets are the order sheets in force for the turn just resolved.
	Sheets   []SheetReceipt
	GameName string
	Deadline time.Time
	Zone     *time.Location
	// Narrate tells the battles (every side whole, for engine.Referee);
	// nil means Narrate.
	Narrate func(m *hexmap.Map, nation game.NationID, events []engine.Event) []Narrative
	// NMRStreaks are the nations without orders for several turns in a
	// row, and how many (the daemon's NMR alert); nil for none.
	NMRStreaks map[game.NationID]int
}

// SheetReceipt is one order sheet received: whose, when, its receipt, the
// sender's address, whether it was marked FINAL, or whether the checker
// refused it (a refused sheet is listed, and changed nothing).
type SheetReceipt struct {
	Nation   game.NationID
	Received time.Time
	Receipt  string
	From     string `json:",omitempty"`
	Errors   int    `json:",omitempty"`
	Final    bool   `json:",omitempty"`
	Refused  bool   `json:",omitempty"`
}

// RefereeModel is the referee's master report: everything, unfogged.
type RefereeModel struct {
	Schema   string
	Game     string
	GameName string
	// Ruleset is the edition the game is played under ("syw-1752").
	Ruleset string
	// Turn and TurnLabel are the turn the next orders are for; ResolvedTurn
	// and Resolved the turn this report tells of (empty for the opening),
	// as in a nation's Model.
	Turn         int
	TurnLabel    string
	Resolved     string `json:",omitempty"`
	ResolvedTurn int    `json:",omitempty"`
	Deadline     string `json:",omitempty"`
	// Glance is the turn at a glance, the first page.
	Glance *Glance `json:",omitempty"`
	// Sheets are those received (with receipts and times; refused ones
	// marked), Missing the nations in the game that sent none in force.
	Sheets  []SheetLine     `json:",omitempty"`
	Missing []game.NationID `json:",omitempty"`
	// Treasuries are every nation's, by city.
	Treasuries []NationTreasury `json:",omitempty"`
	// Forces are every force in full, by nation.
	Forces []OwnForce `json:",omitempty"`
	Cities []City     `json:",omitempty"`
	// Battles are every battle and encounter, told whole.
	Battles []Narrative `json:",omitempty"`
	// Rolls are every die thrown, in order.
	Rolls []engine.Roll `json:",omitempty"`
	// Events are every event in one line each, in order.
	Events   []string `json:",omitempty"`
	Rulings  []string `json:",omitempty"`
	Treaties []Treaty `json:",omitempty"`
}

// SheetLine is a sheet received, printed.
type SheetLine struct {
	Nation   game.NationID
	Received string
	Receipt  string
	From     string `json:",omitempty"`
	Errors   int    `json:",omitempty"`
	Final    bool   `json:",omitempty"`
	Refused  bool   `json:",omitempty"`
}

// NationTreasury is one nation's money.
type NationTreasury struct {
	Nation game.NationID
	Name   string
	Total  int
	Cities []CityMoney `json:",omitempty"`
}

// BuildReferee makes the referee's master report.
func BuildReferee(in RefereeInput) (*RefereeModel, error) {
	if in.Map == nil || in.Rules == nil || in.State == nil {
		return nil, errors.New("referee report: the map, the ruleset and the state are required")
	}
	st := in.State
	md := &RefereeModel{Schema: SchemaVersion, Ruleset: in.Rules.ID, Game: st.Game, GameName: in.GameName, Turn: st.Turn,
		TurnLabel: st.Calendar.Label(st.Turn), Deadline: FormatDeadline(in.Deadline, in.Zone), Rolls: in.Rolls}
	if md.GameName == "" {
		md.GameName = in.Map.Name
	}
	if len(in.Events) > 0 {
		md.ResolvedTurn = max(st.Turn-1, 1)
		md.Resolved = st.Calendar.Label(md.ResolvedTurn)
	}
	got := map[game.NationID]bool{}
	sheets := slices.Clone(in.Sheets)
	slices.SortStableFunc(sheets, func(a, b SheetReceipt) int { return a.Received.Compare(b.Received) })
	for _, s := range sheets {
		if !s.Refused {
			got[s.Nation] = true
		}
		md.Sheets = append(md.Sheets, SheetLine{Nation: s.Nation, Received: FormatDeadline(s.Received, in.Zone),
			Receipt: s.Receipt, From: s.From, Errors: s.Errors, Final: s.Final, Refused: s.Refused})
	}
	for _, n := range st.Nations {
		if !n.Eliminated && !got[n.ID] && len(in.Events) > 0 {
			md.Missing = append(md.Missing, n.ID)
		}
		nt := NationTreasury{Nation: n.ID, Name: nationName(in.Map, n.ID)}
		nt.Cities, nt.Total = heldTreasuries(in.Map, st, n.ID)
		md.Treasuries = append(md.Treasuries, nt)
	}
	// Every force, as its owner's report shows it: the referee's view is the
	// union of the nations' own forces (builder.own, with the supply traces
	// of the turn), the cities as every report prints them.
	supply := map[game.ForceID]*engine.SupplyTraced{}
	for _, e := range in.Events {
		if s, ok := e.(*engine.SupplyTraced); ok {
			supply[s.Force] = s
		}
	}
	for _, n := range st.Nations {
		if _, ok := in.Map.Nation(n.ID); !ok {
			return nil, fmt.Errorf("referee report: nation %q is not in the game", n.ID)
		}
		view := engine.View(in.Map, in.Rules, st, n.ID)
		b := &builder{in: Input{Map: in.Map, Rules: in.Rules, State: st, Nation: n.ID}, m: in.Map, rules: in.Rules, nation: n.ID, supply: supply}
		sub := &Model{}
		b.own(sub, view)
		md.Forces = append(md.Forces, sub.Forces...)
		md.Forces = append(md.Forces, sub.Fleets...)
		if md.Cities == nil {
			b.cities(sub, view)
			md.Cities = sub.Cities
		}
	}
	for _, t := range st.Treaties {
		tr := Treaty{ID: t.ID, Title: t.Title, Parties: t.Parties, Text: t.Text, Attested: t.Attested}
		if t.Published > 0 {
			tr.Published = st.Calendar.Label(t.Published)
		}
		md.Treaties = append(md.Treaties, tr)
	}
	for _, r := range in.Rulings {
		s := r.Text
		if len(r.Nations) > 0 {
			s += " (" + ids2(r.Nations) + ")"
		}
		if r.Public {
			s += " [public]"
		}
		md.Rulings = append(md.Rulings, s)
	}
	narrate := in.Narrate
	if narrate == nil {
		narrate = Narrate
	}
	md.Battles = narrate(in.Map, engine.Referee, in.Events)
	tellEach(in.Map, engine.Referee, in.Events, func(e engine.Event, line string) {
		h := e.Head()
		md.Events = append(md.Events, fmt.Sprintf("[%s] %s%s", h.Step, line, visibility(h)))
	})
	md.Glance = buildGlance(in.Map, st, md, in)
	return md, nil
}

func visibility(h *engine.Header) string {
	switch {
	case h.Visibility.Public:
		return " (public)"
	case len(h.Visibility.To) == 0:
		return " (referee only)"
	}
	return " (to " + ids2(h.Visibility.To) + ")"
}

// RenderReferee writes the referee's master report PDF: first the turn at
// a glance on one page (what needs the referee, every nation's orders,
// the fighting, captures and losses, treasuries, treaties and rulings),
// then the full map with every force and owner, the refused sheets, every
// force, every battle told whole, every event, the rulings and treaties,
// and last the appendix of every die roll, grouped by purpose.
func RenderReferee(w io.Writer, md *RefereeModel, m *hexmap.Map, opts *Options) error {
	if memo := renderMemo.Load(); memo != nil && md != nil && m != nil {
		return memo.render(w, "referee", md, m, opts, func(w io.Writer) error { return renderReferee(w, md, m, opts) })
	}
	return renderReferee(w, md, m, opts)
}

// renderReferee is RenderReferee without the tests' memo.
func renderReferee(w io.Writer, md *RefereeModel, m *hexmap.Map, opts *Options) error {
	if md == nil || m == nil {
		return errors.New("referee report: the model and the map are required")
	}
	md = printable(md)
	title := "Referee — " + refereeReportOf(md.Resolved)
	opts, err := withTaxes(opts, md.Ruleset)
	if err != nil {
		return err
	}
	d, err := newDoc(m, opts, title, fmt.Sprintf("%s · referee · %s", md.GameName, refereeReportOf(md.Resolved)))
	if err != nil {
		return err
	}
	pdf := d.pdf
	d.portrait()
	pdf.SetFont(fonts.Sans, "B", 24)
	pdf.CellFormat(0, 12, "Referee's master report", "", 1, "L", false, 0, "")
	pdf.SetFont(fonts.Sans, "B", 13)
	sub := md.GameName + " — opening position"
	if md.Resolved != "" {
		sub = md.GameName + " — " + md.Resolved + " resolved"
	}
	pdf.CellFormat(0, 7, sub, "", 1, "L", false, 0, "")
	d.para(fmt.Sprintf("Next orders: %s. Deadline: %s.", md.TurnLabel, orNone(md.Deadline)))
	d.glancePage(md)

	d.mapPages(refereeMap(md, m), "Referee")

	d.portrait()
	if refused := refusedRows(md.Sheets); len(refused) > 0 {
		d.heading("Sheets refused")
		d.table([]string{"Nation", "Received", "Receipt", "From"}, []float64{0.16, 0.34, 0.14, 0.36}, refused)
	}
	d.heading("Every force")
	var rows [][]string
	for _, f := range md.Forces {
		rows = append(rows, ownRow(f))
	}
	d.table([]string{"Force", "Where", "Contents", "Leaders", "Orders", "State"}, []float64{0.07, 0.15, 0.28, 0.18, 0.14, 0.18}, rows)
	d.heading("Battles and encounters")
	if len(md.Battles) == 0 {
		d.para("No battle this turn.")
	}
	d.narratives(md.Battles)
	d.heading("Every event")
	if len(md.Events) == 0 {
		d.para("No events.")
	}
	d.bullets(md.Events)
	d.heading("Rulings")
	if len(md.Rulings) == 0 {
		d.para("No rulings.")
	}
	d.bullets(md.Rulings)
	if len(md.Treaties) > 0 {
		d.heading("Treaties")
		for _, t := range md.Treaties {
			state := "awaiting attestations"
			if t.Published != "" {
				state = "published " + t.Published
			}
			d.para(fmt.Sprintf("%s — %s (%s; %s)\n%s", t.ID, t.Title, ids2(t.Parties), state, t.Text))
		}
	}
	d.diceAppendix(md.Rolls)
	return d.finish(w)
}

// refereeReportOf names what the master report tells of: "report of Turn 1,
// April 1752", or "the opening position".
func refereeReportOf(resolved string) string {
	if resolved == "" {
		return "the opening position"
	}
	return "report of " + resolved
}

// RefereeText renders the master report as plain text (the referee's mail
// body).
func RefereeText(md *RefereeModel) string {
	var b strings.Builder
	title := "Referee — " + refereeReportOf(md.Resolved)
	fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat("=", len([]rune(title))))
	if md.Resolved != "" {
		fmt.Fprintf(&b, "Resolved: %s\n", md.Resolved)
	}
	fmt.Fprintf(&b, "Next orders: %s\nDeadline: %s\n", md.TurnLabel, orNone(md.Deadline))
	glanceText(&b, md)
	section(&b, "Battles and encounters")
	for _, n := range md.Battles {
		fmt.Fprintf(&b, "%s\n", n.Title)
		for _, t := range n.Text {
			fmt.Fprintf(&b, "  %s\n", t)
		}
	}
	fmt.Fprintf(&b, "\n%s thrown, %s; every force, roll and event is in the PDF.\n", english.Count(len(md.Rolls), "die"), english.Count(len(md.Events), "event"))
	for _, g := range RollGroups(md.Rolls) {
		fmt.Fprintf(&b, "  %-12s %-40s %4d\n", g.Step, g.Purpose, g.Count)
	}
	if len(md.Rulings) > 0 {
		section(&b, "Rulings")
		for _, r := range md.Rulings {
			fmt.Fprintf(&b, "- %s\n", r)
		}
	}
	return b.String()
}

// RenderMap writes one landscape page: the whole map with every force of
// md (ID, size class, owner's colour), the cities by controller and the
// turn's battles, with its legend. It is "pbem map render --game".
func RenderMap(w io.Writer, md *RefereeModel, m *hexmap.Map, opts *Options) error {
	if md == nil || m == nil {
		return errors.New("map: the game and the map are required")
	}
	opts, err := withTaxes(opts, md.Ruleset)
	if err != nil {
		return err
	}
	md = printable(md)
	when := "the opening position"
	if md.Resolved != "" {
		when = "after " + md.Resolved
	}
	d, err := newDoc(m, opts, md.GameName+" — "+when, fmt.Sprintf("%s · %s", md.GameName, when))
	if err != nil {
		return err
	}
	d.mapPage(refereeMap(md, m), md.GameName+" — "+when, mapdraw.HexWindow{})
	return d.finish(w)
}
