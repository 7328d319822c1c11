package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/trossian"
	"github.com/syw-pbem/pbem/trossian/sheet"
)

// The Trossian demo ("pbem demo --scenario trossian"): a year of the
// Trossian campaign (seed 004) by mail, nine phases from Early Spring 1801
// and winter quarters, on the embedded server, with the five kingdoms'
// scripted players and a scripted referee — the same daemon, intake,
// outbox and turn runner as "pbem run", the game's ruleset "trossian"
// choosing the campaign behind the seam.
//
// Each turn every kingdom reads its own view (what its report shows) and
// mails a sheet in the Trossian vocabulary when its plan has orders for
// the turn (trossianPlan); Ostmark's first sheet is written with a
// misspelt province, answered with the line and the fix, and sent again
// corrected. The referee mails RESOLVE NOW; a turn that meets a battle
// waits for the table, and the referee reads the battle sheet mailed to
// him, fights it (trossianRefereeResult: the side worth more AP wins) and
// mails the RESULT back. Every report — a PDF with the area map drawn with
// the kingdom's fog — is written to DIR/<turn>/<kingdom>.pdf, the
// starting reports to DIR/00-1801-start. The year shows what issue 27
// asks of it: a tabletop battle answered by the referee, a courier
// captured, a navy lost in a frozen lane, recruits bought in winter; the
// summary says which of them happened (the default seed shows them all).

// TrossianSeed is the Trossian demo's default seed.
const TrossianSeed = 1802

// trossianKingdoms are the built-in Trossian scenario's kingdoms, in the
// order they mail their sheets.
var trossianKingdoms = []string{"norvale", "ostmark", "varn", "carrowland", "selvenia"}

const trossianConfigText = `data_dir: data
log_level: warn
game:
  id: tross
  name: Trossian Demo Game
  ruleset: trossian
  scenario: %q
  referee: referee@pbem.localhost
  referee_password: {password: ` + refereeCommandPassword + `}
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  reminder_hours: 0
  nations:
%s
mail:
  mode: embedded
  address: orders@pbem.localhost
  embedded:
    domain: pbem.localhost
    imap_listen: 127.0.0.1:0
    smtp_listen: 127.0.0.1:0
    accounts:
      - {user: orders@pbem.localhost, password: demo-orders}
      - {user: referee@pbem.localhost, password: demo-referee}
%s
  imap:
    idle: true
    poll_interval: 1s
`

// TrossianSets are the set pieces issue 27 asks the demo year to show.
type TrossianSets struct {
	TableBattles, CouriersCaptured, NaviesIced, WinterRecruits int
}

// trossianGame is the Trossian demo in play.
type trossianGame struct {
	demoGame
	accounts map[string]*account
	sets     TrossianSets
}

