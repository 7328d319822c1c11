package ruleset

import "github.com/syw-pbem/pbem/game"

// SYW1752 returns a fresh value of the SYW Big Game Campaign Rules, 1752
// Edition.
func SYW1752() *Ruleset { return syw1752() }

// SYWV4 returns a fresh value of the SYW Big Game Campaign Rules, V4: the same
// campaign with revised battle, retreat, siege and post-battle rules.
func SYWV4() *Ruleset { return sywV4() }

func syw1752() *Ruleset {
	costs := syw1752Costs()
	return &Ruleset{
		ID:          "syw-1752",
		Name:        "SYW Big Game Campaign Rules (1752 Edition)",
		Movement:    syw1752Movement(),
		SeaMovement: SeaMovementTable{WarshipMP: 6, TransportMP: 4, DamagedPenalty: 1, WithWind: 1, AgainstWind: 3, Port: 1, GoodHolding: 2, CoastalLandingOdds: 3, WarshipAsInfantry: 50},
		Cargo:       TransportCargo{Capacity: 50, InfantryFigure: 1, CavalryFigure: 3, GunModel: 10, Depot: 50},
		Costs:       costs,
		Fieldworks:  FieldworksRules{SectionInches: 1, InfantryPerSection: 1, Rule: "1\" per infantry figure (Fieldworks)"},
		PointValues: PointValues{Costs: costs},
		Taxes: TaxValues{Inland: 100, InlandRiver: 200, Port: 300, PortRiver: 400,
			CapitolLostNum: 3, CapitolLostDen: 4, ForeignNum: 1, ForeignDen: 2, MaskedNum: 1, MaskedDen: 2,
			VictoryTaxBase: 4800, StartingTaxBase: 1600, TreatyPenalty: 200},
		SupplyAttrition: AttritionRates{
			Grade: map[game.Grade]Percent{game.GradeA: 5, game.GradeB: 10, game.GradeC: 15, game.GradeD: 25},
			Guns:  10,
		},
		Retreat: RetreatRules{
			Attrition: AttritionRates{
				Grade: map[game.Grade]Percent{game.GradeA: 5, game.GradeB: 10, game.GradeC: 15, game.GradeD: 25},
				Guns:  25,
			},
			ExhaustSamePercent: true,
		},
		Supply:       SupplyRules{RangeMP: 12, GrenzerRangeMP: 18, BlockingFigures: 100, ProtectRadius: 2, CityBlocksAs: 100, UnsuppliedPenalty: 1},
		MinimumForce: MinimumForceSizes{ForeignCityMilitia: 9, OutsideCityDeserts: 9, FriendlyTownDeserts: 4},
		Capture:      CaptureRules{CaptureFigures: 100, Garrison: 10},
		Overrun:      OverrunRules{FreeOdds: 7, OneSixthOdds: 6, BattleFraction: 6, WallsStopOverrun: true},
		SlowingEnemy: SlowingEnemyRules{CavalryOdds: 2, InfantryPerCavalry: 3},
		SizeClasses:  IntelligenceSizeClasses{SmallTroops: 100, LargeTroops: 300, SmallShips: 3, LargeShips: 8},
		ScoutingPoints: ScoutingPoints{
			game.LightInfantry: 1, game.IrregularLight: 2, game.LightCavalry: 3,
		},
		ScoutingResults: ScoutingResults{
			Levels: []ScoutingThreshold{
				{Level: LevelArms, OddsNum: 1, OddsDen: 2, MinSP: 1},
				{Level: LevelApprox, OddsNum: 1, OddsDen: 1, MinSP: 6},
				{Level: LevelExact, OddsNum: 2, OddsDen: 1, MinSP: 24},
			},
		},
		Assault:   assaultTable(),
		SeaBattle: seaBattleCRT(),
		Siege: SiegeRules{
			BesiegeOdds: 3, ForeignMinimum: 100,
			DefenderLossPerHeavyGun: 2, DefenderLossPerFieldGun: 1,
			AttackerLossPerHeavyGun: 3, AttackerLossPerFieldGun: 2,
			DefenderLossPerAttackerInfantry: 50, AttackerLossPerDefenderInfantry: 10,
			BreachOn: 4, MaxBreaches: 5,
			SiegeSurrender: siegeSurrender(true),
		},
		DiceRounding: true,
		Battle:       BattleSimulation,
		LandBattles:  landBattles1752(),
		Regain:       regain1752(),
		Pursuit:      pursuit1752(),
		Promotions:   promotions1752(),
	}
}

func sywV4() *Ruleset {
	r := syw1752()
	r.ID = "syw-v4"
	r.Name = "SYW Big Game Campaign Rules (V4)"
	r.Retreat.ExhaustSamePercent = false
	r.Retreat.LossOnlyInContactOrBeyondMA = true
	r.LandBattles, r.Regain, r.Pursuit, r.Promotions = landBattlesV4(), regainV4(), pursuitV4(), promotionsV4()
	r.Siege.AttackerLossPerDefenderInfantry = 25
	r.Siege.HealthyGarrisonPer100 = 50
	r.Siege.OvercrowdingAttrition = 15
	r.Siege.CounterBatteryHitsFieldGuns = true
	r.Siege.SiegeSurrender = siegeSurrender(false)
	r.Fieldworks = FieldworksRules{SectionInches: 4, InfantryPerSection: 4, MaxSections: 6,
		Rule: "one 4\" section per 4 infantry figures, at most 6 sections (Fieldworks)"}
	return r
}
