package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/reports/mapdraw"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenarios"
)

// defaultMapFile is the map of the default scenario, used when neither an
// argument nor a readable config names one.
const defaultMapFile = "scenarios/default/map.txt"

// mapFileAndRules picks the map file (the argument, the config's scenario, or
// the default) and the ruleset whose tax values it is checked against.
func mapFileAndRules(e *env, args []string, rulesFlag string) (string, *ruleset.Ruleset, int) {
	file := ""
	rulesID := rulesFlag
	if len(args) > 1 {
		e.errorf("expected at most one map file, got %d arguments: %s", len(args), strings.Join(args, " "))
		return "", nil, exitUsage
	}
	if len(args) == 1 {
		file = args[0]
	}
	if file == "" || rulesID == "" {
		cfg, err := config.Load(e.configPath)
		switch {
		case err == nil:
			if file == "" {
				file = filepath.Join(cfg.ScenarioDir(), "map.txt")
			}
			if rulesID == "" {
				rulesID = cfg.Game.Ruleset
			}
		case errors.Is(err, os.ErrNotExist) && !e.configGiven:
			// No config.yaml here and none named: the default map.
		default:
			// The map or ruleset the config names cannot be known: checking
			// another one would quietly answer a different question.
			_, code := loadConfig(e)
			return "", nil, code
		}
	}
	if file == "" {
		file = defaultMapFile
	}
	if rulesID == "" {
		// A stated default for checking a bare map, never a silent one.
		rulesID = ruleset.SYW1752().ID
		e.errorf("note: no config and no --ruleset: the map is checked against %s (rulesets: %s)", rulesID, strings.Join(ruleset.IDs(), ", "))
	}
	rules, err := ruleset.ByID(rulesID)
	if err != nil {
		e.errorf("%v", err)
		return "", nil, exitUsage
	}
	return file, rules, exitOK
}

// loadMap picks the map file and ruleset (see mapFileAndRules) and parses
// the file, printing every syntax error with its line.
func loadMap(e *env, args []string, rulesFlag string) (string, *hexmap.Map, *ruleset.Ruleset, int) {
	file, rules, code := mapFileAndRules(e, args, rulesFlag)
	if code != exitOK {
		return "", nil, nil, code
	}
	m, err := loadMapFile(file)
	var syn hexmap.SyntaxErrors
	switch {
	case err == nil:
		return file, m, rules, exitOK
	case errors.As(err, &syn):
		for _, s := range syn {
			fmt.Fprintln(e.stderr, s.Error())
		}
		fmt.Fprintf(e.stderr, "%s: %s; fix %s and run \"pbem map validate %s\" again\n", file, english.Count(len(syn), "error"), english.Agree(len(syn), "it", "them"), file)
		return "", nil, nil, exitProblems
	case errors.Is(err, os.ErrNotExist):
		e.errorf("cannot read map file %s: it does not exist (give the path of a map file, e.g. %s)", file, defaultMapFile)
	default:
		e.errorf("cannot read map file %s: %v", file, err)
	}
	return "", nil, nil, exitFailure
}

// loadMapFile parses a map file; the default scenario's map, when there is
// no such file here (an installed pbem), is the one built into pbem.
func loadMapFile(file string) (*hexmap.Map, error) {
	m, err := hexmap.Load(file)
	if errors.Is(err, os.ErrNotExist) && filepath.Base(file) == "map.txt" && scenarios.IsDefault(filepath.Dir(file)) {
		if data, rerr := fs.ReadFile(scenarios.Default(), "map.txt"); rerr == nil {
			return hexmap.Parse(bytes.NewReader(data), file+" (built into pbem)")
		}
	}
	return m, err
}

func runMapValidate(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	rulesFlag := fs.String("ruleset", "", "the ruleset whose tax values and starting tax base apply (default: the config's, or syw-1752)")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if file, ok := areaMapFile(e, fs.Args()); ok {
		return validateAreaMap(e, file)
	}
	file, m, rules, code := loadMap(e, fs.Args(), *rulesFlag)
	if code != exitOK {
		return code
	}
	problems := m.Validate(hexmap.ValidateOptions{TaxValue: rules.Taxes.Of, StartingTaxBase: rules.Taxes.StartingTaxBase})
	printSummary(e, m, rules)
	if len(problems) > 0 {
		fmt.Fprintln(e.stderr)
		for _, p := range problems {
			fmt.Fprintln(e.stderr, p.In(file))
		}
		fmt.Fprintf(e.stderr, "%s: %s; the map is not fit to play until %s fixed\n", file, english.Count(len(problems), "problem"), english.Agree(len(problems), "it is", "they are"))
		return exitProblems
	}
	fmt.Fprintf(e.stdout, "\n%s: valid (%s)\n", file, rules.Name)
	return exitOK
}

