package password

import (
	"errors"
	"strings"
	"testing"
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
