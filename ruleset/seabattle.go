package ruleset

// SeaResult is a cell of the Sea Battle CRT.
type SeaResult string

// The results of the Sea Battle CRT: the attacker loses, an exchange, the
// defender loses.
const (
	AL SeaResult = "AL"
	EX SeaResult = "EX"
	DL SeaResult = "DL"
)

// SeaBattleCRT is the rulebook's "Sea Battle CRT" (Sea Battles), with the
// rest of the section's numbers. Columns are odds attacker:defender in
// combat points, the larger side counting as the attacker; rows the die,
// one pip up or down for the side with the weather gauge.
//
//	Die  1:1  3:2  2:1  3:1
//	1    AL   AL   EX   EX
//	2    AL   EX   EX   DL
//	3    EX   EX   DL   DL
//	4    EX   DL   DL   DL
//	5    DL   DL   DL   DL
//	6    DL   DL   DL   DL
type SeaBattleCRT struct {
	// Columns are the odds each column needs; the first (1:1) needs
	// nothing.
	Columns []Odds
	// Rows[die-1][column].
	Rows [6][4]SeaResult
	// WarshipCP: "A warship has 4 combat points. A transport has no combat
	// points." Damaged ships "have half their normal attack value".
	WarshipCP, DamagedWarshipCP int
	// WeatherGaugePips: "The side with the weather gauge has a one-pip
	// advantage on the die roll."
	WeatherGaugePips int
	// Win/Lose: "The victor sinks 1 enemy warship per 6 warships in its
	// fleet. The victor then captures 1 warship, damaged, for each 3 of its
	// warships. The loser sinks 1 enemy warship per 12 warships in its
	// fleet. The loser damages 1 warship per 6 of its warships. The winner
	// then captures 2 transports for each of its remaining undamaged ships.
	// The rest of the loser's fleet escapes … with half of all its
	// remaining warships damaged."
	VictorSinksPer, VictorCapturesPer, LoserSinksPer, LoserDamagesPer int
	TransportsPerSoundShip                                            int
	EscapeDamagedNum, EscapeDamagedDen                                int
	// Exchange: "Each side sinks 1 enemy warship per 12 of its own
	// warships, and damages 1 enemy warship per 6 of its own warships."
	ExchangeSinksPer, ExchangeDamagesPer int
	// AdmiralXPMaxOdds: "An admiral gets 1 experience point for every "L"
	// victory he wins with odds of 3:2 or less."
	AdmiralXPMaxOdds Odds
}

// Column returns the column for the attacker's and defender's combat points.
func (c SeaBattleCRT) Column(attacker, defender int) int {
	col := 0
	for i, o := range c.Columns {
		if defender == 0 || attacker*o.Den >= defender*o.Num {
			col = i
		}
	}
	return col
}

// Result reads the table for a die score (weather gauge applied; scores
// below 1 read row 1, above 6 row 6) and a column.
func (c SeaBattleCRT) Result(score, column int) SeaResult {
	return c.Rows[min(max(score, 1), 6)-1][column]
}

func seaBattleCRT() SeaBattleCRT {
	return SeaBattleCRT{
		Columns: []Odds{{1, 1}, {3, 2}, {2, 1}, {3, 1}},
		Rows: [6][4]SeaResult{
			{AL, AL, EX, EX},
			{AL, EX, EX, DL},
			{EX, EX, DL, DL},
			{EX, DL, DL, DL},
			{DL, DL, DL, DL},
			{DL, DL, DL, DL},
		},
		WarshipCP: 4, DamagedWarshipCP: 2,
		WeatherGaugePips: 1,
		VictorSinksPer:   6, VictorCapturesPer: 3, LoserSinksPer: 12, LoserDamagesPer: 6,
		TransportsPerSoundShip: 2,
		EscapeDamagedNum:       1, EscapeDamagedDen: 2,
		ExchangeSinksPer: 12, ExchangeDamagesPer: 6,
		AdmiralXPMaxOdds: Odds{3, 2},
	}
}
