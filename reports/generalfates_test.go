package reports

import (
	"testing"

	"github.com/syw-pbem/pbem/engine/battle"
)

// TestGeneralFates: the generals a force lost with it are named with their
// fate, an enemy's the nation did not scout counted in words.
func TestGeneralFates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		gs   []battle.GeneralFate
		want string
	}{
		{nil, ""},
		{[]battle.GeneralFate{{ID: "Saxe", Name: "General Saxe", Fate: battle.Captured}}, "General Saxe was taken prisoner"},
		{[]battle.GeneralFate{{Name: "General Keith", Fate: battle.Killed}, {Name: "General Daun", Fate: battle.Killed}, {Fate: battle.Wounded, Name: "X"}},
			"General Keith and General Daun were killed"},
		{[]battle.GeneralFate{{Fate: battle.Captured}}, "a general was taken prisoner"},
		{[]battle.GeneralFate{{Fate: battle.Captured}, {Fate: battle.Captured}, {Name: "General Saxe", Fate: battle.Killed}},
			"General Saxe was killed; two generals were taken prisoner"},
		{[]battle.GeneralFate{{Name: "General Saxe", Fate: battle.Captured}, {Fate: battle.Captured}}, "General Saxe and another general were taken prisoner"},
	} {
		if got := GeneralFates(c.gs); got != c.want {
			t.Errorf("GeneralFates(%v) = %q, want %q", c.gs, got, c.want)
		}
	}
}
