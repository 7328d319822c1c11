package engine

import (
	"math"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// TestFarnessIsCentreDistance: the integer farness the retreat uses is four
// times the squared distance between the hex centres the map draws.
func TestFarnessIsCentreDistance(t *testing.T) {
	for c1 := 1; c1 <= 6; c1++ {
		for r1 := 1; r1 <= 6; r1++ {
			for c2 := 1; c2 <= 6; c2++ {
				for r2 := 1; r2 <= 6; r2++ {
					a, b := game.Hex{Col: c1, Row: r1}, game.Hex{Col: c2, Row: r2}
					ax, ay := hexmap.Center(a)
					bx, by := hexmap.Center(b)
					d2 := (ax-bx)*(ax-bx) + (ay-by)*(ay-by)
					if got := float64(farness(a, b)); math.Abs(got-4*d2) > 1e-9 {
						t.Fatalf("farness(%s, %s) = %d, centres %.3f apart squared", a, b, farness(a, b), d2)
					}
				}
			}
		}
	}
}
