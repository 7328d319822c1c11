package reports

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/areadraw"
	"github.com/syw-pbem/pbem/reports/fonts"
	"github.com/syw-pbem/pbem/trossian"
)

// The report of a campaign played on an area map (the Trossian campaign,
// seed 004): what a kingdom sees of the turn — its View (trossian.View, the
// one fog function) and the events engine.EventsFor gave it — or, for the
// referee, the whole state and every event and die. Area builds it as
// plain text (the mail's body) and as a PDF: a cover with the turn's
// summary, the area map drawn with the nation's fog (package
// reports/areadraw: its own forces, the foreign forces it sees, the land it
// does not watch washed pale), its forces, couriers in flight and their
// fate, its AP ledger, and the turn's events by section. Nothing else is
// read: the same input gives the same bytes.

// AreaInput is what an area-map report is built from.
type AreaInput struct {
	Map *areamap.Map
	// View is the nation's *trossian.NationView, or for the referee
	// (Nation engine.Referee) the whole *trossian.State.
	View       any
	Nation     game.NationID
	NationName string
	GameID     string
	GameName   string
	// TurnLabel is the turn resolved ("Turn 3, Late Spring 1801"); for a
	// starting report, the first turn's.
	TurnLabel string
	// NextLabel and NextDeadline are the turn now open and its deadline
	// (zero: none).
	NextLabel    string
	NextDeadline time.Time
	Zone         *time.Location
	Events       []engine.Event
	// Rolls are the turn's dice (the referee's report lists them).
	Rolls []engine.Roll
	// Starting: the report of the opening position; NMR: the nation had no
	// orders in force; NMRNations: for the referee, those that had none;
	// Rerun: the turn was resolved again.
	Starting, NMR, Rerun bool
	NMRNations           []string
	Options              *Options
}

// AreaReport is a built area-map report.
type AreaReport struct {
	Subject string
	Text    string
	PDF     []byte
	// File is the PDF's attachment name ("norvale-turn-3.pdf").
	File string
}

// areaFacts is what the report shows, read once from the view or state.
type areaFacts struct {
	turn     int
	label    string
	phase    trossian.Phase
	seat     string
	idle     int
	census   trossian.Stands
	armies   []trossian.Army
	navies   []trossian.Navy
	couriers []trossian.Courier
	foreign  []trossian.ForeignForce
	provs    []trossian.ProvinceState
	chance   []int
	referee  bool
}

func readFacts(in AreaInput) (areaFacts, error) {
	switch v := in.View.(type) {
	case *trossian.NationView:
		return areaFacts{turn: v.Turn, label: v.Label, phase: v.Phase, seat: v.Seat, idle: v.IdleCouriers, census: v.Census,
			armies: v.Armies, navies: v.Navies, couriers: v.Couriers, foreign: v.Foreign, provs: v.Provinces, chance: v.Chance}, nil
	case *trossian.State:
		return areaFacts{turn: v.Turn, label: v.Label(), phase: v.Calendar.PhaseOf(v.Turn), armies: v.Armies, navies: v.Navies,
			couriers: v.Couriers, provs: v.Provinces, referee: true}, nil
	}
	return areaFacts{}, fmt.Errorf("an area report of a %T: expected a *trossian.NationView or *trossian.State", in.View)
}

// Area builds an area-map report.
func Area(in AreaInput) (*AreaReport, error) {
	f, err := readFacts(in)
	if err != nil {
		return nil, err
	}
	who := in.NationName
	if in.Nation == engine.Referee {
		who = "Referee"
	}
	r := &AreaReport{}
	switch {
	case in.Starting:
		r.Subject = fmt.Sprintf("[%s] %s: %s's starting report", in.GameID, in.NextLabel, who)
	default:
		r.Subject = fmt.Sprintf("[%s] %s resolved: %s's report", in.GameID, in.TurnLabel, who)
	}
	if in.Rerun {
		r.Subject += ", resolved again (correction)"
	}
	slug := string(in.Nation)
	if in.Nation == engine.Referee {
		slug = "referee"
	}
	r.File = fmt.Sprintf("%s-turn-%d.pdf", slug, f.turn)
	if in.Starting {
		r.File = fmt.Sprintf("%s-start.pdf", slug)
	}
	r.Text = areaText(in, f, who)
	var buf bytes.Buffer
	err = renderArea(&buf, in, func(w io.Writer) error {
		var b bytes.Buffer
		if err := areaPDF(&b, in, f, who); err != nil {
			return err
		}
		_, err := w.Write(b.Bytes())
		return err
	})
	if err != nil {
		return nil, err
	}
	r.PDF = buf.Bytes()
	return r, nil
}

