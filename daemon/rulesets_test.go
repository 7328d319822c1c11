package daemon

import (
	"slices"
	"testing"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestConfigKnowsEveryRuleset: config validates game.ruleset against its own
// list (config may not import the ruleset package); a new edition must be
// added to both, or a referee could not choose it.
func TestConfigKnowsEveryRuleset(t *testing.T) {
	got := slices.Clone(config.Rulesets)
	slices.Sort(got)
	if want := ruleset.IDs(); !slices.Equal(got, want) {
		t.Errorf("config.Rulesets = %v, the ruleset package has %v: keep them the same", got, want)
	}
}

// TestConfigKnowsEveryBattleModel: the same for game.battle_model.
func TestConfigKnowsEveryBattleModel(t *testing.T) {
	if !slices.Equal(config.BattleModels, ruleset.BattleModels) {
		t.Errorf("config.BattleModels = %v, the ruleset package has %v: keep them the same", config.BattleModels, ruleset.BattleModels)
	}
}
