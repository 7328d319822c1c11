package daemon

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// attachments returns a mail's attachments by file name, decoded.
func attachments(t *testing.T, raw string) map[string][]byte {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		return nil
	}
	out := map[string][]byte{}
	r := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err != nil {
			return out
		}
		if p.FileName() == "" {
			continue
		}
		var rd io.Reader = p
		if p.Header.Get("Content-Transfer-Encoding") == "base64" {
			rd = base64.NewDecoder(base64.StdEncoding, p)
		}
		b, err := io.ReadAll(rd)
		if err != nil {
			t.Fatal(err)
		}
		out[p.FileName()] = b
	}
}

// pdfText extracts a PDF's text with pdftotext (the test is skipped where
// it is not installed).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext is not installed")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// reportParts returns a report mail's PDF text and its JSON model.
func reportParts(t *testing.T, raw string) (string, *reports.Model) {
	t.Helper()
	var pdf, js []byte
	for name, b := range attachments(t, raw) {
		switch {
		case strings.HasSuffix(name, ".pdf"):
			pdf = b
		case strings.HasSuffix(name, ".json"):
			js = b
		}
	}
	if pdf == nil || js == nil {
		t.Fatalf("the report mail %q lacks its PDF or its JSON", header(raw, "Subject"))
	}
	var md reports.Model
	if err := json.Unmarshal(js, &md); err != nil {
		t.Fatal(err)
	}
	return pdfText(t, pdf), &md
}

