package ruleset

import "github.com/syw-pbem/pbem/game"

// PromotionRules are "Field Promotions". 1752: "Each 4 hits (but not rout
// hits) earns 1 point", counted by arm of service and grade, and the points
// promote figures of that arm and grade: infantry and gunners 1 point D→C, 2
// C→B, 2 B→A; cavalry 2, 4, 4; "Excess points are lost". V4: "1 promotion
// point per hit", applied "in rough proportion across the troop types in the
// army, A troops excluded": D→C 1, C→B 1, B→A 2.
type PromotionRules struct {
	HitsPerPoint int
	// ByArm: points stay with the arm and grade that earned them (1752);
	// otherwise they are spread over the whole army in proportion (V4).
	ByArm bool
	// Cost[from grade] for infantry and gunners, CavalryCost for cavalry.
	Cost, CavalryCost map[game.Grade]int
}

func promotions1752() PromotionRules {
	return PromotionRules{HitsPerPoint: 4, ByArm: true,
		Cost:        map[game.Grade]int{game.GradeD: 1, game.GradeC: 2, game.GradeB: 2},
		CavalryCost: map[game.Grade]int{game.GradeD: 2, game.GradeC: 4, game.GradeB: 4}}
}

func promotionsV4() PromotionRules {
	c := map[game.Grade]int{game.GradeD: 1, game.GradeC: 1, game.GradeB: 2}
	return PromotionRules{HitsPerPoint: 1, Cost: c, CavalryCost: c}
}
