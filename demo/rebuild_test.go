package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/store"
)

// TestReportsRebuiltFromTheArchive plays the demo's year by mail and builds
// every nation's report again from the game's store alone
// (daemon.Game.RebuildReport: the state and events stored with the turn,
// and the reports before it rebuilt the same way from theirs, for the
// last-seen intelligence and the treasury brought forward): each is the
// report that was mailed, byte for byte — its JSON attachment, which is the
// report's whole model, and its text. Nothing of a report is stored, so a
// nation's view is a function of the archive.
func TestReportsRebuiltFromTheArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the demo's year by mail")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := Run(ctx, Options{Out: filepath.Join(dir, "out"), DataDir: data, Scenario: "../scenarios/default", Seed: 1752}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(data, "config.yaml")
	text, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(text, cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	var rows []store.OutboxMessage
	for _, s := range []store.OutboxState{store.OutboxSent, store.OutboxPending, store.OutboxSending, store.OutboxFailed} {
		ms, err := g.DB.MessagesInState(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, ms...)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Kind != daemon.MailReport && r.Kind != daemon.MailStartReport || slices.Contains(r.Recipients, cfg.Game.Referee) {
			continue // the referee's master report is no nation's view
		}
		js, body := reportParts(t, r.Raw)
		var mailed reports.Model
		if err := json.Unmarshal(js, &mailed); err != nil {
			t.Fatalf("%s: the JSON attachment: %v", r.MessageID, err)
		}
		turn := mailed.ResolvedTurn
		if mailed.Starting {
			turn = 0
		}
		md, err := g.RebuildReport(ctx, turn, mailed.Nation)
		if err != nil {
			t.Fatal(err)
		}
		rebuilt, err := reports.JSON(md)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rebuilt, js) {
			t.Errorf("%s's report of turn %d rebuilt from the archive differs from the one mailed (%s):\n%s",
				mailed.Nation, turn, r.MessageID, firstDifference(rebuilt, js))
		}
		if got := reports.Text(md); strings.TrimRight(got, "\n") != strings.TrimRight(body, "\n") {
			t.Errorf("%s's report of turn %d: the text rebuilt differs from the text mailed:\n%s",
				mailed.Nation, turn, firstDifference([]byte(got), []byte(body)))
		}
		seen[string(mailed.Nation)+"/"+mailed.TurnLabel] = true
	}
	// Five nations, the opening and every turn of the year.
	if len(seen) < 5*8 {
		t.Errorf("%d nation reports checked, want at least 40 (five nations, the opening and seven turns)", len(seen))
	}
}

// reportParts returns a report mail's JSON attachment and its text.
func reportParts(t *testing.T, raw []byte) (js []byte, text string) {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var ct string
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			ct, _, _ = h.ContentType()
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ct == "application/json":
			js = b
		case ct == "text/plain" && text == "":
			text = strings.ReplaceAll(string(b), "\r\n", "\n")
		}
	}
	if js == nil {
		t.Fatal("a report mail without its JSON attachment")
	}
	return js, text
}

// firstDifference shows where two texts part.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-80, 0)
	return "rebuilt: …" + string(a[from:min(i+80, len(a))]) + "…\nmailed:  …" + string(b[from:min(i+80, len(b))]) + "…"
}
