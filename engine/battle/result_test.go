package battle

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestValidateGeneralsGunsDays: a referee's result names only generals of
// the side's staff with a fate the rules know, takes no more guns of a
// kind than a force brought onto the field, and lasts no longer than the
// turn leaves room for; only a side that may take V4's free withdrawal
// is named as having taken it.
func TestValidateGeneralsGunsDays(t *testing.T) {
	r := ruleset.SYWV4()
	f := army("fromande", game.Defend, game.GradeC, 60)
	f.troops = append(f.troops, game.Troops{Arm: game.Gunners, Grade: game.GradeC, Count: 12})
	f.guns = []game.Guns{{Kind: game.FieldGun, Count: 2}}
	s := setupOf(r, game.Clear, army("eisenmark", game.Attack, game.GradeC, 60), f, newDice(1))
	s.Days = 2
	good := `{"Outcome":"decisive","Winner":0,"Days":2,"Sides":[{"Generals":[{"Nation":"eisenmark","Force":"e1","ID":"eisenmarkA","Fate":"wounded"}]},` +
		`{"GunsLost":[{"Nation":"fromande","Force":"f1","Kind":"field-gun","Count":2}],"Generals":[{"Nation":"fromande","Force":"f1","ID":"fromandeA","Fate":"killed"}]}]}`
	res, err := UnmarshalResult([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(s); err != nil {
		t.Fatalf("a good result refused: %v", err)
	}
	for _, ok := range []string{`{"Outcome":"both-repulsed","Winner":-1,"Withdrawn":[false,true],"Sides":[{},{}]}`,
		`{"Outcome":"withdrew","Winner":1,"Withdrawn":[false,true],"Sides":[{},{}]}`} {
		res, err := UnmarshalResult([]byte(ok))
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Validate(s); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		`{"Outcome":"decisive","Winner":0,"Sides":[{},{"GunsLost":[{"Nation":"fromande","Force":"f1","Kind":"field-gun","Count":3}]}]}`: "3 field-gun lost by fromande f1: expected 0 to the 2 it had on the field",
		`{"Outcome":"decisive","Winner":0,"Sides":[{},{"GunsLost":[{"Nation":"fromande","Force":"f1","Kind":"heavy-gun","Count":1}]}]}`: "expected 0 to the 0 it had",
		`{"Outcome":"decisive","Winner":0,"Sides":[{"GunsLost":[{"Nation":"fromande","Force":"f1","Kind":"field-gun","Count":1}]},{}]}`: "guns lost by fromande f1, which is not on that side",
		`{"Outcome":"decisive","Winner":0,"Sides":[{},{"Generals":[{"Nation":"fromande","ID":"fromandeA","Fate":"missing"}]}]}`:         `fate "missing": expected killed, wounded or captured`,
		`{"Outcome":"decisive","Winner":0,"Sides":[{"Generals":[{"Nation":"fromande","ID":"fromandeA","Fate":"killed"}]},{}]}`:          "general fromandeA (fromande) did not fight on that side",
		`{"Outcome":"decisive","Winner":0,"Days":3,"Sides":[{},{}]}`:                                                                    "3 days of battle: the turn leaves room for 1 to 2",
		`{"Outcome":"decisive","Winner":0,"Withdrawn":[false,true],"Sides":[{},{}]}`:                                                    "only the winner of withdrew or either side of both-repulsed withdraws for free",
		`{"Outcome":"withdrew","Winner":1,"Withdrawn":[true,false],"Sides":[{},{}]}`:                                                    "only the winner of withdrew or either side of both-repulsed withdraws for free",
		`{"Outcome":"both-repulsed","Winner":-1,"Withdrawn":[true,true],"Sides":[{},{}]}`:                                               "expected at most one side to take the free withdrawal",
	} {
		res, err := UnmarshalResult([]byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Validate(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", bad, err, want)
		}
	}
}
