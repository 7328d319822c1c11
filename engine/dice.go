package engine

import (
	"math/rand/v2"

	"github.com/syw-pbem/pbem/ruleset"
)

// Roll is one die thrown during a turn, recorded so that a referee can audit
// every random result: which step threw it, for what, how many sides the die
// had, what it showed, and whom it concerned (a force ID, a city, a pair).
type Roll struct {
	Step    string
	Purpose string
	Sides   int
	Result  int
	Subject string `json:",omitempty"`
}

// Dice is the one source of randomness of a turn: a PCG generator seeded from
// the turn's seed. Every die is recorded in order; the same seed and the same
// sequence of calls give the same results, byte for byte.
type Dice struct {
	r     *rand.Rand
	step  string
	rolls []Roll
	// fixed are dice a rules case sets by purpose, used in order before the
	// generator (cases_test.go's DICE purpose: lines); forced are faces the
	// next rolls of any purpose show, in order (DICE lines without a
	// purpose). Both nil in play.
	fixed  map[string][]int
	forced []int
}

// pcgStream is the second word of the PCG state; any fixed value will do, it
// only has to never change.
const pcgStream = 0x9E3779B97F4A7C15

// NewDice returns the dice of a turn seeded with seed.
func NewDice(seed uint64) *Dice {
	return &Dice{r: rand.New(rand.NewPCG(seed, seed^pcgStream))}
}

// Script makes the next rolls made for purpose show faces, in order, before
// the generator is asked: the DICE purpose: lines of another campaign's
// rules cases (the SYW cases set them through Input). Never called in play.
func (d *Dice) Script(purpose string, faces ...int) {
	if d.fixed == nil {
		d.fixed = map[string][]int{}
	}
	d.fixed[purpose] = append(d.fixed[purpose], faces...)
}

// Force makes the next rolls of any purpose show faces, in order (a rules
// case's DICE line without a purpose). Never called in play.
func (d *Dice) Force(faces ...int) { d.forced = append(d.forced, faces...) }

// SetStep names the pipeline step the next rolls belong to.
func (d *Dice) SetStep(step string) { d.step = step }

// Roll throws one die with the given number of sides (6 for a D6, 100 for a
// percentage) and records it.
func (d *Dice) Roll(purpose string, sides int, subject string) int {
	if sides < 1 {
		sides = 1
	}
	var v int
	if len(d.forced) > 0 {
		v = min(max(d.forced[0], 1), sides)
		d.forced = d.forced[1:]
	} else {
		v = d.r.IntN(sides) + 1
	}
	if q := d.fixed[purpose]; len(q) > 0 {
		v, d.fixed[purpose] = q[0], q[1:]
	}
	d.rolls = append(d.rolls, Roll{Step: d.step, Purpose: purpose, Sides: sides, Result: v, Subject: subject})
	return v
}

// Rolls returns every roll made so far, in order.
func (d *Dice) Rolls() []Roll { return d.rolls }

// PercentOf returns p% of n figures as a whole number. When the ruleset says
// "roll for the fraction" (ruleset.Ruleset.DiceRounding) a fractional figure
// is decided by a D100: a loss of 2.4 figures is 2, plus 1 more on a roll of
// 1–40. Otherwise fractions of one half or more round up. No die is thrown
// when the result is whole.
func (d *Dice) PercentOf(rules *ruleset.Ruleset, n int, p ruleset.Percent, purpose, subject string) int {
	if n <= 0 || p <= 0 {
		return 0
	}
	exact := n * int(p)
	whole, rem := exact/100, exact%100
	if rem == 0 {
		return whole
	}
	if rules.DiceRounding {
		if d.Roll(purpose, 100, subject) <= rem {
			whole++
		}
		return whole
	}
	if rem >= 50 {
		whole++
	}
	return whole
}
