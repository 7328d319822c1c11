package daemon

import (
	"errors"
	"io/fs"
	"os"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/scenarios"
)

// LoadScenario loads the config's scenario (game.scenario). When that is
// the default folder (scenarios/default) and no such folder exists beside
// the config — an installed pbem, run from a game folder — it loads the
// default scenario built into pbem instead; builtIn says so.
func LoadScenario(cfg *config.Config) (s *scenario.Scenario, builtIn bool, err error) {
	dir := cfg.ScenarioDir()
	if UsesBuiltInScenario(cfg) {
		s, err := scenario.LoadFS(scenarios.Default(), scenarios.DefaultDir)
		return s, true, err
	}
	s, err = scenario.Load(dir)
	return s, false, err
}

// UsesBuiltInScenario reports whether the config's scenario is the default
// one and, there being no such folder, the copy built into pbem is used.
func UsesBuiltInScenario(cfg *config.Config) bool {
	if !scenarios.IsDefault(cfg.Game.Scenario) {
		return false
	}
	_, err := os.Stat(cfg.ScenarioDir())
	return errors.Is(err, fs.ErrNotExist)
}
