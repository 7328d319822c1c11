package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/syw-pbem/pbem/areamap"
	"github.com/syw-pbem/pbem/campaign"
	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/internal/english"
)

// The map commands and the Trossian campaign's area maps: "pbem map
// validate" checks an area map with the area map's own parser and rules
// (docs/areamap-format.md) rather than reading it as a hex map, line by
// line wrong; "pbem map render" says where an area map is drawn.

// areaMapFile returns the area map the map command is about, if it is
// one: the file given, or else the map of the config's scenario when the
// config's game is played on an area map.
func areaMapFile(e *env, args []string) (string, bool) {
	file := ""
	if len(args) == 1 {
		file = args[0]
	} else if len(args) == 0 {
		cfg, err := config.Load(e.configPath)
		if err != nil {
			return "", false
		}
		if c, err := campaign.ForRuleset(cfg.Game.Ruleset); err != nil || c.ID() == campaign.SYW().ID() {
			return "", false
		}
		file = filepath.Join(cfg.ScenarioDir(), "map.txt")
	}
	return file, file != "" && looksLikeAreaMap(file)
}

// looksLikeAreaMap reports a file with a kingdom or lane directive, which
// only the area map format has (a hex map's are nation and sea).
func looksLikeAreaMap(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 0; sc.Scan() && n < areamap.MaxLines; n++ {
		if w, _, _ := strings.Cut(sc.Text(), " "); w == "kingdom" || w == "lane" {
			return true
		}
	}
	return false
}

// validateAreaMap checks an area map: its syntax, then what Validate
// checks, and, for a scenario's map.txt beside its scenario.yaml, the
// scenario as a new game would read it (the rules' frozen lanes included).
func validateAreaMap(e *env, file string) int {
	m, err := areamap.Load(file)
	var syn areamap.SyntaxErrors
	switch {
	case errors.As(err, &syn):
		for _, s := range syn {
			fmt.Fprintln(e.stderr, s.Error())
		}
		fmt.Fprintf(e.stderr, "%s: %s; fix %s and run \"pbem map validate %s\" again\n", file, english.Count(len(syn), "error"), english.Agree(len(syn), "it", "them"), file)
		return exitProblems
	case errors.Is(err, os.ErrNotExist):
		e.errorf("cannot read map file %s: it does not exist", file)
		return exitFailure
	case err != nil:
		e.errorf("cannot read map file %s: %v", file, err)
		return exitFailure
	}
	var problems []string
	dir := filepath.Dir(file)
	_, statErr := os.Stat(filepath.Join(dir, "scenario.yaml"))
	withScenario := filepath.Base(file) == "map.txt" && statErr == nil
	if withScenario {
		if _, err := campaign.Trossian().LoadScenario(os.DirFS(dir), dir); err != nil {
			problems = strings.Split(err.Error(), "\n")
		}
	} else {
		for _, p := range m.Validate(areamap.ValidateOptions{}) {
			problems = append(problems, p.In(file))
		}
	}
	printAreaSummary(e, m)
	if len(problems) > 0 {
		fmt.Fprintln(e.stderr)
		for _, p := range problems {
			fmt.Fprintln(e.stderr, p)
		}
		fmt.Fprintf(e.stderr, "%s: %s; the map is not fit to play until %s fixed\n", file, english.Count(len(problems), "problem"), english.Agree(len(problems), "it is", "they are"))
		return exitProblems
	}
	how := "an area map of the Trossian campaign, checked with its scenario.yaml"
	if !withScenario {
		how = "an area map of the Trossian campaign; the rules' frozen lanes and the scenario are checked for a map.txt beside its scenario.yaml"
	}
	fmt.Fprintf(e.stdout, "\n%s: valid: %s\n", file, how)
	return exitOK
}

// printAreaSummary prints the area map's kingdoms, provinces and lanes in
// one line each.
func printAreaSummary(e *env, m *areamap.Map) {
	towns, ports := 0, 0
	for _, p := range m.Provinces {
		switch p.Kind {
		case areamap.Town:
			towns++
		case areamap.Port:
			ports++
		}
	}
	frozen := 0
	for _, l := range m.Lanes {
		if l.Frozen {
			frozen++
		}
	}
	kingdoms := make([]string, len(m.Kingdoms))
	for i, k := range m.Kingdoms {
		kingdoms[i] = fmt.Sprintf("%s (%s, capital %s)", k.Name, k.Letter, k.Capital)
	}
	fmt.Fprintf(e.stdout, "%s: %s, %s (%s, %s), %s (%d frozen)\n", m.Name, english.Count(len(m.Kingdoms), "kingdom"),
		english.Count(len(m.Provinces), "province"), english.Count(towns, "town"), english.Count(ports, "port"), english.Count(len(m.Lanes), "sea lane"), frozen)
	fmt.Fprintf(e.stdout, "kingdoms: %s\n", strings.Join(kingdoms, ", "))
}

// areaMapNotDrawn is "pbem map render"'s answer for an area map.
func areaMapNotDrawn(e *env, what string) int {
	e.errorf("map render: %s is an area map (the Trossian campaign's), and pbem map render draws the SYW campaign's hex maps; an area map is drawn on the map page of every report: pbem report --nation NAME --out FILE.pdf (or --referee)", what)
	return exitUsage
}