// RunTrossian plays the Trossian demo year and writes the reports under
// o.Out. o.Scenario is the scenario folder (a scenarios/trossian that does
// not exist is the built-in scenario).
func RunTrossian(ctx context.Context, o Options) (*Result, TrossianSets, error) {
	start := time.Now()
	out := o.Progress
	if out == nil {
		out = io.Discard
	}
	step := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	dir := o.DataDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "pbem-demo-")
		if err != nil {
			return nil, TrossianSets{}, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, TrossianSets{}, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, TrossianSets{}, err
	}
	scen := o.Scenario
	if _, err := os.Stat(scen); err == nil {
		if scen, err = filepath.Abs(scen); err != nil {
			return nil, TrossianSets{}, err
		}
	}
	var nl, al strings.Builder
	for _, n := range trossianKingdoms {
		fmt.Fprintf(&nl, "    %s: {addresses: [%s@pbem.localhost], password: demo-%s}\n", n, n, n)
		fmt.Fprintf(&al, "      - {user: %s@pbem.localhost, password: demo-mail-%s}\n", n, n)
	}
	text := fmt.Sprintf(trossianConfigText, scen, strings.TrimRight(nl.String(), "\n"), strings.TrimRight(al.String(), "\n"))
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg, err := config.Parse([]byte(text), cfgPath)
	if err != nil {
		return nil, TrossianSets{}, fmt.Errorf("the demo's config: %w", err)
	}
	if err := os.WriteFile(cfgPath, []byte(text), 0o600); err != nil {
		return nil, TrossianSets{}, err
	}
	logger := o.Log
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := seedDice(ctx, cfg, logger, o.Seed); err != nil {
		return nil, TrossianSets{}, err
	}
	d, err := daemon.Start(ctx, cfg, &daemon.Options{Logger: logger})
	if err != nil {
		return nil, TrossianSets{}, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	defer func() {
		cancel()
		<-done
		d.Close()
	}()
	step("game %q started in %s: IMAP %s, SMTP %s (seed %d)", cfg.Game.Name, dir, d.Mail.IMAPAddr(), d.Mail.SMTPAddr(), o.Seed)
	g := &trossianGame{demoGame: demoGame{o: o, d: d, step: step, res: &Result{}, refereePassword: true,
		referee: &account{addr: "referee@pbem.localhost", password: "demo-referee", smtpAddr: d.Mail.SMTPAddr(), imapAddr: d.Mail.IMAPAddr()}},
		accounts: map[string]*account{}}
	defer g.referee.close()
	for _, n := range trossianKingdoms {
		a := &account{addr: n + "@pbem.localhost", password: "demo-mail-" + n, smtpAddr: d.Mail.SMTPAddr(), imapAddr: d.Mail.IMAPAddr()}
		defer a.close()
		g.accounts[n] = a
	}
	if err := g.playYear(ctx); err != nil {
		return g.res, g.sets, err
	}
	g.res.Elapsed = time.Since(start)
	return g.res, g.sets, nil
}

// view is what a kingdom sees now (its report's content).
func (g *trossianGame) view(ctx context.Context, n string) (*trossian.NationView, campaign.State, error) {
	cs, err := g.d.Game.CampaignState(ctx)
	if err != nil {
		return nil, nil, err
	}
	am, ok := g.d.Game.Campaign.(campaign.AreaMapped)
	if !ok {
		return nil, nil, fmt.Errorf("the game is not played on an area map")
	}
	v, err := am.AreaView(cs, game.NationID(n))
	if err != nil {
		return nil, nil, err
	}
	nv, ok := v.(*trossian.NationView)
	if !ok {
		return nil, nil, fmt.Errorf("the view of %s is a %T", n, v)
	}
	return nv, cs, nil
}

// playYear plays from the opening to the first turn of 1802.
func (g *trossianGame) playYear(ctx context.Context) error {
	if err := g.collect(ctx, 0, "00-1801-start", daemon.MailStartReport, daemon.MailStartReport); err != nil {
		return err
	}
	for {
		_, cs, err := g.view(ctx, trossianKingdoms[0])
		if err != nil {
			return err
		}
		turn := cs.TurnNumber()
		if turn > trossian.PhasesPerYear {
			break
		}
		g.step("— %s: orders —", cs.TurnLabel())
		for _, n := range trossianKingdoms {
			if err := g.playKingdom(ctx, n, turn); err != nil {
				return err
			}
		}
		if err := g.resolveTurn(ctx, turn, cs.TurnLabel()); err != nil {
			return err
		}
	}
	g.step("The year: %s fought on the table, %s captured, %s lost in the ice, %s recruited in winter.",
		english.Count(g.sets.TableBattles, "battle"), english.Count(g.sets.CouriersCaptured, "courier"),
		english.Count(g.sets.NaviesIced, "navy"), english.Count(g.sets.WinterRecruits, "kingdom"))
	// The game itself, as the hash-chained archive "pbem export" writes:
	// "pbem verify" resolves every turn of it again to the same bytes.
	archive := filepath.Join(g.o.Out, "game.archive")
	n, err := g.d.Game.ExportFile(ctx, archive)
	if err != nil {
		return err
	}
	g.step("The game's archive (%s) is %s: \"pbem verify %s\" resolves it again.", english.Count(n, "turn record"), archive, archive)
	return nil
}