// TestReportsThroughTheDaemon: the whole path on the embedded server. Every
// nation is mailed its starting report (a PDF naming its own forces). Then
// in turn 1 Eisenmark proposes a treaty that Morgronskia attests, and asks
// for a special action the referee approves with a TREASURY change; the
// referee's RESOLVE NOW resolves the turn, and every nation gets a mail with
// its PDF report whose text names its own forces and no foreign force ID
// the nation was not shown (by an event it saw, or its scouts); the
// approved ruling shows in Eisenmark's ledger; the treaty is published in
// every nation's report; the referee's master report lists the sheets
// received with their receipts and the nations missing.
func TestReportsThroughTheDaemon(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	g := h.d.Game
	ctx := context.Background()
	const eis, eisPW = "eisenmark@pbem.localhost", "pw-eisenmark"
	const mor, morPW = "morgronskia@pbem.localhost", "pw-morgronskia"

	start, _ := h.waitFor(eis, eisPW, isStartReport)
	if start == "" {
		t.Fatal("Eisenmark got no starting report")
	}
	text, md := reportParts(t, start)
	for _, want := range []string{"E1", "E2", "E-D1", "NATION eisenmark", "TURN 1"} {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(want) + `\b`).MatchString(text) {
			t.Errorf("the starting report's PDF does not name %s", want)
		}
	}
	if !md.Starting || md.Deadline == "" {
		t.Errorf("the starting report: Starting %v, deadline %q", md.Starting, md.Deadline)
	}

	sheet := strings.Replace(goodSheet, "STANCE E1 ATTACK", "STANCE E1 ATTACK\nREQUEST \"Bribe the governor of Dresna\"\n"+
		"TREATY \"Peace of Stettau\" PARTIES eisenmark, morgronskia TEXT\nNeither party shall enter the other's home provinces.\nENDTREATY", 1)
	h.send(eis, "orders", sheet)
	fwd, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool { return strings.Contains(body(m), "Bribe the governor") })
	token := ""
	for _, line := range strings.Split(body(fwd), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "APPROVE" {
			token = f[1]
		}
	}
	if token == "" {
		t.Fatalf("no APPROVE token in the request mail:\n%s", body(fwd))
	}
	id := h.send(mor, "orders", sheetOf("morgronskia", "demo-morgronskia", "ATTEST T1"))
	if ack, _ := h.waitFor(mor, morPW, replyTo(id)); !strings.Contains(body(ack), "every party has attested it") {
		t.Fatalf("Morgronskia's attestation:\n%s", body(ack))
	}
	id = h.send("referee@pbem.localhost", "Re: request", "PASSWORD "+refereePassword+"\nAPPROVE "+token+"\n  TREASURY eisenmark +250\n")
	if ack, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(id)); !strings.Contains(body(ack), "APPROVE") {
		t.Fatalf("the referee's APPROVE:\n%s", body(ack))
	}
	h.settle()
	if rs, err := g.Rulings(ctx, 1); err != nil || len(rs) != 1 {
		t.Fatalf("rulings in force for turn 1: %+v, %v", rs, err)
	}
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")

	rep, _ := h.waitFor("referee@pbem.localhost", "pw-referee", isReport("Turn 1,"))
	if rep == "" {
		t.Fatal("the referee got no master report")
	}
	sub, _ := g.DB.LatestSubmission(ctx, "syw", 1, "eisenmark", KindOrders)
	refText, _ := func() (string, bool) {
		for name, b := range attachments(t, rep) {
			if strings.HasSuffix(name, ".pdf") {
				return pdfText(t, b), true
			}
		}
		return "", false
	}()
	for _, want := range []string{"receipt " + sub.ReceiptHash, "Missing: fromande, hispardia, unterreich"} {
		if !strings.Contains(body(rep), want) {
			t.Errorf("the referee's report body lacks %q", want)
		}
	}
	if !strings.Contains(refText, sub.ReceiptHash) {
		t.Error("the referee's PDF does not list Eisenmark's sheet with its receipt")
	}

	rec, err := g.DB.LatestTurn(ctx, "syw")
	if err != nil || rec.Turn != 1 {
		t.Fatalf("latest turn %d, %v", rec.Turn, err)
	}
	var st engine.State
	if err := json.Unmarshal(rec.State, &st); err != nil {
		t.Fatal(err)
	}
	events, err := engine.UnmarshalEvents(rec.EventLog)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"} {
		nation := game.NationID(n)
		raw := ""
		if n == "eisenmark" || n == "morgronskia" { // the two with mailboxes on the embedded server
			raw, _ = h.waitFor(n+"@pbem.localhost", "pw-"+n, isReport("Turn 1,"))
		} else {
			for _, r := range reportRows(t, g, 1) {
				if slices.Contains(r.Recipients, n+"@pbem.localhost") {
					raw = string(r.Raw)
				}
			}
		}
		if raw == "" {
			t.Errorf("%s got no turn report", n)
			continue
		}
		text, md := reportParts(t, raw)
		// What the nation was shown: the strings of the events it saw,
		// and the foreign forces its scouts reached.
		shown := map[string]bool{}
		for _, e := range engine.EventsFor(events, nation) {
			b, _ := engine.MarshalEvent(e)
			for _, id := range regexp.MustCompile(`"([A-Z][0-9]+)"`).FindAllStringSubmatch(string(b), -1) {
				shown[id[1]] = true
			}
		}
		for _, f := range engine.View(g.Map, g.Rules, &st, nation).Foreign {
			if f.Level > ruleset.LevelSize {
				shown[string(f.ID)] = true
			}
		}
		for _, f := range st.Forces {
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(string(f.ID)) + `\b`)
			switch {
			case f.Nation == nation && !re.MatchString(text):
				t.Errorf("%s's PDF does not name its own force %s", n, f.ID)
			case f.Nation != nation && !shown[string(f.ID)] && re.MatchString(text):
				t.Errorf("%s's PDF names the foreign force %s, which it was not shown", n, f.ID)
			}
		}
		if !slices.ContainsFunc(md.Treaties, func(tr reports.Treaty) bool { return tr.ID == "T1" && tr.Published != "" }) ||
			!strings.Contains(text, "Peace of Stettau") {
			t.Errorf("%s's report does not publish treaty T1: %+v", n, md.Treaties)
		}
		if n == "eisenmark" {
			i := slices.IndexFunc(md.Treasury.Ledger, func(l reports.LedgerLine) bool { return l.What == "ruling" })
			if i < 0 || md.Treasury.Ledger[i].Crowns != 250 || !strings.Contains(text, "ruling") {
				var seen []string
				for _, e := range engine.EventsFor(events, nation) {
					if strings.HasPrefix(e.Kind(), "Ruling") {
						b, _ := engine.MarshalEvent(e)
						seen = append(seen, string(b))
					}
				}
				t.Errorf("Eisenmark's ledger does not show the approved TREASURY ruling: %+v; ruling events %v", md.Treasury.Ledger, seen)
			}
		}
	}
	h.settle()
	if n := len(reportRows(t, g, 1)); n != 6 {
		t.Errorf("%d report rows for turn 1, want 6", n)
	}
}