// areaSections are the report's parts, each a heading and its lines.
type areaSection struct {
	title string
	lines []string
}

func areaSections(in AreaInput, f areaFacts) []areaSection {
	out := []areaSection{{"Summary", areaSummary(in, f)}}
	if !in.Starting {
		ev := EventLines(nil, in.Nation, in.Events)
		if len(ev) == 0 {
			ev = []string{"Nothing of note reached you."}
		}
		out = append(out, areaSection{"What happened", ev})
	}
	out = append(out, areaSection{"Armies", areaArmies(f)})
	if nav := areaNavies(f); len(nav) > 0 {
		out = append(out, areaSection{"Navies", nav})
	}
	if cou := areaCouriers(f); len(cou) > 0 {
		out = append(out, areaSection{"Couriers in flight", cou})
	}
	if !f.referee {
		out = append(out, areaSection{"Foreign forces seen", areaForeign(in.Map, f)})
	}
	out = append(out, areaProvinces(in, f))
	if ledger := areaLedger(in, f); len(ledger) > 0 {
		out = append(out, areaSection{"AP ledger", ledger})
	}
	if len(f.chance) > 0 {
		var ts []string
		for _, t := range f.chance {
			ts = append(ts, fmt.Sprint(t))
		}
		out = append(out, areaSection{"Chance cards", []string{fmt.Sprintf("Your chance cards came in %s %s; the referee rules on each.",
			plural(len(ts), "turn", "turns"), strings.Join(ts, ", "))}})
	}
	if f.referee && len(in.Rolls) > 0 {
		var dice []string
		for _, r := range in.Rolls {
			line := fmt.Sprintf("%s: d%d = %d", r.Purpose, r.Sides, r.Result)
			if r.Subject != "" {
				line += " (" + r.Subject + ")"
			}
			dice = append(dice, line)
		}
		out = append(out, areaSection{"Every die of the turn", dice})
	}
	return out
}

// areaSummary is the report's opening: which turn, NMRs, the next
// deadline, and where the King holds court.
func areaSummary(in AreaInput, f areaFacts) []string {
	var sum []string
	if in.Starting {
		sum = append(sum, "The opening position. Orders are taken for "+in.NextLabel+".")
	} else {
		sum = append(sum, in.TurnLabel+" has been resolved.")
	}
	if in.Rerun {
		sum = append(sum, "The referee had this turn resolved again after a correction: this report replaces the one sent earlier.")
	}
	if in.NMR {
		sum = append(sum, "No orders from you were in force (NMR): your forces stood where they were.")
	}
	if len(in.NMRNations) > 0 {
		sum = append(sum, "No orders (NMR): "+strings.Join(in.NMRNations, ", ")+".")
	}
	if !in.Starting && in.NextLabel != "" {
		sum = append(sum, "Orders are now taken for "+in.NextLabel+".")
	}
	if !in.NextDeadline.IsZero() {
		sum = append(sum, "Deadline: "+FormatDeadline(in.NextDeadline, in.Zone)+".")
	}
	if f.seat != "" {
		sum = append(sum, fmt.Sprintf("Your King holds court at %s, with %d %s waiting there.", f.seat, f.idle, plural(f.idle, "courier", "couriers")))
	}
	return sum
}

// areaArmies is one line per army the reader holds (every army for the
// referee): where, what, its task and its march.
func areaArmies(f areaFacts) []string {
	var arm []string
	for _, a := range f.armies {
		line := string(a.ID)
		if f.referee {
			line += " (" + string(a.Nation) + ")"
		}
		if a.Aboard != "" {
			line += " aboard " + string(a.Aboard)
		} else {
			line += " at " + a.At
		}
		line += ": " + a.Stands.String()
		if !a.HasHQ() {
			line += "; no HQ: it will not move to contact"
		}
		if a.Task != "" {
			line += "; " + a.Task
		}
		if len(a.March) > 0 {
			line += "; marching by " + strings.Join(a.March, ", ")
		}
		arm = append(arm, line)
	}
	if len(arm) == 0 {
		arm = []string{"None."}
	}
	return arm
}

func areaNavies(f areaFacts) []string {
	var nav []string
	for _, n := range f.navies {
		line := string(n.ID)
		if f.referee {
			line += " (" + string(n.Nation) + ")"
		}
		nav = append(nav, line+": "+n.At.String())
	}
	return nav
}

