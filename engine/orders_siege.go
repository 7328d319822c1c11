package engine

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
)

// Fieldworks builds Inches of fieldworks in the force's hex (1" per infantry
// figure; paid 1 crown per 4").
type Fieldworks struct {
	At
	Force  game.ForceID
	Inches int
}

// Besiege lays siege to (or masks, when the force lacks the odds) a city.
type Besiege struct {
	At
	Force game.ForceID
	City  string
	// MaskOnly masks the city without trying to besiege it.
	MaskOnly bool `json:",omitempty"`
}

// Assault storms a besieged or masked city with Infantry figures of the force
// (0 = all its infantry).
type Assault struct {
	At
	Force    game.ForceID
	City     string
	Infantry int `json:",omitempty"`
}

// Bombard chooses what the force's heavy guns do before a city this turn:
// roll for breaches (the default) or fire at the defenders' guns.
type Bombard struct {
	At
	Force       game.ForceID
	City        string
	CounterFire bool `json:",omitempty"`
}

// Kind returns "fieldworks".
func (Fieldworks) Kind() string { return "fieldworks" }

// Kind returns "besiege".
func (Besiege) Kind() string { return "besiege" }

// Kind returns "assault".
func (Assault) Kind() string { return "assault" }

// Kind returns "bombard".
func (Bombard) Kind() string { return "bombard" }

// siegeOrderKinds: fieldworks, sieges, assaults and bombardment. The sieges
// step (pipeline.go) carries out Besiege, Assault and Bombard; fieldworks
// are filed for the battles step, where they count. Until those steps are
// filled each order is checked and then reported "not carried out yet".
var siegeOrderKinds = []OrderKind{
	{Keyword: "fieldworks", Section: "Land Battles", Para: "Fieldworks", Turn: MonthlyTurn, Step: "battles", Zero: Fieldworks{}, Legal: legalFieldworks, Once: true,
		Subject: func(o Order) (game.ForceID, string) { return subjectForce(o.(Fieldworks).Force, "fieldworks") }},
	{Keyword: "besiege", Section: "Sieges", Turn: MonthlyTurn, Step: "sieges", Zero: Besiege{}, Legal: legalBesiege,
		Subject: func(o Order) (game.ForceID, string) { return o.(Besiege).Force, "" }},
	{Keyword: "assault", Section: "Sieges", Para: "Assaults", Turn: MonthlyTurn, Step: "sieges", Zero: Assault{}, Legal: legalAssault, Once: true,
		Subject: func(o Order) (game.ForceID, string) {
			x := o.(Assault)
			if x.City == "" {
				return x.Force, ""
			}
			return x.Force, "assault " + x.City
		}},
	{Keyword: "bombard", Section: "Sieges", Para: "Breaching the Walls", Turn: MonthlyTurn, Step: "sieges", Zero: Bombard{}, Legal: legalBombard,
		Subject: func(o Order) (game.ForceID, string) { return o.(Bombard).Force, "" }},
}

// legalFieldworks: "You may build 1" of fieldworks per infantry figure in
// your force" (1752; V4: 4" sections per 4 infantry, at most 6).
func legalFieldworks(s *Situation, o Order) *Refusal {
	x := o.(Fieldworks)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	inf := f.CountArms(game.Arm.IsInfantry)
	if inf == 0 {
		return &Refusal{Code: "no-infantry", Read: string(f.ID), Reason: fmt.Sprintf("%s has no infantry, and only infantry builds fieldworks", f.ID),
			Hint: "Leave the order out."}
	}
	if limit := s.Rules.Fieldworks.Limit(inf); x.Inches > limit {
		return &Refusal{Code: "too-long", Read: fmt.Sprint(x.Inches),
			Reason: fmt.Sprintf("%s has %d infantry figures, enough for %d\" of fieldworks: %s", f.ID, inf, limit, s.Rules.Fieldworks.Rule),
			Hint:   fmt.Sprintf("Build at most %d inches.", limit)}
	}
	return nil
}

// legalBesiege: a land force besieges or masks a city it does not hold.
func legalBesiege(s *Situation, o Order) *Refusal {
	x := o.(Besiege)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	if c, ok := s.Map.City(x.City); ok && s.City(c.Name).Controller == s.Nation {
		return &Refusal{Code: "own-city", Read: c.Name, Reason: fmt.Sprintf("%s is yours", c.Name),
			Hint: "Besiege a city another nation holds, or a neutral one."}
	}
	return nil
}

// legalAssault: "Only infantry may take part in the assault"; "You must have
// at least 100 figures of infantry to assault a foreign city."
func legalAssault(s *Situation, o Order) *Refusal {
	x := o.(Assault)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	c, ok := s.Map.City(x.City)
	if !ok {
		return nil
	}
	cs := s.City(c.Name)
	if cs.Controller == s.Nation {
		return &Refusal{Code: "own-city", Read: c.Name, Reason: fmt.Sprintf("%s is yours", c.Name), Hint: "Assault a city another nation holds."}
	}
	inf := f.CountArms(game.Arm.IsInfantry)
	if inf == 0 {
		return &Refusal{Code: "no-infantry", Read: string(f.ID),
			Reason: fmt.Sprintf("%s has no infantry: \"Only infantry may take part in the assault\" (Sieges, Assaults)", f.ID),
			Hint:   "Assault with a force that has infantry."}
	}
	n := x.Infantry
	if n == 0 {
		n = inf
	}
	if n > inf {
		return &Refusal{Code: "too-many", Read: fmt.Sprint(x.Infantry), Reason: fmt.Sprintf("%s has %d infantry figures, not %d", f.ID, inf, x.Infantry),
			Hint: fmt.Sprintf("Write WITH %d or fewer, or WITH ALL.", inf)}
	}
	if min := s.Rules.Capture.CaptureFigures; cs.Loyalty != s.Nation && n < min {
		return &Refusal{Code: "too-few", Read: fmt.Sprint(n),
			Reason: fmt.Sprintf("an assault on %s with %d infantry: \"You must have at least %d figures of infantry to assault a foreign city\" (Sieges, Assaults)", c.Name, n, min),
			Hint:   fmt.Sprintf("Assault with at least %d infantry.", min)}
	}
	return nil
}

// legalBombard: only heavy guns breach walls or fire at the defenders' guns.
func legalBombard(s *Situation, o Order) *Refusal {
	x := o.(Bombard)
	f := s.Own(x.Force)
	if r := NeedLand(f); r != nil || f == nil {
		return r
	}
	for _, g := range f.Guns {
		if g.Kind == game.HeavyGun && g.Count > 0 {
			return nil
		}
	}
	return &Refusal{Code: "no-heavy-guns", Read: string(f.ID),
		Reason: fmt.Sprintf("%s has no heavy guns: only heavy guns breach walls or fire at the defenders' guns (Sieges)", f.ID),
		Hint:   "Bring heavy guns, or leave the order out."}
}