// trossianPlan is a kingdom's orders for a turn, read from its view: the
// plan of the set pieces. Turn 1: Norvale and Ostmark race for
// Trossburg, Norvale's courier to N2 rides through Ostmark, Carrowland
// pacifies Wendmoor, Selvenia marches to Pellan; Varn and Carrowland send
// couriers through foreign land each turn of the summer; turn 3: the army
// holding Trossburg besieges it, by courier; turn 8: Norvale's navy goes
// out into the ice of the Boreal Reach and stays for Late Autumn; winter:
// every kingdom holding its capital buys an HQ and line infantry there.
func trossianPlan(v *trossian.NationView) []engine.Order {
	n := v.Nation
	at := func(line int) engine.At { return engine.At{Line: line} }
	has := func(id game.ForceID) (trossian.Army, bool) {
		for _, a := range v.Armies {
			if a.ID == id {
				return a, true
			}
		}
		return trossian.Army{}, false
	}
	var os []engine.Order
	switch v.Turn {
	case 1:
		switch n {
		case "norvale":
			os = append(os, trossian.Move{At: at(5), Force: "N1", Dest: "Trossburg"}, trossian.SetStance{At: at(6), Force: "N1", Stance: game.Attack},
				trossian.SendCourier{At: at(7), To: "N2", Via: []string{"Rimeport"}, Carries: trossian.OrderList{trossian.Move{At: at(8), Force: "N2", Dest: "Elkmoor"}}})
		case "ostmark":
			os = append(os, trossian.Move{At: at(5), Force: "O1", Dest: "Trossburg"})
		case "carrowland":
			os = append(os, trossian.Move{At: at(5), Force: "C1", Dest: "Wendmoor"}, trossian.Pacify{At: at(6), Force: "C1"})
		case "selvenia":
			os = append(os, trossian.Move{At: at(5), Force: "S1", Dest: "Pellan"})
		}
	case 3:
		for _, a := range v.Armies {
			if a.At == "Trossburg" {
				os = append(os, trossian.SendCourier{At: at(5), To: a.ID, Carries: trossian.OrderList{trossian.Besiege{At: at(6), Force: a.ID}}})
			}
		}
	case 8:
		if n == "norvale" {
			os = append(os, trossian.NavyOrders{At: at(5), Navy: "NF1", Actions: []trossian.NavyAction{{Act: trossian.ActOut}}})
		}
	case trossian.PhasesPerYear:
		seat := ""
		for _, p := range v.Provinces {
			if p.ID == v.Seat && p.Controller == n {
				seat = p.ID
			}
		}
		if seat != "" {
			os = append(os, trossian.Buy{At: at(5), City: seat, Stands: trossian.Stands{{Type: trossian.HQ, Count: 1}, {Type: trossian.LineInfantry, Count: 2}}})
		}
	}
	// The summer's couriers through foreign land: Varn's to V2 by way of
	// Brannock, Carrowland's to C2 by way of Tarnwick, while they have
	// couriers at home and the army is where the plan left it.
	if v.Turn >= 2 && v.Turn <= 7 && v.IdleCouriers > 1 {
		switch n {
		case "varn":
			if a, ok := has("V2"); ok && a.At == "Osswater" {
				os = append(os, trossian.SendCourier{At: at(9), To: "V2", Via: []string{"Brannock", "Calder"}, Carries: trossian.OrderList{trossian.Hold{At: at(10), Force: "V2"}}})
			}
		case "carrowland":
			if a, ok := has("C2"); ok && a.At == "Linden" {
				os = append(os, trossian.SendCourier{At: at(9), To: "C2", Via: []string{"Tarnwick"}, Carries: trossian.OrderList{trossian.Hold{At: at(10), Force: "C2"}}})
			}
		}
	}
	return os
}

// trossianSheet writes a kingdom's sheet.
func trossianSheet(n string, turn int, orders []engine.Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME tross\nNATION %s\nPASSWORD demo-%s\nTURN %d\n", n, n, turn)
	for _, o := range orders {
		b.WriteString(sheet.Format(o) + "\n")
	}
	b.WriteString("END\n")
	return b.String()
}