func printSummary(e *env, m *hexmap.Map, rules *ruleset.Ruleset) {
	s := m.Summary(rules.Taxes.Of)
	w := e.stdout
	fmt.Fprintf(w, "%s: %d×%d hexes, %s (%s, %d on rivers), %s\n\n",
		s.Name, s.Cols, s.Rows, english.Count(s.Cities, "city"), english.Count(s.Ports, "port"), s.RiverCities, english.Count(len(s.Seas), "sea area"))
	fmt.Fprintf(w, "%-12s %-10s %-14s %6s %6s  %s\n", "nation", "provinces", "capitol", "cities", "tax", "neighbours / seas")
	for _, n := range s.Nations {
		var provs []string
		for _, p := range n.Provinces {
			provs = append(provs, p.Letter)
		}
		seas := make([]string, len(n.Seas))
		for i, id := range n.Seas {
			seas[i] = string(id)
		}
		fmt.Fprintf(w, "%-12s %-10s %-14s %6d %6d  %s / %s\n", n.Name, strings.Join(provs, ","), n.Capitol,
			n.Cities, n.Tax, strings.Join(n.Neighbours, ","), strings.Join(seas, ","))
	}
	fmt.Fprintf(w, "\nneutral provinces (%d, worth %d together):\n", len(s.Neutral), s.NeutralTax)
	for _, p := range s.Neutral {
		fmt.Fprintf(w, "  %s %-16s %2d %-6s %5d\n", p.Letter, p.Name, len(p.Cities), english.Noun(len(p.Cities), "city"), p.Tax)
	}
	fmt.Fprintf(w, "\nsea areas:\n")
	for _, sea := range s.Seas {
		var links []string
		for _, l := range sea.Links {
			arrow := "→"
			switch l.Wind {
			case hexmap.BothWays:
				arrow = "↔"
			case hexmap.NoWind:
				arrow = "←"
			}
			links = append(links, arrow+string(l.To))
		}
		fmt.Fprintf(w, "  %-3s %-16s %2d ports  winds %s\n", sea.ID, sea.Name, len(sea.Ports), strings.Join(links, " "))
	}
}

func runMapRender(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	out := fs.String("out", "", "the PDF file to write (required)")
	paper := fs.String("paper", "A3", "paper size: A3, A4, A2, Letter, Tabloid …")
	rulesFlag := fs.String("ruleset", "", "the ruleset whose tax values label the cities (default: the config's, or syw-1752)")
	gameState := fs.Bool("game", false, "draw the configured game's current state (forces, controllers, sieges)")
	if code, ok := parseFlags(e, c, fs, args); !ok {
		return code
	}
	if *out == "" {
		e.errorf("map render: --out FILE.pdf is required (where to write the PDF)")
		return exitUsage
	}
	if !mapdraw.KnownPageSize(*paper) {
		e.errorf("map render: unknown paper size %q for --paper: expected one of %s", *paper, strings.Join(mapdraw.PageSizes(), ", "))
		return exitUsage
	}
	if file, ok := areaMapFile(e, fs.Args()); ok {
		if *gameState {
			file = "the game's map " + file
		}
		return areaMapNotDrawn(e, file)
	}
	if *gameState {
		return renderGameMap(e, *out, *paper)
	}
	file, m, rules, code := loadMap(e, fs.Args(), *rulesFlag)
	if code != exitOK {
		return code
	}
	if problems := m.Validate(hexmap.ValidateOptions{TaxValue: rules.Taxes.Of, StartingTaxBase: rules.Taxes.StartingTaxBase}); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(e.stderr, p.In(file))
		}
		fmt.Fprintf(e.stderr, "%s: %s; not drawn: fix %s (\"pbem map validate %s\" lists %s) and draw it again\n", file, english.Count(len(problems), "problem"), english.Agree(len(problems), "it", "them"), file, english.Agree(len(problems), "it", "them"))
		return exitProblems
	}
	f, err := os.Create(*out)
	if err != nil {
		e.errorf("cannot write %s: %v", *out, err)
		return exitFailure
	}
	opts := &mapdraw.Options{PageSize: *paper, Taxes: &rules.Taxes}
	if err := mapdraw.Render(f, m, opts); err != nil {
		f.Close()
		os.Remove(*out)
		e.errorf("drawing %s: %v", file, err)
		return exitFailure
	}
	if err := f.Close(); err != nil {
		e.errorf("cannot write %s: %v", *out, err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "wrote %s (%s)\n", *out, m.Name)
	return exitOK
}
