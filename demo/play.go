package demo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/internal/english"
)

// demoGame is the demo in play.
type demoGame struct {
	o       Options
	d       *daemon.Daemon
	step    func(string, ...any)
	res     *Result
	players []*player
	referee *account
	sent    int // mails sent, for their Message-IDs
	// treatyTurn is the turn a treaty was proposed in, treatyParties its
	// parties.
	treatyTurn    int
	treatyParties []string
	// refereePassword: the config has game.referee_password, so the
	// referee's command mails carry it on a PASSWORD line.
	refereePassword bool
}

// seedDice gives the game the dice key made from the demo's seed before the
// daemon first starts (it makes a random one only when there is none), so
// that the same seed resolves every turn the same way.
func seedDice(ctx context.Context, cfg *config.Config, log *slog.Logger, seed uint64) error {
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: log})
	if err != nil {
		return err
	}
	defer g.Close()
	if _, err := g.Ensure(ctx); err != nil {
		return err
	}
	sum := sha256.Sum256([]byte("pbem demo " + strconv.FormatUint(seed, 10)))
	// The key the turn runner reads (daemon.ensureSeedKey).
	return g.DB.SetDiceKey(ctx, cfg.Game.ID, hex.EncodeToString(sum[:]))
}

var (
	treatyRe = regexp.MustCompile(`ATTEST (T[0-9]+)`)
	tokenRe  = regexp.MustCompile(`\bR[0-9a-f]{6}\b`)
)

// play runs the turns of the first game-year, the year-end included.
func (g *demoGame) play(ctx context.Context) error {
	st, err := g.d.Game.State(ctx)
	if err != nil {
		return err
	}
	year := st.Calendar.Date(st.Turn).Year
	if err := g.startReports(ctx, st); err != nil {
		return err
	}
	for {
		st, err = g.d.Game.State(ctx)
		if err != nil {
			return err
		}
		date := st.Calendar.Date(st.Turn)
		if date.Year != year {
			break
		}
		g.step("— %s: orders —", st.Calendar.Label(st.Turn))
		for _, p := range g.players {
			if err := g.playNation(ctx, st, p); err != nil {
				return err
			}
		}
		if err := g.rule(ctx, st.Turn); err != nil {
			return err
		}
		if err := g.resolve(ctx, st); err != nil {
			return err
		}
	}
	g.res.Final = st
	return g.summary(ctx, st)
}

