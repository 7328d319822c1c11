package game

import "testing"

// TestTurnNames: every turn of two years prints as people read it and
// reads back, in either order of month and year.
func TestTurnNames(t *testing.T) {
	c := Calendar{StartYear: 1752, FirstMonth: 4}
	want := map[int]string{1: "April 1752", 2: "May 1752", 6: "September 1752", 7: "year-end 1752", 8: "April 1753", 14: "year-end 1753"}
	for turn, name := range want {
		if got := c.Name(turn); got != name {
			t.Errorf("Name(%d) = %q, want %q", turn, got, name)
		}
	}
	for turn := 1; turn <= 14; turn++ {
		for _, s := range []string{c.Name(turn), flip(c.Name(turn))} {
			got, err := c.ParseName(s)
			if err != nil || got != turn {
				t.Errorf("ParseName(%q) = %d, %v; want %d", s, got, err, turn)
			}
		}
	}
	for s, turn := range map[string]int{"1752 May": 2, "may 1752": 2, "Jun 1752": 3, "1752 YEAR-END": 7, "1753 yearend": 14, "year end 1752": 7, "1752, buy": 7} {
		if got, err := c.ParseName(s); err != nil || got != turn {
			t.Errorf("ParseName(%q) = %d, %v; want %d", s, got, err, turn)
		}
	}
	for _, s := range []string{"1752", "May", "October 1752", "May 1751", "Ma 1752", "1752 May June"} {
		if got, err := c.ParseName(s); err == nil {
			t.Errorf("ParseName(%q) = %d, want an error", s, got)
		}
	}
}

// flip puts the year first: "May 1752" → "1752 May".
func flip(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[i+1:] + " " + s[:i]
		}
	}
	return s
}

// FuzzParseName: any text read as a turn's name either fails or names a
// turn whose printed name reads back as the same turn.
func FuzzParseName(f *testing.F) {
	for _, s := range []string{"May 1752", "1752 year-end", "Jun, 1753", "yearend 1760", "1752", "", "9999999999999999999 May"} {
		f.Add(s)
	}
	c := Calendar{StartYear: 1752, FirstMonth: 4}
	f.Fuzz(func(t *testing.T, s string) {
		turn, err := c.ParseName(s)
		if err != nil {
			return
		}
		if turn < 1 {
			t.Fatalf("ParseName(%q) = %d", s, turn)
		}
		back, err := c.ParseName(c.Name(turn))
		if err != nil || back != turn {
			t.Fatalf("ParseName(%q) = %d, whose name %q reads back as %d, %v", s, turn, c.Name(turn), back, err)
		}
	})
}
