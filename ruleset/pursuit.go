package ruleset

import "github.com/syw-pbem/pbem/game"

// PursuitRules are "Pursuit Losses": figures of infantry or gunners the loser
// loses per excess light cavalry figure of the winner (1752 1, V4 2), per
// excess heavy or medium cavalry figure (1752 none: "Heavy and medium cavalry
// neither pursue nor help in repelling pursuit"; V4 1), and the D6 score at
// or under which each of the loser's gun models is lost (1752 heavy 1-2,
// medium 1; V4 heavy 1-3, medium 1-2, light 1). Medium guns are the field
// guns.
type PursuitRules struct {
	PerLightCavalry       int
	PerHeavyMediumCavalry int
	// AllInfantry: V4 "2 figures of infantry or gunners"; 1752 "one figure
	// of line infantry or gunners".
	AllInfantry bool
	GunLossOn   map[game.GunKind]int
}

func pursuit1752() PursuitRules {
	return PursuitRules{PerLightCavalry: 1, GunLossOn: map[game.GunKind]int{game.HeavyGun: 2, game.FieldGun: 1}}
}

func pursuitV4() PursuitRules {
	return PursuitRules{PerLightCavalry: 2, PerHeavyMediumCavalry: 1, AllInfantry: true,
		GunLossOn: map[game.GunKind]int{game.HeavyGun: 3, game.FieldGun: 2, game.LightGun: 1}}
}