// startReports writes the starting reports, which pbem mails when the game
// is created — every nation's and the referee's — to a folder of their own
// before the first turn's (00-1752-start).
func (g *demoGame) startReports(ctx context.Context, st *engine.State) error {
	words := strings.Fields(st.Calendar.Name(st.Turn))
	folder := fmt.Sprintf("00-%s-start", words[len(words)-1])
	start := filepath.Join(g.o.Out, folder)
	if err := os.MkdirAll(start, 0o755); err != nil {
		return err
	}
	g.res.Start = TurnResult{Folder: folder}
	type mailbox struct {
		who  string
		acct *account
	}
	var boxes []mailbox
	for _, p := range g.players {
		boxes = append(boxes, mailbox{string(p.nation), p.acct})
	}
	boxes = append(boxes, mailbox{"referee", g.referee})
	for _, a := range boxes {
		m, err := a.acct.waitFor(ctx, "starting report", func(m *received) bool {
			k, _, t := idParts(m.MessageID)
			return t == 0 && k == daemon.MailStartReport
		})
		if err != nil {
			return err
		}
		file, data := filepath.Join(start, a.who+".pdf"), m.PDF
		if data == nil {
			file, data = filepath.Join(start, a.who+".txt"), []byte(m.Text)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		rel, _ := filepath.Rel(g.o.Out, file)
		g.res.Start.Files = append(g.res.Start.Files, rel)
	}
	g.step("starting reports of the opening position in %s (%s)", start, english.Count(len(g.res.Start.Files), "report"))
	return nil
}

// send mails text from an account to the game and waits for the answer.
func (g *demoGame) send(ctx context.Context, a *account, subject, text string) (*received, error) {
	g.sent++
	id, err := a.send(ctx, g.d.Game.Config.Mail.Address, subject, text, g.sent)
	if err != nil {
		return nil, err
	}
	return a.replyTo(ctx, id)
}

// playNation writes and mails one nation's sheet, corrects it if it was
// written with a mistake, and notes a treaty attested.
func (g *demoGame) playNation(ctx context.Context, st *engine.State, p *player) error {
	// Read the mailbox first: a treaty notice asks this nation to attest.
	if _, err := p.acct.fetchNew(); err != nil {
		return err
	}
	if p.treatyID == "" {
		for _, m := range p.acct.msgs {
			if mm := treatyRe.FindStringSubmatch(m.Text); mm != nil && !strings.Contains(m.InReplyTo, p.acct.addr) {
				p.treatyID = mm[1]
			}
		}
	}
	v, d := p.write(g.d.Game.Map, g.d.Game.Rules, st)
	subject := "Orders for " + st.Calendar.Name(st.Turn)
	greeting := "Sire, the orders for " + st.Calendar.Name(st.Turn) + "."
	text := p.sheet(v, d.lines, greeting)
	reply, err := g.send(ctx, p.acct, subject, text)
	if err != nil {
		return err
	}
	if d.fixed != nil {
		g.step("%-11s sheet with a mistake (%s); the checker answered: %s", p.nation, d.mistake, firstProblem(reply.Text))
		text = p.sheet(v, d.fixed, "Corrected orders.")
		if reply, err = g.send(ctx, p.acct, subject+" (corrected)", text); err != nil {
			return err
		}
		d.lines = d.fixed
	}
	// Orders the checker refused are struck out and the sheet sent again,
	// as a player does who reads the answer.
	if bad := refused(text, reply.Text); len(bad) > 0 {
		var kept []string
		for _, l := range d.lines {
			if !slices.Contains(bad, l) {
				kept = append(kept, l)
			}
		}
		g.step("%-11s the checker refused %q; struck out and sent again", p.nation, bad)
		d.lines = kept
		text = p.sheet(v, d.lines, "Corrected orders.")
		if reply, err = g.send(ctx, p.acct, subject+" (corrected)", text); err != nil {
			return err
		}
	}
	verdict := "answered"
	for _, l := range strings.Split(reply.Text, "\n") {
		if strings.Contains(l, "accepted;") {
			verdict = "answer: " + strings.TrimSpace(l)
			break
		}
	}
	g.step("%-11s sheet of %s mailed; %s", p.nation, english.Count(len(d.lines), "line"), verdict)
	for _, l := range d.lines {
		if strings.HasPrefix(l, "ATTEST ") {
			p.attested = true
			g.step("%-11s attests treaty %s", p.nation, p.treatyID)
		}
		if strings.HasPrefix(l, "TREATY ") {
			g.treatyTurn = st.Turn
			title, parties := treatyProposal(l)
			if parties != nil {
				g.treatyParties = parties
			}
			g.step("%-11s proposes a treaty: %s", p.nation, treatyStep(title, parties))
		}
	}
	return nil
}

// treatyProposal reads a sheet's TREATY line (TREATY "title" PARTIES a, b
// TEXT, the articles on the lines after it): the title as written and the
// parties (nil if the line names none).
func treatyProposal(l string) (title string, parties []string) {
	head, rest, _ := strings.Cut(strings.TrimPrefix(l, "TREATY "), " PARTIES ")
	title = strings.TrimSpace(head)
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "TEXT"))
	for _, n := range strings.Split(rest, ",") {
		if n = strings.TrimSpace(n); n != "" {
			parties = append(parties, n)
		}
	}
	return title, parties
}

// treatyStep is the demo's line for a treaty proposed: its title and its
// parties.
func treatyStep(title string, parties []string) string {
	if len(parties) == 0 {
		return title
	}
	return title + " between " + english.List(parties)
}

// errorLineRe finds the checker's errors: "line 12: error: …".
var errorLineRe = regexp.MustCompile(`(?m)^lines? ([0-9]+)(?:-[0-9]+)?: error:`)

// refused returns the lines of sheet that the checker's answer says have
// errors.
func refused(sheet, answer string) []string {
	lines := strings.Split(sheet, "\n")
	var out []string
	for _, m := range errorLineRe.FindAllStringSubmatch(answer, -1) {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= len(lines) {
			out = append(out, strings.TrimSpace(lines[n-1]))
		}
	}
	return out
}

