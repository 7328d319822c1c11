package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// storedTurn is one turn record decoded: the state after the turn, its
// events and dice, and the deadline that followed it.
type storedTurn struct {
	rec    store.TurnRecord
	state  *engine.State
	events []engine.Event
	rolls  []engine.Roll
}

// loadTurn reads turn t from the store (t < 0: the latest): its state,
// and its events and dice unless stateOnly.
func loadTurn(ctx context.Context, g *daemon.Game, t int, stateOnly bool) (*storedTurn, error) {
	var rec store.TurnRecord
	var err error
	if t < 0 {
		rec, err = g.DB.LatestTurn(ctx, g.ID())
	} else {
		rec, err = g.DB.Turn(ctx, g.ID(), t)
	}
	if errors.Is(err, store.ErrNotFound) {
		if t < 0 {
			return nil, fmt.Errorf("game %s has not been created yet: run \"pbem new\"", g.ID())
		}
		return nil, fmt.Errorf("game %s has no turn %d in the store (turn 0 is the opening position): %w", g.ID(), t, err)
	}
	if err != nil {
		return nil, err
	}
	st := &storedTurn{rec: rec, state: new(engine.State)}
	if err := json.Unmarshal(rec.State, st.state); err != nil {
		return nil, fmt.Errorf("the stored state of turn %d is damaged: %w", rec.Turn, err)
	}
	if stateOnly {
		return st, nil
	}
	if len(bytes.TrimSpace(rec.EventLog)) > 0 {
		if st.events, err = engine.UnmarshalEvents(rec.EventLog); err != nil {
			return nil, fmt.Errorf("the stored events of turn %d: %w", rec.Turn, err)
		}
	}
	if len(bytes.TrimSpace(rec.Dice)) > 0 {
		if err := json.Unmarshal(rec.Dice, &st.rolls); err != nil {
			return nil, fmt.Errorf("the stored dice of turn %d: %w", rec.Turn, err)
		}
	}
	return st, nil
}

// loadTurns reads and decodes the states of turns 0 to n-1 in the
// background, in order, on as many goroutines as there are processors; the
// function it returns waits for turn t. The earlier turns' reports are built
// only to carry their intelligence forward, which their events do not
// change (reports.Input.Previous), so their events are not decoded.
func loadTurns(ctx context.Context, g *daemon.Game, n int) func(t int) (*storedTurn, error) {
	type loaded struct {
		st   *storedTurn
		err  error
		done chan struct{}
	}
	turns := make([]loaded, n)
	next := make(chan int, n)
	for t := range turns {
		turns[t].done = make(chan struct{})
		next <- t
	}
	close(next)
	for range min(n, runtime.GOMAXPROCS(0)) {
		go func() {
			for t := range next {
				turns[t].st, turns[t].err = loadTurn(ctx, g, t, true)
				close(turns[t].done)
			}
		}()
	}
	return func(t int) (*storedTurn, error) {
		<-turns[t].done
		return turns[t].st, turns[t].err
	}
}

