package ruleset

import "testing"

// TestApproximateKeepsSmallCountsSmall: an estimate is never bigger than a
// few units of the count's own size — 2 guns are "a few", not "about 25".
func TestApproximateKeepsSmallCountsSmall(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 0, 2: 0, 4: 0, 5: 5, 7: 5, 8: 10, 12: 10, 13: 15, 19: 20, 20: 20, 24: 20, 25: 30,
		44: 40, 95: 100, 99: 100, 100: 100, 112: 100, 113: 125, 250: 250, 1234: 1225} {
		if got := Approximate(n); got != want {
			t.Errorf("Approximate(%d) = %d, want %d", n, got, want)
		}
	}
	for n := 5; n <= 2000; n++ {
		got := Approximate(n)
		if d := max(got-n, n-got); d*3 > n || n >= 100 && d*8 > n {
			t.Errorf("Approximate(%d) = %d: off by more than a third (an eighth from 100 up)", n, got)
		}
	}
}
