package ruleset

import (
	"bufio"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// TestRulebookTables checks every table cell listed in
// testdata/rulebook-tables.txt — the numbers as printed in the rulebook —
// against both editions (or the one a line names).
func TestRulebookTables(t *testing.T) {
	f, err := os.Open("testdata/rulebook-tables.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		for _, id := range IDs() {
			r, _ := ByID(id)
			args := fields
			if last := args[len(args)-1]; strings.HasPrefix(last, "syw-") {
				if last != id {
					continue
				}
				args = args[:len(args)-1]
			}
			if msg := checkLine(r, args); msg != "" {
				t.Errorf("rulebook-tables.txt:%d %q [%s]: %s", line, text, id, msg)
			}
		}
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

var classes = map[string]MoveClass{"foot": Foot, "mounted": Mounted, "artillery": Artillery, "general": GeneralOnly}

func want(got, exp int) string {
	if got != exp {
		return "got " + strconv.Itoa(got) + ", rulebook says " + strconv.Itoa(exp)
	}
	return ""
}

func checkLine(r *Ruleset, f []string) string {
	switch f[0] {
	case "move":
		ter, err := game.ParseTerrain(f[2])
		if err != nil {
			return err.Error()
		}
		cost, ok := r.Movement.Cost(classes[f[1]], ter, f[3] == "road", f[4] == "river")
		if f[5] == "X" {
			if ok {
				return "allowed, rulebook says No"
			}
			return ""
		}
		if !ok {
			return "forbidden, rulebook gives a cost"
		}
		return want(cost, atoi(f[5]))
	case "mp":
		return want(r.Movement.Rows[classes[f[1]]].MP, atoi(f[2]))
	case "cost":
		a, err := game.ParseArm(f[1])
		if err != nil {
			return err.Error()
		}
		g, _ := game.ParseGrade(f[2])
		bf, ok := r.Costs.Figure(a, g)
		if !ok {
			return "not in the chart"
		}
		if s := want(bf.Buy, atoi(f[3])); s != "" {
			return "buy " + s
		}
		return want(bf.Field, atoi(f[4]))
	case "gun":
		k, _ := game.ParseGunKind(f[1])
		bf := r.Costs.Gun(k)
		if s := want(bf.Buy, atoi(f[2])); s != "" {
			return "buy " + s
		}
		return want(bf.Field, atoi(f[3]))
	case "other":
		c := r.Costs
		single := map[string]int{"repair-warship": c.RepairWarship, "repair-transport": c.RepairTransport, "fieldworks-per-4in": c.Fieldworks(4)}
		if v, ok := single[f[1]]; ok {
			return want(v, atoi(f[2]))
		}
		bf, ok := map[string]BuyField{"depot": c.Depot, "warship": c.Warship, "transport": c.Transport, "leader": c.Leader}[f[1]]
		if !ok {
			return "unknown row " + f[1]
		}
		if s := want(bf.Buy, atoi(f[2])); s != "" {
			return "buy " + s
		}
		return want(bf.Field, atoi(f[3]))
	case "example":
		a, _ := game.ParseArm(f[2])
		g, _ := game.ParseGrade(f[3])
		bf, _ := r.Costs.Figure(a, g)
		n := atoi(f[1])
		if s := want(n*bf.Buy, atoi(f[4])); s != "" {
			return "buy " + s
		}
		return want(n*bf.Field, atoi(f[5]))
	case "cargo":
		var force game.Force
		switch f[1] {
		case "gun":
			force.Guns = []game.Guns{{Kind: game.FieldGun, Count: 1}}
		default:
			a, _ := game.ParseArm(f[1])
			force.Troops = []game.Troops{{Arm: a, Grade: game.GradeC, Count: 1}}
		}
		return want(r.Cargo.PointsOf(&force), atoi(f[2]))
	case "capacity":
		return want(r.Cargo.Capacity, atoi(f[1]))
	case "size":
		var got SizeClass
		if f[1] == "troops" {
			got = r.SizeClasses.Troops(atoi(f[2]))
		} else {
			got = r.SizeClasses.Ships(atoi(f[2]))
		}
		if string(got) != f[3] {
			return "got " + string(got)
		}
	case "supply", "retreat":
		rates := r.SupplyAttrition
		if f[0] == "retreat" {
			rates = r.Retreat.Attrition
		}
		if f[1] == "guns" {
			return want(int(rates.Guns), atoi(f[2]))
		}
		g, _ := game.ParseGrade(f[1])
		return want(int(rates.Of(g)), atoi(f[2]))
	case "range":
		if s := want(r.Supply.RangeMP, atoi(f[1])); s != "" {
			return s
		}
		return want(r.Supply.GrenzerRangeMP, atoi(f[2]))
	case "minimum":
		m := r.MinimumForce
		if s := want(m.ForeignCityMilitia, atoi(f[1])); s != "" {
			return s
		}
		if s := want(m.OutsideCityDeserts, atoi(f[2])); s != "" {
			return s
		}
		return want(m.FriendlyTownDeserts, atoi(f[3]))
	case "tax":
		return want(r.Taxes.Of(f[1] == "port", f[2] == "river"), atoi(f[3]))
	case "sea":
		s := r.SeaMovement
		got := map[string]int{"warship": s.WarshipMP, "transport": s.TransportMP, "with-wind": s.WithWind,
			"against-wind": s.AgainstWind, "port": s.Port, "good-holding": s.GoodHolding}[f[1]]
		return want(got, atoi(f[2]))
	case "siege-attacker-infantry":
		return want(r.Siege.AttackerLossPerDefenderInfantry, atoi(f[1]))
	case "fieldworks":
		return want(r.Fieldworks.Limit(atoi(f[1])), atoi(f[2]))
	case "assault":
		got := r.Assault.Result(atoi(f[1]), atoi(f[2]))
		if string(got) != f[3] {
			return "got " + string(got)
		}
	default:
		return "unknown table " + f[0]
	}
	return ""
}

func TestClassOfSlowestPart(t *testing.T) {
	cases := []struct {
		name  string
		force game.Force
		want  MoveClass
	}{
		{"lone general", game.Force{Leaders: []game.Leader{{ID: "Keith", Role: game.General}}}, GeneralOnly},
		{"cavalry", game.Force{Troops: []game.Troops{{Arm: game.LightCavalry, Grade: game.GradeC, Count: 12}}}, Mounted},
		{"cavalry and foot", game.Force{Troops: []game.Troops{{Arm: game.LightCavalry, Count: 12}, {Arm: game.LineInfantry, Count: 24}}}, Foot},
		{"with a gun", game.Force{Troops: []game.Troops{{Arm: game.LineInfantry, Count: 24}}, Guns: []game.Guns{{Kind: game.LightGun, Count: 1}}}, Artillery},
	}
	for _, c := range cases {
		if got := ClassOf(&c.force); got != c.want {
			t.Errorf("%s: moves as %v, want %v", c.name, got, c.want)
		}
	}
}

func TestScoutingLevels(t *testing.T) {
	r := SYW1752().ScoutingResults
	cases := []struct {
		scout, screen int
		want          ScoutingLevel
	}{
		{0, 0, LevelSize},
		{3, 12, LevelSize},
		{3, 6, LevelArms},
		{6, 6, LevelApprox},
		{24, 12, LevelExact},
		{23, 0, LevelApprox},
	}
	for _, c := range cases {
		if got := r.Level(c.scout, c.screen); got != c.want {
			t.Errorf("scout %d SP vs screen %d SP: level %d, want %d", c.scout, c.screen, got, c.want)
		}
	}
}

func TestEditionsDiffer(t *testing.T) {
	if SYW1752().Retreat.ExhaustSamePercent == SYWV4().Retreat.ExhaustSamePercent {
		t.Error("1752 exhausts the retreat percentage, V4 does not")
	}
	if !SYWV4().Retreat.LossOnlyInContactOrBeyondMA || SYW1752().Retreat.LossOnlyInContactOrBeyondMA {
		t.Error("only V4 limits retreat losses to contact or retreats beyond the movement allowance")
	}
}

// TestEditionsCannotChangeByAccident: each call gives a fresh value, so a
// caller that changes its copy changes nobody else's edition.
func TestEditionsCannotChangeByAccident(t *testing.T) {
	for _, id := range IDs() {
		a, err := ByID(id)
		if err != nil {
			t.Fatal(err)
		}
		a.Costs.Infantry[game.GradeC] = BuyField{Buy: 99}
		a.SupplyAttrition.Grade[game.GradeA] = 99
		a.ScoutingPoints[game.LightCavalry] = 99
		a.ScoutingResults.Levels[0].MinSP = 99
		b, _ := ByID(id)
		if b.Costs.Infantry[game.GradeC].Buy != 4 || b.SupplyAttrition.Grade[game.GradeA] != 5 ||
			b.ScoutingPoints[game.LightCavalry] != 3 || b.ScoutingResults.Levels[0].MinSP != 1 {
			t.Errorf("%s: changing one value of the edition changed the next one", id)
		}
	}
	v4 := SYWV4()
	v4.Costs.Infantry[game.GradeC] = BuyField{Buy: 99}
	if SYW1752().Costs.Infantry[game.GradeC].Buy != 4 {
		t.Error("editions share a table: SYW1752 changed with SYWV4")
	}
}

// TestOneListOfEditions: IDs is sorted and each entry builds the edition it
// names.
func TestOneListOfEditions(t *testing.T) {
	ids := IDs()
	if !sort.StringsAreSorted(ids) || len(ids) < 2 {
		t.Errorf("IDs() = %v, want the editions sorted", ids)
	}
	for _, id := range ids {
		if r, err := ByID(id); err != nil || r.ID != id {
			t.Errorf("ByID(%q) = %v, %v: the list and the edition disagree", id, r, err)
		}
	}
}

func TestByID(t *testing.T) {
	if _, err := ByID("syw-1752"); err != nil {
		t.Error(err)
	}
	if _, err := ByID("syw-1759"); err == nil || !strings.Contains(err.Error(), "syw-v4") {
		t.Errorf("unknown ruleset error should list the known ones, got %v", err)
	}
}