// firstProblem is the first line of a checker's answer that names an error
// or a warning ("" if none).
func firstProblem(text string) string {
	for _, l := range strings.Split(text, "\n") {
		low := strings.ToLower(l)
		if strings.Contains(low, "error") || strings.Contains(low, "warning") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// rule is the referee's mail of the turn: every request forwarded to him is
// approved (the loan request with its effect on the treasury).
func (g *demoGame) rule(ctx context.Context, turn int) error {
	if _, err := g.referee.fetchNew(); err != nil {
		return err
	}
	var cmds []string
	for _, m := range g.referee.msgs {
		kind, nation, t := idParts(m.MessageID)
		if kind != "request" || t != turn {
			continue
		}
		tok := tokenRe.FindString(m.Text)
		if tok == "" {
			continue
		}
		cmds = append(cmds, "APPROVE "+tok, fmt.Sprintf("  TREASURY %s +150", nation))
		g.step("referee     approves request %s of %s: %s +150 crowns", tok, nation, nation)
	}
	if len(cmds) == 0 {
		return nil
	}
	reply, err := g.send(ctx, g.referee, "Rulings", g.refereeMail(strings.Join(cmds, "\n")))
	if err != nil {
		return err
	}
	if pr := firstProblem(reply.Text); pr != "" {
		g.step("referee     the answer to the rulings: %s", pr)
	}
	return nil
}

// refereeMail is a mail of referee commands: the game, the referee's own
// password when this pbem asks for one, the commands.
func (g *demoGame) refereeMail(cmds string) string {
	if g.refereePassword {
		return "GAME syw\nPASSWORD " + refereeCommandPassword + "\n" + cmds + "\nEND\n"
	}
	return "GAME syw\n" + cmds + "\nEND\n"
}

// idParts reads the kind, nation and turn from a pbem Message-ID
// ("<syw.t3.eisenmark.report.…@…>"); turn is -1 when there is none.
func idParts(id string) (kind, nation string, turn int) {
	id = strings.Trim(id, "<> ")
	local, _, _ := strings.Cut(id, "@")
	parts := strings.Split(local, ".")
	if len(parts) < 4 || !strings.HasPrefix(parts[1], "t") {
		return "", "", -1
	}
	t, err := strconv.Atoi(parts[1][1:])
	if err != nil {
		return "", "", -1
	}
	return parts[3], parts[2], t
}

// reportID is the Message-ID of the account's report for turn ("" if not
// read yet).
func reportID(a *account, turn int, kind string) string {
	for _, m := range a.msgs {
		if k, _, t := idParts(m.MessageID); k == kind && t == turn {
			return m.MessageID
		}
	}
	return ""
}

// resolve mails RESOLVE NOW and collects every report of the turn.
func (g *demoGame) resolve(ctx context.Context, st *engine.State) error {
	turn := st.Turn
	if _, err := g.send(ctx, g.referee, "Resolve", g.refereeMail("RESOLVE NOW")); err != nil {
		return err
	}
	g.step("referee     RESOLVE NOW")
	name := st.Calendar.Name(turn) // "April 1752", "year-end 1752"
	words := strings.Fields(name)
	folder := fmt.Sprintf("%02d-%s-%s", turn, words[len(words)-1], strings.Join(words[:len(words)-1], "-"))
	dir := filepath.Join(g.o.Out, folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := TurnResult{Turn: turn, Folder: folder}
	type box struct {
		who  string
		acct *account
		kind string
	}
	boxes := []box{}
	for _, p := range g.players {
		boxes = append(boxes, box{string(p.nation), p.acct, daemon.MailReport})
	}
	boxes = append(boxes, box{"referee", g.referee, daemon.MailRefereeReport})
	var pdfs, texts int
	for _, b := range boxes {
		m, err := b.acct.waitFor(ctx, "report for turn "+strconv.Itoa(turn), func(m *received) bool {
			k, _, t := idParts(m.MessageID)
			return t == turn && k == b.kind
		})
		if err != nil {
			return err
		}
		file := filepath.Join(dir, b.who+".pdf")
		data := m.PDF
		if data == nil {
			file = filepath.Join(dir, b.who+".txt")
			data = []byte(m.Text)
			g.res.Text = true
			texts++
		} else {
			pdfs++
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		rel, _ := filepath.Rel(g.o.Out, file)
		tr.Files = append(tr.Files, rel)
		// The other mail of the turn (the checker's answers, treaty notices,
		// rulings) goes beside the report, as a mail client keeps it.
		var mb strings.Builder
		for _, m := range b.acct.msgs[b.acct.archived:] {
			if m == nil || m.MessageID == reportID(b.acct, turn, b.kind) {
				continue
			}
			if k, _, _ := idParts(m.MessageID); k == daemon.MailReport || k == daemon.MailRefereeReport || k == daemon.MailStartReport {
				continue // the reports have files of their own
			}
			fmt.Fprintf(&mb, "=== %s\n\n%s\n", m.Subject, strings.TrimRight(m.Text, "\n"))
		}
		b.acct.archived = len(b.acct.msgs)
		if mb.Len() > 0 {
			mfile := filepath.Join(dir, b.who+"-mail.txt")
			if err := os.WriteFile(mfile, []byte(mb.String()), 0o644); err != nil {
				return err
			}
			rel, _ := filepath.Rel(g.o.Out, mfile)
			tr.Files = append(tr.Files, rel)
		}
	}
	rec, err := g.d.Game.DB.Turn(ctx, g.d.Game.ID(), turn)
	if err != nil {
		return fmt.Errorf("reading turn %d from the store: %w", turn, err)
	}
	es, err := engine.UnmarshalEvents(rec.EventLog)
	if err != nil {
		return fmt.Errorf("reading turn %d's events: %w", turn, err)
	}
	tr.Involved = involved(es)
	if g.treatyTurn == turn {
		tr.Involved["treaty"] = g.treatyParties
	}
	g.res.Turns = append(g.res.Turns, tr)
	if err := writeInvolved(g.o.Out, g.res.Turns); err != nil {
		return err
	}
	g.res.Events = append(g.res.Events, es...)
	g.step("%s resolved: %s; reports in %s (%d PDF, %d text)", st.Calendar.Label(turn), english.Count(len(es), "event"), dir, pdfs, texts)
	for _, e := range es {
		if l := notable(g.d.Game.Map, e); l != "" {
			g.step("    %s", l)
		}
	}
	return nil
}
