package password

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestHashAndVerify(t *testing.T) {
	h, err := Hash("  Fredericus-Rex ")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "Fredericus") {
		t.Fatal("hash contains the password")
	}
	if err := Verify(h, "Fredericus-Rex"); err != nil {
		t.Errorf("right password refused: %v", err)
	}
	if err := Verify(h, "fredericus-rex"); !errors.Is(err, ErrMismatch) {
		t.Errorf("passwords are case-sensitive; got %v", err)
	}
}

func TestCheckRefusesBadPasswords(t *testing.T) {
	for _, pw := range []string{"", "abc", "two words", strings.Repeat("x", 73)} {
		if Check(pw) == nil {
			t.Errorf("Check(%q) accepted it", pw)
		}
	}
}

// A hash made outside the tests' hook has the full cost, and one made under
// it checks the same way: the hook only makes set-ups fast.
func TestCostForTests(t *testing.T) {
	h, err := Hash("Fredericus-Rex")
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := bcrypt.Cost([]byte(h)); c != Cost {
		t.Errorf("a hash has cost %d, want %d", c, Cost)
	}
	restore := SetCostForTests()
	h, err = Hash("Fredericus-Rex")
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := bcrypt.Cost([]byte(h)); c != bcrypt.MinCost {
		t.Errorf("under SetCostForTests a hash has cost %d, want %d", c, bcrypt.MinCost)
	}
	if err := Verify(h, "Fredericus-Rex"); err != nil {
		t.Errorf("a cheap hash does not check: %v", err)
	}
}

// TestNew: a fresh password is three groups of five letters and digits,
// accepted by Check, and not the same twice.
func TestNew(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		pw := New()
		if len(pw) != 17 || strings.Count(pw, "-") != 2 || strings.ContainsAny(pw, "01lo") {
			t.Fatalf("New() = %q, want three groups of five, no 0/o or 1/l", pw)
		}
		if err := Check(pw); err != nil {
			t.Fatalf("Check(New()) = %v", err)
		}
		if seen[pw] {
			t.Fatalf("New() gave %q twice", pw)
		}
		seen[pw] = true
	}
}
