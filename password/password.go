// Package password hashes and checks the order-sheet passwords of nations.
//
// PBEM tradition puts a nation's password in every order sheet; it remains the
// authority over who may give a nation's orders, beside the registered sender
// address. pbem keeps only a bcrypt hash of it (in the store), compares in
// constant time, and never logs the text.
package password

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// Cost is the bcrypt cost: about 50 ms a check on a small machine, which is
// nothing for a mail but slows a guesser.
const Cost = 10

// cost is the cost Hash uses: Cost, or bcrypt's least in a test binary that
// called SetCostForTests.
var cost atomic.Int32

func init() { cost.Store(Cost) }

// SetCostForTests makes Hash use bcrypt's least cost (4, about 1 ms) for the
// rest of the process, and returns a function that restores Cost. Only tests
// call it (from TestMain): a game's set-up hashes every nation's password, and
// at Cost that is most of a short test's time. Verify reads the cost from the
// hash, so hashes made either way check as before.
func SetCostForTests() (restore func()) {
	cost.Store(int32(bcrypt.MinCost))
	return func() { cost.Store(Cost) }
}

// MinLength and MaxLength bound a password's length in characters. bcrypt
// reads at most 72 bytes.
const (
	MinLength = 4
	MaxLength = 64
)

// ErrMismatch is returned by Verify for a wrong password.
var ErrMismatch = errors.New("password does not match")

// Normalize trims surrounding white space: mail clients add and remove it, and
// no player means a password to start or end with a space.
func Normalize(pw string) string { return strings.TrimSpace(pw) }

// Check says what is wrong with a new password, for the player.
func Check(pw string) error {
	pw = Normalize(pw)
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinLength:
		return fmt.Errorf("a password needs at least %d characters", MinLength)
	case n > MaxLength || len(pw) > 72:
		return fmt.Errorf("a password may have at most %d characters (72 bytes)", MaxLength)
	case strings.ContainsAny(pw, " \t"):
		return errors.New("a password may not contain spaces")
	}
	return nil
}

// Hash returns the hash to store for a password.
func Hash(pw string) (string, error) {
	if err := Check(pw); err != nil {
		return "", err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(Normalize(pw)), int(cost.Load()))
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// Verify reports whether pw matches the stored hash: nil, ErrMismatch, or an
// error for a damaged hash.
func Verify(hash, pw string) error {
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(Normalize(pw)))
	if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
		return ErrMismatch
	}
	return err
}

// New is a fresh random password: 15 letters and digits in three groups
// ("k7qm2-x9fwr-c4hpt"), about 75 bits, easy to copy by hand (no 0/o,
// 1/l), and one Check accepts. What pbem init and pbem host write into a
// game's secrets.
func New() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 15)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	var s strings.Builder
	for i, x := range b {
		if i > 0 && i%5 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(alphabet[int(x)%len(alphabet)])
	}
	return s.String()
}
