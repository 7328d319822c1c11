package daemon

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/refcmd"
)

// TestRefereeRegistry: every referee command (refcmd.Kinds) has its home
// complete — a grammar (refcmd), an entry in the daemon's registry with its
// decide, write and answer steps, the pbem commands that run it or the
// reason none does, and an example in docs/referee.md — and every entry of
// the registry is a command's. The commands about the open turn are those
// docs/referee.md binds to the mail's TURN line.
func TestRefereeRegistry(t *testing.T) {
	t.Parallel()
	examples := refereeDocBlocks(t)
	bound := map[string]bool{"resolve": true, "deadline-set": true, "deadline-extend": true, "preview": true, "rollback": true}
	verbs := map[string]bool{}
	for _, k := range refcmd.Kinds() {
		verbs[k.Verb] = true
		where := "refcmd/" + k.Family + ".go"
		if k.Parse == nil {
			t.Errorf("%s (%s) has no grammar: its Kind has no Parse", k.Verb, where)
		}
		if k.Example == "" || !strings.Contains(examples, k.Example) {
			t.Errorf("%s (%s) has no example in docs/referee.md: a referee block must hold %q", k.Verb, where, k.Example)
		}
		e, ok := refereeEntryOf(k.Verb)
		if !ok {
			t.Errorf("%s (%s) has no entry in the daemon's registry (refereeKinds, daemon/referee.go)", k.Verb, where)
			continue
		}
		a := e.about()
		for step, has := range map[string]bool{"decide": a.decide, "write": a.write, "answer": a.answer} {
			if !has {
				t.Errorf("%s: its entry in the daemon's registry (daemon/referee_%s.go) has no %s step", k.Verb, k.Family, step)
			}
		}
		if len(a.cli) == 0 && a.noCLI == "" {
			t.Errorf("%s: no pbem command runs it, and its entry (daemon/referee_%s.go) does not say why (noCLI)", k.Verb, k.Family)
		}
		if (a.turn != anyTurn) != bound[k.Verb] {
			t.Errorf("%s: its entry's turn use is %d; docs/referee.md binds RESOLVE NOW, DEADLINE, PREVIEW and ROLLBACK to the mail's TURN, and only them", k.Verb, a.turn)
		}
		if _, err := os.Stat("referee_" + k.Family + ".go"); err != nil {
			t.Errorf("%s: no file of its family in the daemon, referee_%s.go", k.Verb, k.Family)
		}
	}
	seen := map[string]bool{}
	for _, e := range refereeKinds {
		switch v := e.verb(); {
		case !verbs[v]:
			t.Errorf("the registry's entry %s is no command of refcmd.Kinds", v)
		case seen[v]:
			t.Errorf("the registry has two entries for %s", v)
		default:
			seen[v] = true
		}
	}
}

// refereeDocBlocks returns the referee blocks of docs/referee.md, joined.
func refereeDocBlocks(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/referee.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, part := range strings.Split(string(b), "```")[1:] {
		if body, ok := strings.CutPrefix(part, "referee\n"); ok {
			out = append(out, body)
		}
	}
	return strings.Join(out, "\n")
}

// TestRefereeExamplesRun: every command's example from docs/referee.md,
// run from the CLI (pbem referee) on a new game, is carried out or refused
// with why — never a failure — and answered on its line.
func TestRefereeExamplesRun(t *testing.T) {
	t.Parallel()
	d, _ := startGameWith(t, t.TempDir(), nil, &Options{TurnMailer: PlainTurnMail})
	t.Cleanup(func() { d.Close() })
	g := d.Game
	ctx := context.Background()
	for _, k := range refcmd.Kinds() {
		lines, _, err := g.RunRefereeText(ctx, k.Example)
		if err != nil {
			t.Errorf("%s: %q failed: %v", k.Verb, k.Example, err)
			continue
		}
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "line 1: ") || !strings.Contains(lines[0], " — ") {
			t.Errorf("%s: %q is answered %q", k.Verb, k.Example, lines)
		}
	}
}

// TestStatusByMail: the referee's STATUS is answered with what "pbem
// status" prints, and changes nothing.
func TestStatusByMail(t *testing.T) {
	t.Parallel()
	d, _ := startGameWith(t, t.TempDir(), nil, &Options{TurnMailer: PlainTurnMail})
	t.Cleanup(func() { d.Close() })
	g := d.Game
	_, rows := mailFrom(t, g, 1, "referee@pbem.localhost", refereeCommand("STATUS"))
	_, text := rowTo(t, rows, "referee@pbem.localhost")
	for _, want := range []string{"line 2: STATUS — the game as it stands:", "Open: Turn 1", "Eisenmark      no orders yet", "Outbox: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer to STATUS lacks %q:\n%s", want, text)
		}
	}
	if subs, _ := g.DB.Submissions(context.Background(), g.ID(), 1); len(subs) != 0 {
		t.Errorf("STATUS recorded %d submissions", len(subs))
	}
}
