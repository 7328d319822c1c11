package reports

import (
	"testing"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/trossian"
)

// TestWinterIncomeSaysWhereTheAPCameFrom: the winter pool is the income of
// the provinces not besieged and what the cities' banks held; a besieged
// city's income stays in its own bank. The sentence once called the banks'
// AP drawn into the pool "AP that stay in besieged cities' banks".
func TestWinterIncomeSaysWhereTheAPCameFrom(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		e    *trossian.IncomeCollected
		want string
	}{
		{"no siege", &trossian.IncomeCollected{Nation: "carrowland", Income: 18, Banked: 12, Pool: 30,
			Provinces: make([]trossian.ProvinceIncome, 6)},
			"Carrowland's provinces paid 18 AP from 6 provinces; with the 12 AP drawn from its cities' banks, 30 AP are to spend this winter."},
		{"empty banks", &trossian.IncomeCollected{Nation: "varn", Income: 8, Pool: 8,
			Provinces: []trossian.ProvinceIncome{{Province: "Varnholm", AP: 6}, {Province: "Drakeholt", AP: 2}}},
			"Varn's provinces paid 8 AP from 2 provinces; 8 AP are to spend this winter."},
		{"a besieged city", &trossian.IncomeCollected{Nation: "ostmark", Income: 10, Banked: 10, Pool: 16,
			Provinces: []trossian.ProvinceIncome{{Province: "Kessel", AP: 4, Besieged: true}, {Province: "Rimeport", AP: 6}}},
			"Ostmark's provinces paid 10 AP from 2 provinces; with the 10 AP drawn from its cities' banks, 16 AP are to spend this winter; the 4 AP of besieged Kessel stay in its bank."},
	} {
		if got := Sentence(nil, engine.Referee, c.e); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
