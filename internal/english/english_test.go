package english

import (
	"fmt"
	"testing"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "gun", "1 gun"},
		{2, "gun", "2 guns"},
		{0, "gun", "0 guns"},
		{1, "city", "1 city"},
		{3, "city", "3 cities"},
		{2, "day", "2 days"},
		{1, "sea battle", "1 sea battle"},
		{2, "sea battle", "2 sea battles"},
		{2, "breach", "2 breaches"},
		{4, "hex", "4 hexes"},
		{2, "treaty", "2 treaties"},
		{12, "infantry", "12 infantry"},
		{12, "light-cavalry", "12 light-cavalry"},
		{12, "heavy cavalry", "12 heavy cavalry"},
		{1, "Grenzer", "1 Grenzer"},
		{5, "Grenzer", "5 Grenzers"},
		{2, "field-gun", "2 field-guns"},
		{3, "man", "3 men"},
		{2, "die", "2 dice"},
		{1, "die", "1 die"},
		{2, "status", "2 statuses"},
		{6, "MP", "6 MP"},
		{2, "turn record", "2 turn records"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}

func TestAboutAndAgree(t *testing.T) {
	if got := About(0, "gun"); got != "a few guns" {
		t.Errorf("About(0, gun) = %q", got)
	}
	if got := About(40, "infantry"); got != "about 40 infantry" {
		t.Errorf("About(40, infantry) = %q", got)
	}
	if got := About(5, "hussar"); got != "about 5 hussars" {
		t.Errorf("About(5, hussar) = %q", got)
	}
	if Agree(1, "was", "were") != "was" || Agree(2, "was", "were") != "were" || Agree(0, "was", "were") != "were" {
		t.Error("Agree does not follow the count")
	}
}

func TestListAndOrdinal(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"A"}, "A"}, {[]string{"A", "B"}, "A and B"}, {[]string{"A", "B", "C"}, "A, B and C"}} {
		if got := List(c.in); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for n, want := range map[int]string{1: "first", 2: "second", 16: "sixteenth", 21: "21st", 22: "22nd", 23: "23rd", 111: "111th", 112: "112th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

func ExampleCount() {
	fmt.Println(Count(1, "sea battle") + ", " + Count(3, "city") + ", " + Count(24, "infantry"))
	fmt.Println(Count(1, "figure"), Agree(1, "was", "were"), "lost;", About(0, "gun"), "and", About(40, "hussar"), "seen")
	// Output:
	// 1 sea battle, 3 cities, 24 infantry
	// 1 figure was lost; a few guns and about 40 hussars seen
}

func TestInWords(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "general", "a general"},
		{1, "officer", "an officer"},
		{2, "general", "two generals"},
		{12, "general", "twelve generals"},
		{13, "general", "13 generals"},
	} {
		if got := InWords(c.n, c.noun); got != c.want {
			t.Errorf("InWords(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