// playKingdom mails a kingdom's sheet for the turn (nothing when its plan
// has no orders: its forces stand) and corrects a sheet written with a
// mistake.
func (g *trossianGame) playKingdom(ctx context.Context, n string, turn int) error {
	v, _, err := g.view(ctx, n)
	if err != nil {
		return err
	}
	orders := trossianPlan(v)
	if len(orders) == 0 {
		return nil
	}
	text := trossianSheet(n, turn, orders)
	a := g.accounts[n]
	if n == "ostmark" && turn == 1 {
		// The deliberate mistake: a misspelt province, told by its line.
		bad := strings.Replace(text, "TO Trossburg", "TO Trossberg", 1)
		reply, err := g.send(ctx, a, "Orders", bad)
		if err != nil {
			return err
		}
		g.step("%-11s sheet with a mistake: %s", n, trossianProblem(reply.Text))
	}
	reply, err := g.send(ctx, a, "Orders", text)
	if err != nil {
		return err
	}
	if strings.Contains(reply.Subject, "REFUSED") || strings.Contains(reply.Subject, " error") {
		return fmt.Errorf("%s's sheet for turn %d was not taken whole: %s\n%s\n%s", n, turn, reply.Subject, text, reply.Text)
	}
	g.step("%-11s %s", n, reply.Subject)
	return nil
}

// trossianRefereeResult is the scripted referee's table: the side worth
// more AP wins (a tie is a draw); each side loses a quarter of its line
// infantry and routs a stand of light cavalry if it has one.
func trossianRefereeResult(sh trossian.BattleSheet) trossian.BattleResult {
	r := trossian.Trossian1801()
	res := trossian.BattleResult{Province: sh.Province, Outcome: "draw"}
	best, second := -1, -1
	var winner game.NationID
	for _, side := range sh.Sides {
		worth := 0
		for _, a := range side.Armies {
			worth += r.Costs.Worth(a.Stands)
			if k := a.Stands.Of(trossian.LineInfantry, false) / 4; k > 0 {
				res.Units = append(res.Units, trossian.UnitFate{Army: a.Army, Type: trossian.LineInfantry, Destroyed: k})
			}
			if a.Stands.Of(trossian.LightCavalry, false) > 0 {
				res.Units = append(res.Units, trossian.UnitFate{Army: a.Army, Type: trossian.LightCavalry, Routed: 1})
			}
		}
		switch {
		case worth > best:
			second, best, winner = best, worth, side.Nations[0]
		case worth > second:
			second = worth
		}
	}
	if best > second {
		res.Outcome, res.Winner = "win", winner
	}
	return res
}