func areaCouriers(f areaFacts) []string {
	var cou []string
	for _, c := range f.couriers {
		line := string(c.ID)
		if f.referee {
			line += " (" + string(c.Nation) + ")"
		}
		line += " at " + c.At.String()
		if c.Target != "" {
			line += fmt.Sprintf(", riding to %s with %d %s", c.Target, len(c.Carries), plural(len(c.Carries), "order", "orders"))
		}
		if c.Returning {
			line += ", returning to the King"
		}
		cou = append(cou, line+fmt.Sprintf(" (sent turn %d)", c.Sent))
	}
	return cou
}

func areaForeign(m *areamap.Map, f areaFacts) []string {
	var seen []string
	for _, x := range f.foreign {
		place := x.At
		if x.Navy {
			place = x.Place.String()
		}
		who := capitalise(string(x.Nation))
		if k, ok := kingdomOf(m, x.Nation); ok && k.Name != "" {
			who = k.Name
		}
		line := fmt.Sprintf("%s (%s) at %s", x.ID, who, place)
		if x.Size != "" {
			line += ": " + x.Size
		}
		seen = append(seen, line)
	}
	if len(seen) == 0 {
		seen = []string{"No foreign force within your watch."}
	}
	return seen
}

// areaProvinces lists the reader's provinces (every held one for the
// referee) with their banked AP, sieges and pacifications.
func areaProvinces(in AreaInput, f areaFacts) areaSection {
	var held []string
	bank := 0
	for _, p := range f.provs {
		if f.referee {
			if p.Controller == "" {
				continue
			}
		} else if p.Controller != in.Nation {
			continue
		}
		line := p.ID
		if f.referee {
			line += " (" + string(p.Controller) + ")"
		}
		if p.Bank > 0 {
			line += fmt.Sprintf(", %d AP banked", p.Bank)
			bank += p.Bank
		}
		if p.Siege != nil {
			line += fmt.Sprintf(", besieged by %s (%d/%d)", p.Siege.By, p.Siege.Progress, p.Siege.Required)
		}
		if p.Pacify != nil {
			line += fmt.Sprintf(", being pacified by %s (%d/%d)", p.Pacify.By, p.Pacify.Progress, p.Pacify.Required)
		}
		held = append(held, line)
	}
	if f.referee {
		return areaSection{"Provinces by controller", held}
	}
	return areaSection{"Provinces held", append(held, fmt.Sprintf("AP banked in your cities: %d.", bank))}
}