func runReport(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	nation := fs.String("nation", "", "the nation whose report to render")
	referee := fs.Bool("referee", false, "render the referee's master report instead")
	turn := fs.Int("turn", -1, "the resolved turn to report on (0: the starting report; default: the latest)")
	out := fs.String("out", "", "the file to write: the PDF, or the JSON with --json (required)")
	asJSON := fs.Bool("json", false, "write the report's JSON (docs/reports.md) instead of the PDF")
	paper := fs.String("paper", "A4", "paper size: A4 or A3")
	if code, ok := parseNoArgs(e, c, fs, args); !ok {
		return code
	}
	if *out == "" || (*nation == "") == !*referee {
		e.errorf("report: give --out FILE and either --nation NAME or --referee (see \"pbem report --help\")")
		return exitUsage
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	opts := &reports.Options{PageSize: *paper}
	if _, err := ruleset.ByID(cfg.Game.Ruleset); err == nil && !*asJSON {
		// A hex-map game's PDF: its fonts are parsed on the other core
		// while the store is read and the model built.
		opts.Prepare()
	}
	ctx := context.Background()
	g, err := daemon.Open(ctx, cfg, &daemon.Options{Logger: cliLogger(e, cfg), ReadsOnly: true})
	if err != nil {
		return failed(e, err)
	}
	defer g.Close()
	if g.Map == nil { // a campaign played through the seam: its area report
		if *asJSON {
			e.errorf("report: --json is for SYW games; a %s game's report is the PDF", cfg.Game.Ruleset)
			return exitUsage
		}
		n := engine.Referee
		if !*referee {
			n = game.NationID(strings.ToLower(*nation))
		}
		r, err := g.CampaignReport(ctx, *turn, n)
		if err != nil {
			return failed(e, err)
		}
		if err := os.WriteFile(*out, r.PDF, 0o644); err != nil {
			e.errorf("cannot write %s: %v", *out, err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", *out, len(r.PDF))
		return exitOK
	}
	last, err := loadTurn(ctx, g, *turn, false)
	if errors.Is(err, store.ErrNotFound) && *turn >= 0 {
		e.errorf("report: --turn %d: %s", *turn, storedTurns(ctx, g))
		return exitUsage
	}
	if err != nil {
		return failed(e, err)
	}
	// The deadline of the turn the report asks orders for, as stored (the
	// referee's DEADLINE commands included), not recomputed from the schedule.
	deadline, err := g.TurnDeadline(ctx, last.state.Turn)
	if err != nil {
		return failed(e, err)
	}
	opts.Taxes = &g.Rules.Taxes
	var data []byte
	if *referee {
		// The master report as the turn's mail carried it (the console shows the same).
		md, err := g.RebuildRefereeReport(ctx, last.state, last.events, last.rec)
		if err != nil {
			return failed(e, err)
		}
		data, err = encode(*asJSON, md, func(b *bytes.Buffer) error { return reports.RenderReferee(b, md, g.Map, opts) })
		if err != nil {
			return failed(e, err)
		}
	} else {
		n, code := reportNation(e, g.Map, *nation)
		if code != exitOK {
			return code
		}
		// The chain of reports from the opening carries last-seen
		// intelligence forward, as the mailed reports did.
		var md *reports.Model
		earlier := loadTurns(ctx, g, last.rec.Turn)
		for t := 0; t <= last.rec.Turn; t++ {
			st := last
			if t != last.rec.Turn {
				if st, err = earlier(t); err != nil {
					return failed(e, err)
				}
			}
			in := reports.Input{Map: g.Map, Rules: g.Rules, State: st.state, Events: st.events, Nation: n,
				GameName: cfg.Game.Name, Zone: g.Zone, Previous: md}
			if t == last.rec.Turn {
				in.Deadline = deadline
			}
			if md, err = reports.Build(in); err != nil {
				return failed(e, err)
			}
		}
		data, err = encode(*asJSON, md, func(b *bytes.Buffer) error { return reports.Render(b, md, g.Map, opts) })
		if err != nil {
			return failed(e, err)
		}
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		e.errorf("cannot write %s: %v", *out, err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", *out, len(data))
	return exitOK
}

// encode returns v's indented JSON, or what pdf writes.
func encode(asJSON bool, v any, pdf func(*bytes.Buffer) error) ([]byte, error) {
	if asJSON {
		b, err := json.MarshalIndent(v, "", "  ")
		return append(b, '\n'), err
	}
	var b bytes.Buffer
	err := pdf(&b)
	return b.Bytes(), err
}

// renderGameMap draws the game's current state (every force with its ID,
// cities by controller) for "pbem map render --game".
func renderGameMap(e *env, out, paper string) int {
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	ctx := context.Background()
	g, err := openForCheck(ctx, cfg, cliLogger(e, cfg))
	if err != nil {
		return failed(e, err)
	}
	defer g.Close()
	st, err := g.State(ctx)
	if err != nil {
		return failed(e, err)
	}
	md, err := reports.BuildReferee(reports.RefereeInput{Map: g.Map, Rules: g.Rules, State: st, GameName: cfg.Game.Name})
	if err != nil {
		return failed(e, err)
	}
	var b bytes.Buffer
	if err := reports.RenderMap(&b, md, g.Map, &reports.Options{PageSize: paper, Taxes: &g.Rules.Taxes}); err != nil {
		e.errorf("map render: %v", err)
		return exitFailure
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		e.errorf("cannot write %s: %v", out, err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s, %s)\n", out, g.Map.Name, st.Calendar.Label(st.Turn))
	return exitOK
}