// TestStartingReportsOnce: the starting reports are queued once when the
// game is created — five nations and the referee — and a restart queues
// none again.
func TestStartingReportsOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	rows := func(g *Game) []string {
		var ids []string
		for _, s := range []store.OutboxState{store.OutboxPending, store.OutboxSending, store.OutboxSent} {
			rs, err := g.DB.MessagesInState(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Kind == MailStartReport {
					ids = append(ids, r.MessageID)
				}
			}
		}
		slices.Sort(ids)
		return ids
	}
	d, _ := startGame(t, dir, nil)
	first := rows(d.Game)
	if len(first) != 6 {
		t.Fatalf("%d starting reports queued, want 6 (five nations and the referee)", len(first))
	}
	if sent, err := d.Game.SendStartReports(ctx); err != nil || sent {
		t.Errorf("SendStartReports again: %v, %v; want nothing queued", sent, err)
	}
	d.Close()
	d, _ = startGame(t, dir, nil)
	defer d.Close()
	if again := rows(d.Game); !slices.Equal(again, first) {
		t.Errorf("after a restart the starting reports are %v, want the same %v", again, first)
	}
}

// TestYearEndTurnReports: the year-end is a turn of its own, with its own
// deadline from the schedule; the turn runner resolves it like any other,
// and each nation's report of it has the ledger of the year-end: taxes by
// city and why, and the treasury changes with their reasons.
func TestYearEndTurnReports(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	for {
		st, err := g.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		yearEnd := st.Calendar.Date(st.Turn).IsYearEnd()
		if yearEnd {
			if _, err := g.DB.TurnDeadline(ctx, "syw", st.Turn); err != nil {
				t.Fatalf("the year-end turn %d has no deadline of its own: %v", st.Turn, err)
			}
		}
		// The turns before the year-end mail their events as plain text:
		// their PDFs (six a turn) are not the point here.
		g.TurnMailer = PlainTurnMail
		if yearEnd {
			g.TurnMailer = nil // the PDF reports
		}
		if err := g.ResolveTurn(ctx); err != nil {
			t.Fatal(err)
		}
		if !yearEnd {
			if st.Turn > 20 {
				t.Fatal("no year-end in 20 turns")
			}
			continue
		}
		md, err := g.RebuildReport(ctx, st.Turn, "eisenmark")
		if err != nil {
			t.Fatalf("no report model of the year-end: %v", err)
		}
		taxes := slices.ContainsFunc(md.Treasury.Ledger, func(l reports.LedgerLine) bool {
			return l.What == "taxes" && l.City != "" && (strings.HasPrefix(l.Why, "full") || strings.HasPrefix(l.Why, "half") || strings.HasPrefix(l.Why, "none"))
		})
		if !taxes {
			t.Errorf("Eisenmark's year-end report has no taxes by city in its ledger: %+v", md.Treasury.Ledger)
		}
		for _, r := range reportRows(t, g, st.Turn) {
			if r.Kind == MailReport && !strings.Contains(string(r.Raw), "application/pdf") {
				t.Errorf("the year-end report %s has no PDF", r.MessageID)
			}
		}
		return
	}
}

// TestVictoryAnnounced: a VictoryDeclared among a turn's events is mailed to
// every nation and the referee.
func TestVictoryAnnounced(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g := d.Game
	v := &engine.VictoryDeclared{Victory: engine.Victory{Year: 1752, Winners: []game.NationID{"eisenmark"},
		Contenders: []engine.NationTaxBase{{Nation: "eisenmark", TaxBase: 4900}, {Nation: "fromande", TaxBase: 4800}}}}
	msgs := g.victoryMails([]engine.Event{v}, 7, g.Now())
	if len(msgs) != 6 {
		t.Fatalf("%d victory mails, want 6 (five nations and the referee)", len(msgs))
	}
	for _, m := range msgs {
		if !strings.Contains(m.Subject, "won: Eisenmark") || !strings.Contains(m.Text, "Eisenmark has won the campaign") ||
			!strings.Contains(m.Text, "4900") {
			t.Errorf("the victory mail to %v: %s\n%s", m.To, m.Subject, m.Text)
		}
	}
	if g.victoryMails(nil, 7, g.Now()) != nil {
		t.Error("victory mails without a victory")
	}
}