// areaLedger is the turn's AP movements the reader may see: their own,
// or every kingdom's (named) for the referee.
func areaLedger(in AreaInput, f areaFacts) []string {
	var ledger []string
	who := func(n game.NationID) string {
		if f.referee {
			return string(n) + ": "
		}
		return ""
	}
	for _, e := range in.Events {
		switch x := e.(type) {
		case *trossian.IncomeCollected:
			if x.Nation == in.Nation || f.referee {
				ledger = append(ledger, who(x.Nation)+fmt.Sprintf("income %d AP from %d provinces, %d banked, %d to spend", x.Income, len(x.Provinces), x.Banked, x.Pool))
			}
		case *trossian.APBanked:
			if x.Nation == in.Nation || f.referee {
				line := who(x.Nation) + fmt.Sprintf("%+d AP at %s, bank now %d", x.AP, x.City, x.Bank)
				if x.Lost {
					line += " (lost with the city)"
				}
				ledger = append(ledger, line)
			}
		}
	}
	return ledger
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// areaText is the plain-text report.
func areaText(in AreaInput, f areaFacts, who string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n", in.GameName, who)
	for _, s := range areaSections(in, f) {
		fmt.Fprintf(&b, "\n%s\n%s\n", s.title, strings.Repeat("-", len([]rune(s.title))))
		for _, l := range s.lines {
			fmt.Fprintf(&b, "%s\n", l)
		}
	}
	b.WriteString("\nThe PDF attached draws the map.\n")
	return b.String()
}

// areaMarks are the map's marks: control from the view, the forces the
// viewer sees, the watch (fog) and the battles of the turn.
func areaMarks(in AreaInput, f areaFacts) *areadraw.Marks {
	mk := &areadraw.Marks{Control: map[string]game.NationID{}, Counters: map[string][]areadraw.Counter{}}
	for _, p := range f.provs {
		if p.Controller != "" {
			mk.Control[p.ID] = p.Controller
		}
	}
	if !f.referee {
		mk.Watched = map[string]bool{}
		watch := func(p string) {
			mk.Watched[p] = true
			for _, q := range in.Map.Neighbors(p) {
				mk.Watched[q] = true
			}
		}
		for _, p := range f.provs {
			if p.Controller == in.Nation {
				mk.Watched[p.ID] = true
			}
		}
		for _, a := range f.armies {
			if a.At != "" {
				watch(a.At)
			}
		}
	}
	for _, a := range f.armies {
		if a.At != "" {
			mk.Counters[a.At] = append(mk.Counters[a.At], areadraw.Counter{Label: fmt.Sprintf("%s %d", a.ID, a.Stands.Total()), Nation: a.Nation})
		}
	}
	for _, x := range f.foreign {
		place := x.At
		if x.Navy {
			place = x.Place.Lane
			if x.Place.InPort() {
				place = x.Place.Province
			}
		}
		mk.Counters[place] = append(mk.Counters[place], areadraw.Counter{Label: string(x.ID) + " " + x.Size, Nation: x.Nation, Navy: x.Navy})
	}
	for _, n := range f.navies {
		place := n.At.Lane
		if n.At.InPort() || place == "" {
			place = n.At.Province
		}
		mk.Counters[place] = append(mk.Counters[place], areadraw.Counter{Label: string(n.ID), Nation: n.Nation, Navy: true})
	}
	for _, c := range f.couriers {
		place := c.At.Province
		if c.At.Lane != "" {
			place = c.At.Lane
		}
		mk.Counters[place] = append(mk.Counters[place], areadraw.Counter{Label: string(c.ID), Nation: c.Nation, Courier: true})
	}
	for _, e := range in.Events {
		if x, ok := e.(*trossian.BattleFought); ok && !slices.Contains(mk.Battles, x.Province) {
			mk.Battles = append(mk.Battles, x.Province)
		}
	}
	mk.Frozen = trossian.Trossian1801().Frozen.IsClosed(f.phase)
	return mk
}

// areaPDF writes the PDF: the cover and summary, the map page, then the
// other sections.
func areaPDF(w *bytes.Buffer, in AreaInput, f areaFacts, who string) error {
	title := fmt.Sprintf("%s — %s — %s", in.GameName, who, in.TurnLabel)
	if in.Starting {
		title = fmt.Sprintf("%s — %s — the opening position", in.GameName, who)
	}
	d, err := newDoc(nil, in.Options, title, title)
	if err != nil {
		return err
	}
	fonts.Register(d.pdf, fonts.SansRegular)
	pdf := d.pdf
	secs := areaSections(in, f)
	d.portrait()
	pdf.SetFont(fonts.Sans, "B", 16)
	pdf.SetTextColor(120, 20, 24)
	pdf.MultiCell(0, 8, in.GameName, "", "L", false)
	pdf.SetFont(fonts.Sans, "B", 12)
	pdf.SetTextColor(0, 0, 0)
	head := who + ", " + in.TurnLabel
	if in.Starting {
		head = who + ", the opening position"
	}
	pdf.MultiCell(0, 6, head, "", "L", false)
	// The cover: the summary and, after a turn, what happened.
	rest := secs[1:]
	d.sectionPrint(secs[0])
	if !in.Starting && len(rest) > 0 {
		d.sectionPrint(rest[0])
		rest = rest[1:]
	}
	// The map, landscape, with the key beside it.
	d.landscape()
	pw, ph := pdf.GetPageSize()
	pdf.SetFont(fonts.Sans, "B", 11)
	pdf.SetTextColor(120, 20, 24)
	when := "after " + in.TurnLabel
	if in.Starting {
		when = "at the opening, " + f.label
	}
	mapTitle := "The map as " + who + " sees it " + when
	if f.referee {
		mapTitle = "The map, every force, " + when
	}
	pdf.Text(margin, margin+2, mapTitle)
	pdf.SetTextColor(0, 0, 0)
	keyW := 62.0
	areadraw.Draw(pdf, in.Map, areaMarks(in, f), areadraw.Options{X: margin, Y: margin + 5, W: pw - 2*margin - keyW - 4, H: ph - 2*margin - 10})
	areadraw.Legend(pdf, in.Map, pw-margin-keyW, margin+5)
	d.portrait()
	for _, s := range rest {
		d.sectionPrint(s)
	}
	return d.finish(w)
}

// sectionPrint prints a heading and its lines.
func (d *doc) sectionPrint(s areaSection) {
	d.heading(s.title)
	d.pdf.SetFont(fonts.Sans, "", bodySize)
	for _, l := range s.lines {
		d.pdf.MultiCell(0, lineH, l, "", "L", false)
		d.pdf.Ln(0.6)
	}
}

// kingdomOf is m's kingdom n, if m is there and has it.
func kingdomOf(m *areamap.Map, n game.NationID) (*areamap.Kingdom, bool) {
	if m == nil {
		return nil, false
	}
	return m.Kingdom(n)
}
