package refcmd

import (
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/trossian"
)

// TestRule: each RULE form reads as its trossian.Effect and prints back as
// written; a mistake is told by its line with what was expected.
func TestRule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want trossian.Effect
	}{
		{"RULE AP Norhaven +5", trossian.Effect{Kind: trossian.EffectAP, Province: "Norhaven", Delta: 5}},
		{"RULE COURIERS varn -1", trossian.Effect{Kind: trossian.EffectCouriers, Nation: "varn", Delta: -1}},
		{"RULE CONTROL Wendmoor NONE", trossian.Effect{Kind: trossian.EffectControl, Province: "Wendmoor"}},
		{"RULE CONTROL Wendmoor carrowland", trossian.Effect{Kind: trossian.EffectControl, Province: "Wendmoor", Nation: "carrowland"}},
		{"RULE MOVE N2 TO Elkmoor", trossian.Effect{Kind: trossian.EffectMove, Force: "N2", Province: "Elkmoor"}},
		{"RULE REMOVE N1", trossian.Effect{Kind: trossian.EffectRemove, Force: "N1"}},
		{`RULE TELL ostmark "The plans say Kessel."`, trossian.Effect{Kind: trossian.EffectTell, Nation: "ostmark", Text: "The plans say Kessel."}},
		{"RULE WAR varn selvenia", trossian.Effect{Kind: trossian.EffectWar, Nation: "varn", Other: "selvenia"}},
	}
	for _, c := range cases {
		sh := Parse(c.line, nil, time.UTC)
		if len(sh.Diagnostics) > 0 || len(sh.Commands) != 1 {
			t.Errorf("%s: %+v", c.line, sh.Diagnostics)
			continue
		}
		r := sh.Commands[0].(Rule)
		if r.Effect.Kind != c.want.Kind || r.Effect.Province != c.want.Province || r.Effect.Nation != c.want.Nation ||
			r.Effect.Force != c.want.Force || r.Effect.Delta != c.want.Delta || r.Effect.Text != c.want.Text || r.Effect.Other != c.want.Other {
			t.Errorf("%s: read %+v", c.line, r.Effect)
		}
		if got := r.Format(nil); got != c.line {
			t.Errorf("%s: prints %q", c.line, got)
		}
	}
	add := Parse("RULE ADD N1 2 line-infantry, 1 hq", nil, time.UTC)
	if len(add.Commands) != 1 || add.Commands[0].(Rule).Effect.Stands.Total() != 3 {
		t.Errorf("ADD: %+v", add)
	}
	bad := Parse("RULE BANISH N1", nil, time.UTC)
	if len(bad.Diagnostics) != 1 || !strings.Contains(bad.Diagnostics[0].Message, "AP") || bad.Diagnostics[0].Line != 1 {
		t.Errorf("a wrong effect: %+v", bad.Diagnostics)
	}
}
