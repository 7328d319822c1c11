package battle

import (
	"fmt"

	"github.com/syw-pbem/pbem/ruleset"
)

// Model is a way of fighting a battle: the engine's battle step calls Fight
// with the setup and its dice, and applies the Result with Aftermath. A model
// is pure: the same setup and the same dice give the same result.
type Model interface {
	// Name is the model's key (ruleset.BattleModels).
	Name() string
	// Fight resolves the battle.
	Fight(r *ruleset.Ruleset, s *Setup, d Dice) *Result
}

// ByName returns the model a ruleset names ("" is the default simulation).
func ByName(name string) (Model, error) {
	switch name {
	case "", ruleset.BattleSimulation:
		return Simulation{}, nil
	case ruleset.BattleLGG:
		return LGG{}, nil
	}
	return nil, fmt.Errorf("battle model %q: expected one of %v", name, ruleset.BattleModels)
}