// resolveTurn mails RESOLVE NOW, fights each battle the turn waits for on
// the referee's table (answering its sheet with a RESULT), and collects
// the turn's reports.
func (g *trossianGame) resolveTurn(ctx context.Context, turn int, label string) error {
	if _, err := g.send(ctx, g.referee, "Resolve", g.trossRefereeMail("RESOLVE NOW")); err != nil {
		return err
	}
	g.step("referee     RESOLVE NOW")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		rec, err := g.d.Game.DB.LatestTurn(ctx, g.d.Game.ID())
		if err != nil {
			return err
		}
		if rec.Turn >= turn {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s was not resolved within two minutes", label)
		}
		// A battle sheet in the referee's mailbox: fight it and answer.
		if _, err := g.referee.fetchNew(); err != nil {
			return err
		}
		sent := false
		for _, m := range g.referee.msgs {
			if k, _, t := idParts(m.MessageID); k != daemon.MailBattleSheet || t != turn {
				continue
			}
			battles, err := g.d.Game.AwaitingBattles(ctx)
			if err != nil {
				return err
			}
			for _, b := range battles {
				if !strings.Contains(m.Subject, "battle at "+b.Key+" ") {
					continue
				}
				var sh trossian.BattleSheet
				if err := json.Unmarshal(b.Data, &sh); err != nil {
					return err
				}
				res := trossianRefereeResult(sh)
				reply, err := g.send(ctx, g.referee, "Re: "+m.Subject, g.trossRefereeMail(sheet.FormatResult(res)))
				if err != nil {
					return err
				}
				g.step("referee     fights the battle at %s on the table: %s; %s", b.Key, res.Outcome, strings.TrimSpace(reply.Text))
				g.sets.TableBattles++
				sent = true
			}
		}
		if !sent {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	phase := strings.ReplaceAll(strings.TrimPrefix(label, "Turn "+strconv.Itoa(turn)+", "), " ", "-")
	return g.collect(ctx, turn, fmt.Sprintf("%02d-%s", turn, phase), daemon.MailReport, daemon.MailRefereeReport)
}

// trossRefereeMail is a mail of referee commands for the Trossian game.
func (g *trossianGame) trossRefereeMail(cmds string) string {
	return "GAME tross\nPASSWORD " + refereeCommandPassword + "\n" + strings.TrimRight(cmds, "\n") + "\n"
}

// collect waits for every report of a turn (turn 0: the starting reports),
// writes them to the folder, and counts the turn's set pieces.
func (g *trossianGame) collect(ctx context.Context, turn int, folder, kind, refKind string) error {
	dir := filepath.Join(g.o.Out, folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := TurnResult{Turn: turn, Folder: folder}
	who := append(append([]string{}, trossianKingdoms...), "referee")
	for _, w := range who {
		a, k := g.accounts[w], kind
		if w == "referee" {
			a, k = g.referee, refKind
		}
		m, err := a.waitFor(ctx, fmt.Sprintf("%s's report of turn %d", w, turn), func(m *received) bool {
			mk, _, t := idParts(m.MessageID)
			return mk == k && (t == turn || turn == 0)
		})
		if err != nil {
			return err
		}
		file := filepath.Join(dir, w+".pdf")
		data := m.PDF
		if data == nil {
			file, data = filepath.Join(dir, w+".txt"), []byte(m.Text)
			g.res.Text = true
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		rel, _ := filepath.Rel(g.o.Out, file)
		tr.Files = append(tr.Files, rel)
		var mb strings.Builder
		for _, x := range a.msgs[a.archived:] {
			if x == nil || x == m {
				continue
			}
			fmt.Fprintf(&mb, "=== %s\n\n%s\n", x.Subject, strings.TrimRight(x.Text, "\n"))
		}
		a.archived = len(a.msgs)
		if mb.Len() > 0 {
			mfile := filepath.Join(dir, w+"-mail.txt")
			if err := os.WriteFile(mfile, []byte(mb.String()), 0o644); err != nil {
				return err
			}
			rel, _ := filepath.Rel(g.o.Out, mfile)
			tr.Files = append(tr.Files, rel)
		}
	}
	if turn == 0 {
		g.res.Start = tr
		return nil
	}
	rec, err := g.d.Game.DB.Turn(ctx, g.d.Game.ID(), turn)
	if err != nil {
		return err
	}
	es, err := engine.UnmarshalEvents(rec.EventLog)
	if err != nil {
		return err
	}
	for _, e := range es {
		switch x := e.(type) {
		case *trossian.Intercepted:
			if x.Fate == "captured" {
				g.sets.CouriersCaptured++
				g.step("    courier %s captured", x.Courier)
			}
		case *trossian.NavyLost:
			if x.Step == "frozen-lanes" {
				g.sets.NaviesIced++
				g.step("    navy %s lost in the ice of %s", x.Navy, x.Place)
			}
		case *trossian.Recruited:
			if x.Step == "purchases" {
				g.sets.WinterRecruits++
			}
		case *trossian.BattleFought:
			g.step("    battle at %s: %s", x.Province, x.Outcome)
		}
	}
	g.res.Turns = append(g.res.Turns, tr)
	g.res.Events = append(g.res.Events, es...)
	g.step("turn %d resolved: %s; reports in %s", turn, english.Count(len(es), "event"), dir)
	return nil
}

// trossianProblem is the first line of a checker's answer that tells an
// error by its line ("" if none).
func trossianProblem(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(strings.ToLower(l), "error") && strings.Contains(l, "line") {
			return strings.TrimSpace(l)
		}
	}
	return firstProblem(text)
}
