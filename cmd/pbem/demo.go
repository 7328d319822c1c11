package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/demo"
	"github.com/syw-pbem/pbem/scenarios"
)

// runDemo is "pbem demo": a whole game-year played by mail on the embedded
// server by scripted players and a scripted referee (package demo).
func runDemo(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	out := fs.String("out", "demo-out", "the folder the reports are written to")
	seed := fs.Uint64("seed", 1752, fmt.Sprintf("the dice seed: the same seed plays the same game (the Trossian demo's default: %d)", demo.TrossianSeed))
	data := fs.String("data", "", "the game's data folder (default: a temporary folder, removed afterwards)")
	scen := fs.String("scenario", "", "the scenario folder, or \"trossian\" for the Trossian campaign's (default: the config's game.scenario, or the default scenario built into pbem)")
	if code, ok := parseNoArgs(e, c, fs, args); !ok {
		return code
	}
	trossianGame := false
	if *scen == "" { // a Trossian game folder's config plays the Trossian demo on its scenario
		if cfg, err := config.Load(e.configPath); err == nil && cfg.Game.Ruleset == "trossian" {
			*scen, trossianGame = cfg.Path(cfg.Game.Scenario), true
		}
	}
	if trossianGame || *scen == "trossian" || scenarios.IsTrossian(*scen) {
		// The Trossian campaign's year (seed 004), with its own default seed.
		seedGiven := false
		fs.Visit(func(f *flag.Flag) { seedGiven = seedGiven || f.Name == "seed" })
		if !seedGiven {
			*seed = demo.TrossianSeed
		}
		if *scen == "trossian" {
			*scen = scenarios.TrossianDir
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		res, _, err := demo.RunTrossian(ctx, demo.Options{Out: *out, DataDir: *data, Scenario: *scen, Seed: *seed, Progress: e.stdout})
		if err != nil {
			e.errorf("demo: %v", err)
			return exitFailure
		}
		fmt.Fprintf(e.stdout, "The demo year took %.1f s.\n", res.Elapsed.Seconds())
		return exitOK
	}
	if *scen == "" {
		*scen = scenarios.DefaultDir
		if cfg, err := config.Load(e.configPath); err == nil {
			*scen = cfg.Path(cfg.Game.Scenario)
		}
	}
	// The default scenario needs no folder: run from anywhere (an empty
	// folder, an installed pbem), the game loads the copy built into pbem,
	// as "pbem init" and "pbem run" do (daemon.LoadScenario).
	if _, err := os.Stat(*scen); err != nil && !scenarios.IsDefault(*scen) {
		e.errorf("demo: the scenario folder %s cannot be read (%v): name one with --scenario DIR, or leave it out for the default scenario", *scen, err)
		return exitConfig
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := demo.Run(ctx, demo.Options{Out: *out, DataDir: *data, Scenario: *scen, Seed: *seed, Progress: e.stdout})
	if err != nil {
		e.errorf("demo: %v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "The demo year took %.1f s.\n", res.Elapsed.Seconds())
	return exitOK
}
