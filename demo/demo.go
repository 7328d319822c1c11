// Package demo plays a whole game-year of the SYW Big Game Campaign by mail,
// on pbem's embedded mail server, with five scripted players and a scripted
// referee: "pbem demo".
//
// The algorithm: write a demo config into a data folder (a temporary one
// unless told otherwise) with the embedded accounts and their passwords and
// free loopback ports; seed the game's dice key from the demo's seed, so the
// same seed gives the same game; start the daemon exactly as "pbem run"
// does (mail server, intake, outbox, turn runner). Then, turn by turn, each
// player reads its own engine View (what its reports show) and writes an
// order sheet from it — a plan per nation for the set pieces of the first
// turns, a general rule after — and mails it through SMTP, logging in as a
// mail client does; it reads the checker's answer from its mailbox by IMAP,
// and a sheet written with a deliberate mistake is corrected and sent again.
// A nation asked to attest a treaty reads the treaty's ID from the notice in
// its mailbox and attests it. The referee reads the forwarded request from
// its mailbox and approves it by mail with an effect, then mails RESOLVE NOW;
// the players' and the referee's report mails are read from the mailboxes
// and their PDF attachments (or, before the reports carry a PDF, their text)
// written to DIR/<turn>/<nation>.pdf, the starting reports mailed when the
// game was created to DIR/00-<year>-start, each turn's other mail beside its
// reports (<nation>-mail.txt), and the nations taking part in each turn's
// set pieces to DIR/involved.json (README, "Two commands"). The year-end
// buy is played the same way, and a summary of the year is printed from the
// final state.
package demo

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// Options say where the demo plays and writes.
type Options struct {
	Out      string // where the reports are written (created)
	DataDir  string // the game's data folder; "" for a temporary one, removed afterwards
	Scenario string // the scenario folder (map.txt, scenario.yaml); a default folder that does not exist is the built-in default scenario
	Seed     uint64 // the dice; the same seed gives the same sheets and reports
	Progress io.Writer
	Log      *slog.Logger // the daemon's log; nil: discarded
}

// Result is what the demo played, for the summary and the tests.
type Result struct {
	// Start is the starting reports' folder (00-1752-start), mailed when
	// the game was created; Turns each resolved turn's.
	Start   TurnResult
	Turns   []TurnResult
	Final   *engine.State
	Events  []engine.Event // every event of the year, in turn order
	Text    bool           // some reports came as text, without a PDF
	Elapsed time.Duration
}

// TurnResult is one resolved turn: its folder and the files written.
type TurnResult struct {
	Turn   int
	Folder string
	Files  []string // paths relative to Out
	// Involved are, for each of the demo's set pieces that happened this
	// turn ("land battle", "sea battle", "siege", "assault", "landing",
	// "treaty"), the nations taking part, as the engine's events name them
	// (for the treaty: its parties, in the turn it was proposed). The demo
	// writes them to Out/involved.json.
	Involved map[string][]string `json:",omitempty"`
}

// nations are the five nations of the default scenario, in the order they
// mail their sheets.
var nations = []struct{ id, name, signature string }{
	{"eisenmark", "Eisenmark", "Friedrich"},
	{"morgronskia", "Morgronskia", "Yelisaveta"},
	{"unterreich", "Unterreich", "Maria Theresia"},
	{"fromande", "Fromande", "Louis"},
	{"hispardia", "Hispardia", "Fernando"},
}

const configText = `data_dir: data
log_level: warn
game:
  id: syw
  name: SYW Demo Game
  ruleset: syw-1752
  scenario: %q
  referee: referee@pbem.localhost
  timezone: Europe/London
  deadline: {time: "18:00", every_days: 28}
  reminder_hours: 0
%s  nations:
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

// refereeCommandPassword is the referee's password on his command mails
// (a PASSWORD line), as the shipped config's demo value.
const refereeCommandPassword = "demo-referee-commands"

// Run plays the demo year and writes the reports under o.Out.
func Run(ctx context.Context, o Options) (*Result, error) {
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
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	scen, err := filepath.Abs(o.Scenario)
	if err != nil {
		return nil, err
	}
	var nl, al strings.Builder
	for _, n := range nations {
		fmt.Fprintf(&nl, "    %s: {addresses: [%s@pbem.localhost], password: demo-%s}\n", n.id, n.id, n.id)
		fmt.Fprintf(&al, "      - {user: %s@pbem.localhost, password: demo-mail-%s}\n", n.id, n.id)
	}
	cfgPath := filepath.Join(dir, "config.yaml")
	// The referee's own password for his command mails, where this pbem
	// has one (game.referee_password); without it the config is written
	// without the key.
	var text string
	var cfg *config.Config
	withRefereePW := false
	for _, refPW := range []string{"  referee_password: {password: " + refereeCommandPassword + "}\n", ""} {
		text = fmt.Sprintf(configText, scen, refPW, strings.TrimRight(nl.String(), "\n"), strings.TrimRight(al.String(), "\n"))
		// Parse, not Load: the demo listens on ports the kernel picks
		// (port 0), which Load rightly refuses for a real game.
		if cfg, err = config.Parse([]byte(text), cfgPath); err == nil {
			withRefereePW = refPW != ""
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the demo's config: %w", err)
	}
	if err := os.WriteFile(cfgPath, []byte(text), 0o600); err != nil {
		return nil, err
	}
	logger := o.Log
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := seedDice(ctx, cfg, logger, o.Seed); err != nil {
		return nil, err
	}
	d, err := daemon.Start(ctx, cfg, &daemon.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	defer func() {
		cancel()
		<-done
		d.Close()
	}()
	// The config left in the data folder names the ports the kernel gave,
	// so that "pbem status", "pbem report" or "pbem export --config
	// DIR/config.yaml" work on a kept demo game (--data) afterwards.
	kept := strings.Replace(text, "imap_listen: 127.0.0.1:0", "imap_listen: "+d.Mail.IMAPAddr(), 1)
	kept = strings.Replace(kept, "smtp_listen: 127.0.0.1:0", "smtp_listen: "+d.Mail.SMTPAddr(), 1)
	if err := os.WriteFile(cfgPath, []byte(kept), 0o600); err != nil {
		d.Close()
		return nil, err
	}
	step("game %q started in %s: IMAP %s, SMTP %s (seed %d)", cfg.Game.Name, dir, d.Mail.IMAPAddr(), d.Mail.SMTPAddr(), o.Seed)

	g := &demoGame{
		o: o, d: d, step: step, res: &Result{}, refereePassword: withRefereePW,
		referee: &account{addr: "referee@pbem.localhost", password: "demo-referee", smtpAddr: d.Mail.SMTPAddr(), imapAddr: d.Mail.IMAPAddr()},
	}
	defer g.referee.close()
	for i, n := range nations {
		p := &player{
			nation: game.NationID(n.id), name: n.signature, password: "demo-" + n.id,
			acct: &account{addr: n.id + "@pbem.localhost", password: "demo-mail-" + n.id, smtpAddr: d.Mail.SMTPAddr(), imapAddr: d.Mail.IMAPAddr()},
			rng:  rand.New(rand.NewPCG(o.Seed, uint64(i)+1)),
		}
		if nn, ok := d.Game.Map.Nation(p.nation); ok {
			p.letter = nn.Letter
		}
		defer p.acct.close()
		g.players = append(g.players, p)
	}
	if err := g.play(ctx); err != nil {
		return g.res, err
	}
	g.res.Elapsed = time.Since(start)
	return g.res, nil
}
