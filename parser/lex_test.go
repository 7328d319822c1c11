package parser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/game"
)

// TestLex lists the items of lines: kind, value and offset.
func TestLex(t *testing.T) {
	show := func(items []item) string {
		var parts []string
		for _, it := range items {
			k := map[itemType]string{itemError: "err", itemEOL: "eol", itemWord: "w", itemNumber: "n",
				itemString: "s", itemComma: ",", itemColon: ":", itemSign: "sign", itemOther: "?"}[it.typ]
			parts = append(parts, fmt.Sprintf("%s(%s)@%d", k, it.val, it.pos))
		}
		return strings.Join(parts, " ")
	}
	tests := []struct{ in, want string }{
		{"MOVE E2 0812", "w(MOVE)@0 w(E2)@5 n(0812)@8 eol()@12"},
		{"RETREAT E2 IF ODDS 3:2", "w(RETREAT)@0 w(E2)@8 w(IF)@11 w(ODDS)@14 n(3)@19 :(:)@20 n(2)@21 eol()@22"},
		{`SPECIAL "say ""hi"", # not a comment"`, `w(SPECIAL)@0 s(say "hi", # not a comment)@8 eol()@37`},
		{"STANCE E2 ATTACK # a comment, really", "w(STANCE)@0 w(E2)@7 w(ATTACK)@10 eol()@36"},
		{"SPLIT E1 24 C infantry, 2 field-gun; general Keith",
			"w(SPLIT)@0 w(E1)@6 n(24)@9 w(C)@12 w(infantry)@14 ,(,)@22 n(2)@24 w(field-gun)@26 ,(;)@35 w(general)@37 w(Keith)@45 eol()@50"},
		{"TREASURY eisenmark +200 -50", "w(TREASURY)@0 w(eisenmark)@9 sign(+)@19 n(200)@20 sign(-)@24 n(50)@25 eol()@27"},
		{"DEADLINE EXTEND 1d12h", "w(DEADLINE)@0 w(EXTEND)@9 w(1d12h)@16 eol()@21"},
		{"MOVE E2 0812-0813", "w(MOVE)@0 w(E2)@5 w(0812-0813)@8 eol()@17"},
		{"MOVE E2 TO 0812.", "w(MOVE)@0 w(E2)@5 w(TO)@8 n(0812)@11 eol()@16"},
		{"STANCE E2 ATTACK.", "w(STANCE)@0 w(E2)@7 w(ATTACK)@10 eol()@17"},
		{"GARRISON E3 St. Pauli", "w(GARRISON)@0 w(E3)@9 w(St.)@12 w(Pauli)@16 eol()@21"},
		{"MOVE E2 TO Lübeck", "w(MOVE)@0 w(E2)@5 w(TO)@8 w(Lübeck)@11 eol()@18"},
		{"STANCE E2 (ATTACK)", "w(STANCE)@0 w(E2)@7 ?(()@10 w(ATTACK)@11 ?())@17 eol()@18"},
		{`SPECIAL "unclosed`, "w(SPECIAL)@0 err(a double quote that is never closed)@8"},
		{"MOVE \uFFFD", "w(MOVE)@0 err(a character that is not valid text)@5"},
	}
	for _, tc := range tests {
		if got := show(lex(tc.in)); got != tc.want {
			t.Errorf("lex(%q)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// TestCheckReader: the CLI's entry point reads a sheet and sets the exit
// code: 0 without errors, 1 with.
func TestCheckReader(t *testing.T) {
	ctx := fixture(t, 3)
	r, err := CheckReader(strings.NewReader(sheetFor(3, "MOVE E2 TO Konigsfeld")), ctx)
	if err != nil || r.ExitCode() != 0 {
		t.Fatalf("%v %+v", err, r.Diagnostics)
	}
	r, err = CheckReader(strings.NewReader(sheetFor(3, "MOVE E2 TO Konigsfeldt")), ctx)
	if err != nil || r.ExitCode() != 1 {
		t.Fatalf("%v %+v", err, r.Diagnostics)
	}
	r, _ = CheckReader(strings.NewReader(strings.Repeat("x", MaxSheetBytes+10)), ctx)
	if !r.Refused || !strings.Contains(r.Text(), "too long") {
		t.Fatalf("%s", r.Text())
	}
}

// TestPasswordsNotEchoed: neither the password nor a new one appears in any
// reply, whatever goes wrong around them.
func TestPasswordsNotEchoed(t *testing.T) {
	ctx := fixture(t, 3)
	for _, sheet := range []string{
		"GAME syw NATION eisenmark PASSWORD tobacco TURN three\nEND",
		"GAME syw NATION eisenmark PASSWORD tobacco TURN 3 EXTRA\nEND",
		sheetFor(3, "PASSWORD CHANGE sec"),
		sheetFor(3, "PASSWORD CHANGE secret1 secret2"),
		sheetFor(3, "PASSWORD CHANGE secretpw"),
		"GAME syw\nNATION eisenmark\nPASSWORD #tobacco\nTURN 3\nEND",
	} {
		r := Check(sheet, ctx)
		text := r.Text()
		for _, pw := range []string{"tobacco", "sec", "secret"} {
			if strings.Contains(text, pw) {
				t.Errorf("reply repeats %q:\n%s", pw, text)
			}
		}
	}
	// A password may start with '#'.
	ctx.VerifyPassword = func(_ game.NationID, pw string) bool { return pw == "#tobacco" }
	if r := Check("GAME syw\nNATION eisenmark\nPASSWORD #tobacco\nTURN 3\nEND", ctx); r.Refused {
		t.Errorf("%+v", r.Diagnostics)
	}
}

// TestHostileSheet: a maximal sheet of continuation lines is read in bounded
// time.
func TestHostileSheet(t *testing.T) {
	// 100,000 lines that each continue the one before: joined naively this
	// is quadratic and takes minutes.
	body := "MOVE E1" + strings.Repeat("\n1", 100000)
	start := time.Now()
	r := Check(sheetFor(3, body), fixture(t, 3))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	if !r.HasErrors() {
		t.Errorf("no error")
	}
}
