package main

import (
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/daemon"
)

// TestRefereeCommandsHaveTheirCLI: every pbem command the daemon's registry
// names for a referee command exists.
func TestRefereeCommandsHaveTheirCLI(t *testing.T) {
	for verb, clis := range daemon.RefereeCLI() {
		for _, c := range clis {
			if !hasCommand(strings.TrimPrefix(c, "pbem ")) {
				t.Errorf("the referee's %s is run by %q, which is no pbem command", verb, c)
			}
		}
	}
}

// TestRefereeFromAFile: "pbem referee -" carries out commands written as in
// a mail and answers them line by line (exit 1 when one is refused); a
// TURN line binds them, as "pbem resolve --turn N" does, and RESOLVE NOW
// resolves the turn at once.
func TestRefereeFromAFile(t *testing.T) {
	path := shippedConfig(t, t.TempDir())
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	code, out, errs := run(t, "DEADLINE EXTEND 1d\nBATTLE 0502 TABLE\nRESEND eisenmark\n", "--config", path, "referee", "-")
	if code != exitProblems || !strings.Contains(out, "line 1: DEADLINE EXTEND 1d — the deadline of Turn 1, April 1752 is now") ||
		!strings.Contains(out, "line 2: BATTLE 0502 TABLE — a battle at 0502") ||
		!strings.Contains(out, "line 3: RESEND eisenmark — REFUSED: no turn has been resolved yet") {
		t.Fatalf("pbem referee: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "", "--config", path, "resolve", "--turn", "2"); code != exitFailure || !strings.Contains(errs, "turn 2 is not open") {
		t.Errorf("pbem resolve --turn 2 with turn 1 open: exit %d\n%s", code, errs)
	}
	code, out, errs = run(t, "PASSWORD ignored\nTURN 1\nRESOLVE NOW\n", "--config", path, "referee", "-")
	if code != exitOK || !strings.Contains(out, "Turn 1, April 1752 (TURN 1) resolved; the reports are queued") {
		t.Fatalf("pbem referee with TURN 1 and RESOLVE NOW: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := run(t, "", "--config", path, "status"); !strings.Contains(out, "Open: Turn 2") {
		t.Errorf("after RESOLVE NOW from pbem referee:\n%s", out)
	}
}
