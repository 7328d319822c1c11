package parser

import (
	"testing"
	"time"
)

// TestRefereePasswordLine: the referee's PASSWORD line is read as written
// (any characters, tabs around it), wherever it stands among the commands,
// and is not a command.
func TestRefereePasswordLine(t *testing.T) {
	for _, c := range []struct{ mail, pw string }{
		{"GAME syw\nPASSWORD  s3cret!#x \nAPPROVE R1\n", "s3cret!#x"},
		{"PASSWORD\tkaunitz 1756\nRESOLVE NOW\n", "kaunitz 1756"},
		{"Hello,\nRESOLVE NOW\npassword gold\n", "gold"},
		{"RESOLVE NOW\n", ""},
	} {
		rs := ParseRefereeCommands(c.mail, nil, time.UTC)
		if rs.Password != c.pw || len(rs.Commands) != 1 || len(rs.Diagnostics) != 0 {
			t.Errorf("%q: password %q, %d commands, %v; want %q and one command", c.mail, rs.Password, len(rs.Commands), rs.Diagnostics, c.pw)
		}
	}
}
