package refcmd

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

var (
	vocabOnce sync.Once
	vocab     *parser.Vocabulary
	vocabErr  error
)

// testVocab is the vocabulary of the default scenario's first turn (the
// map of the docs' examples: Konigsfeld at 1910, Dresna, force E1 …).
func testVocab(t testing.TB) *parser.Vocabulary {
	t.Helper()
	vocabOnce.Do(func() {
		sc, err := scenario.Load("../scenarios/default")
		if err != nil {
			vocabErr = err
			return
		}
		st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
		if err != nil {
			vocabErr = err
			return
		}
		vocab = parser.NewVocabulary(sc.Map, st)
	})
	if vocabErr != nil {
		t.Fatalf("the default scenario: %v", vocabErr)
	}
	return vocab
}

// TestRefereeCommands reads each command and compares its canonical form,
// or the error it gives.
func TestRefereeCommands(t *testing.T) {
	v := testVocab(t)
	tests := []struct{ in, want string }{
		{"APPROVE R1a2b3c", "APPROVE R1a2b3c"},
		{"approve R1a2b3c\n  treasury eisenmark +200", "APPROVE R1a2b3c\n  TREASURY eisenmark +200"},
		{"APPROVE R1\nTREASURY Eisenmark -50\nADD E9 24 C infantry, general Stockli AT Konigsfeld\nREMOVE E3\nREMOVE E1 4 C infantry\nMOVE E2 TO 1910\nLOYALTY Dresna eisenmark\nLOYALTY Dresna neutral",
			"APPROVE R1\n  TREASURY eisenmark -50\n  ADD E9 24 C infantry, general Stockli AT 1910\n  REMOVE E3\n  REMOVE E1 4 C infantry\n  MOVE E2 TO 1910\n  LOYALTY Dresna eisenmark\n  LOYALTY Dresna NEUTRAL"},
		{"DENY R1a2b3c", "DENY R1a2b3c"},
		{`DENY R1a2b3c "Not in this century."`, `DENY R1a2b3c "Not in this century."`},
		{"DENY R1a2b3c not in this century", `DENY R1a2b3c "not in this century"`},
		{"BREACH T1 fromande AGAINST eisenmark", "BREACH T1 fromande AGAINST eisenmark"},
		{"LIFT t1 Fromande against Eisenmark", "LIFT T1 fromande AGAINST eisenmark"},
		{"DEADLINE EXTEND 2d", "DEADLINE EXTEND 2d"},
		{"DEADLINE EXT 1d12h", "DEADLINE EXTEND 1d12h"},
		{"DEADLINE EXTEND 90m", "DEADLINE EXTEND 1h30m"},
		{"DEADLINE SET 2025-06-08 18:00", "DEADLINE SET 2025-06-08T18:00:00Z"},
		{"DEADLINE SET 2025-06-08 18:00 UTC", "DEADLINE SET 2025-06-08T18:00:00Z"},
		{"DEADLINE SET 2025-06-08T18:00:00+02:00", "DEADLINE SET 2025-06-08T18:00:00+02:00"},
		{"RESOLVE NOW", "RESOLVE NOW"},
		{"RERUN 3", "RERUN 3"},
		{"RERUN TURN 3", "RERUN 3"},
		{"PREVIEW", "PREVIEW"},
		{"ROLLBACK TO TURN 2", "ROLLBACK 2"},
		{"RESEND Eisenmark TURN 2", "RESEND eisenmark 2"},
		{"RESEND eisenmark", "RESEND eisenmark"},
		{"REQUEUE", "REQUEUE"},
		{"RESET PASSWORD Fromande snuffbox", "RESET PASSWORD fromande ********"},
		{"BATTLE 0502 TABLE", "BATTLE 0502 TABLE"},
		{"TREASURY eisenmark +200", "error: the effect TREASURY follows no APPROVE"},
		{"APROVE R1", "error: read \"APROVE\"; did you mean APPROVE?"},
		{"DEADLINE EXTEND soon", "error: expected a duration such as 2d"},
		{"DEADLINE SET tomorrow", "error: expected a date and time such as 2025-06-08 18:00"},
		{"DEADLINE SET 2025-06-08 18:00 Mars/Olympus", "error: unknown time zone"},
		{"BREACH T1 fromande eisenmark", "error: expected AGAINST, read \"eisenmark\""},
		{"APPROVE R1\n  TREASURY eisenmark 200", "error: expected a signed number of crowns, such as +200 or -200, read \"200\""},
		{"APPROVE R1\n  TREASURY eisenmark +abc", "error: expected a signed number of crowns, such as +200 or -200, read \"+abc\""},
		{"APPROVE R1\n  TREASURY eisenmark +5x", "error: expected a signed number of crowns, such as +200 or -200, read \"+5x\""},
		{"APPROVE R1\n  TREASURY eisenmark", "error: expected a signed number of crowns, such as +200 or -200, after the nation"},
		{"APPROVE\n  TREASURY eisenmark +200", "error: expected a request token"},
		{"RESOLVE", "error: expected NOW"},
		{"RESET PASSWORD fromande abc", "error: expected one new password of at least 4 characters"},
		{"BATTLE Dresna TABLE", "error: expected the battle's hex, such as 0502"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sh := Parse("Dear all,\n\n"+tc.in+"\n-- \nThe Referee\n", v, nil)
			if strings.HasPrefix(tc.want, "error: ") {
				want := strings.TrimPrefix(tc.want, "error: ")
				if !slices.ContainsFunc(sh.Diagnostics, func(d parser.Diagnostic) bool { return strings.Contains(d.Message, want) }) {
					t.Fatalf("diagnostics %+v, want %q", sh.Diagnostics, want)
				}
				return
			}
			if len(sh.Diagnostics) > 0 || len(sh.Commands) != 1 {
				t.Fatalf("diagnostics %+v, %d commands", sh.Diagnostics, len(sh.Commands))
			}
			got := sh.Commands[0].Format(v)
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			again := Parse(got, v, nil)
			if len(again.Commands) != 1 || again.Commands[0].Format(v) != got {
				t.Fatalf("canonical form does not read back: %+v", again)
			}
		})
	}
}

// TestRefereeSheet: commands keep their lines and effects their APPROVE;
// greetings and quoted text before the first command are ignored; END stops.
func TestRefereeSheet(t *testing.T) {
	mail := "Hi,\n> quoted APPROVE R999\nGAME syw\nAPPROVE R1\n  TREASURY eisenmark +200\nDENY R2\nAPPROVE R3\n  MOVE E2 TO 1910\nEND\nRESOLVE NOW\n"
	sh := Parse(mail, testVocab(t), time.UTC)
	if len(sh.Diagnostics) > 0 || sh.Game != "syw" || len(sh.Commands) != 3 {
		t.Fatalf("%+v", sh)
	}
	a := sh.Commands[0].(Approve)
	if a.Line != 4 || len(a.Effects) != 1 || a.Effects[0] != (engine.TreasuryChange{Nation: "eisenmark", Delta: 200}) {
		t.Errorf("first %+v", a)
	}
	if c := sh.Commands[2].(Approve); len(c.Effects) != 1 || c.Effects[0] != (engine.PlaceForce{Force: "E2", To: game.Hex{Col: 19, Row: 10}}) {
		t.Errorf("third %+v", c)
	}
	if sh := Parse("Thanks!", nil, nil); len(sh.Diagnostics) != 1 {
		t.Errorf("no commands: %+v", sh)
	}
	// The effects of an APPROVE with an error do not land on the one before.
	sh = Parse("APPROVE R1\nAPPROVE\n  TREASURY eisenmark +5\n", nil, nil)
	if len(sh.Commands) != 1 || len(sh.Commands[0].(Approve).Effects) != 0 || len(sh.Diagnostics) != 2 ||
		!strings.Contains(sh.Diagnostics[1].Message, "belongs to an APPROVE with an error") {
		t.Errorf("effects after a bad APPROVE: %+v", sh)
	}
}

// TestApproveWithABadEffectIsRefusedWhole: an APPROVE one of whose effect
// lines has an error is not read at all — the referee wrote +50 and 70, and
// granting the +50 alone would record what was not meant — and the error
// says which APPROVE, which line, what was read and what was expected.
// The commands around it stand.
func TestApproveWithABadEffectIsRefusedWhole(t *testing.T) {
	mail := "DENY R0\nAPPROVE R1\n  TREASURY eisenmark +50\n  TREASURY eisenmark 70\n  MOVE E2 TO 1910\nDENY R2\n"
	sh := Parse(mail, testVocab(t), nil)
	if len(sh.Commands) != 2 || sh.Commands[0].(Deny).Token != "R0" || sh.Commands[1].(Deny).Token != "R2" {
		t.Fatalf("commands %+v, want the two DENYs only", sh.Commands)
	}
	var msgs []string
	for _, d := range sh.Diagnostics {
		msgs = append(msgs, fmt.Sprintf("%d: %s", d.Line, d.Message))
	}
	want := []string{
		"2: APPROVE R1 was not recorded: its effect line 4 has an error (below), and an approval is carried out whole or not at all",
		`4: expected a signed number of crowns, such as +200 or -200, read "70"`,
		"5: the effect MOVE belongs to an APPROVE with an error",
	}
	if !reflect.DeepEqual(msgs, want) {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	// A bad line that begins another command ends the APPROVE: it stands.
	sh = Parse("APPROVE R1\n  TREASURY eisenmark +50\nDENY\n", testVocab(t), nil)
	if len(sh.Commands) != 1 || len(sh.Commands[0].(Approve).Effects) != 1 || len(sh.Diagnostics) != 1 {
		t.Errorf("a bad DENY after an APPROVE: %+v", sh)
	}
}

// FuzzReferee: no referee mail makes the reader panic, and the canonical
// form of what it read reads back the same.
func FuzzReferee(f *testing.F) {
	f.Add("APPROVE R1\n  TREASURY eisenmark +200\n  ADD E9 24 C infantry AT 1910\nDENY R2 \"no\"\nDEADLINE SET 2025-06-08 18:00 UTC\nRERUN 3")
	f.Add("BREACH T1 fromande AGAINST eisenmark\nDEADLINE EXTEND 1d12h\nRESOLVE NOW\nPREVIEW\nLIFT T1 fromande AGAINST eisenmark")
	f.Add("> APPROVE R1\n> LOYALTY Dresna NEUTRAL\n> REMOVE E3 4 C infantry, general Keith")
	f.Add("PASSWORD x y\nTURN 3\nROLLBACK 2\nRESEND eisenmark 2\nREQUEUE\nRESET PASSWORD fromande snuffbox\nBATTLE 0502 TABLE\nTURN 4")
	f.Add("RULE AP Norhaven +5\nRULE COURIERS varn -1\nRULE CONTROL Wendmoor NONE\nRULE MOVE n2 TO Elkmoor\nRULE ADD N1 2 line-infantry, 1 hq\n" +
		"RULE REMOVE N1\nRULE REMOVE N1 1 guard heavy-infantry\nRULE TELL ostmark \"The plans say Kessel.\"\nRULE ALLIES norvale ostmark\nRULE WAR varn selvenia")
	for _, k := range kinds {
		f.Add(k.Example)
	}
	f.Fuzz(func(t *testing.T, mail string) {
		v := testVocab(t)
		sh := Parse(mail, v, time.UTC)
		var lines []string
		for _, c := range sh.Commands {
			lines = append(lines, c.Format(v))
		}
		text := strings.Join(lines, "\n")
		again := Parse(text, v, time.UTC)
		if len(sh.Commands) == 0 {
			return
		}
		var lines2 []string
		for _, c := range again.Commands {
			lines2 = append(lines2, c.Format(v))
		}
		if len(again.Diagnostics) > 0 || strings.Join(lines2, "\n") != text {
			t.Fatalf("canonical form does not read back:\n%s\n---\n%s\n%+v", text, strings.Join(lines2, "\n"), again.Diagnostics)
		}
	})
}

// TestRulingOf: APPROVE, BREACH and LIFT carry engine rulings; the other
// commands carry none.
func TestRulingOf(t *testing.T) {
	sh := Parse("APPROVE R1\n  TREASURY eisenmark -100\n  LOYALTY Dresna NEUTRAL\nBREACH T1 fromande AGAINST eisenmark\nLIFT T2 eisenmark AGAINST fromande\nRESOLVE NOW\n", testVocab(t), time.UTC)
	if len(sh.Diagnostics) > 0 || len(sh.Commands) != 4 {
		t.Fatalf("%+v", sh)
	}
	want := []engine.Ruling{
		{Token: "R1", Effects: []engine.Effect{engine.TreasuryChange{Nation: "eisenmark", Delta: -100}, engine.SetLoyalty{City: "Dresna"}}},
		{Effects: []engine.Effect{engine.DeclareBreach{Treaty: "T1", Offender: "fromande", Aggrieved: "eisenmark"}}},
		{Effects: []engine.Effect{engine.LiftPenalty{Treaty: "T2", Offender: "eisenmark", Aggrieved: "fromande"}}},
	}
	for i, w := range want {
		got, ok := RulingOf(sh.Commands[i])
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("command %d: RulingOf = %+v, %v; want %+v", i, got, ok, w)
		}
	}
	if _, ok := RulingOf(sh.Commands[3]); ok {
		t.Error("RESOLVE NOW carries a ruling")
	}
}

// TestDeadlineSetUsesTheScheduleParser: DEADLINE SET reads dates as the
// config's deadline dates do (package schedule), in the game's zone and
// across both daylight-saving changes; a date without a time is refused
// rather than guessed.
func TestDeadlineSetUsesTheScheduleParser(t *testing.T) {
	lon, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ in, want string }{
		{"DEADLINE SET 2026-03-29 01:30", "2026-03-29T01:30:00Z"}, // in the spring gap: 02:30 BST
		{"DEADLINE SET 2026-10-25 01:30", "2026-10-25T00:30:00Z"}, // ambiguous: the first, BST
		{"DEADLINE SET 2026-06-08T18:00", "2026-06-08T17:00:00Z"},
		{"DEADLINE SET 2026-06-08 19:00 Europe/Berlin", "2026-06-08T17:00:00Z"},
	} {
		sh := Parse(c.in, nil, lon)
		if len(sh.Commands) != 1 {
			t.Errorf("%s: %+v", c.in, sh.Diagnostics)
			continue
		}
		set, ok := sh.Commands[0].(DeadlineSet)
		if !ok || set.At.UTC().Format(time.RFC3339) != c.want {
			t.Errorf("%s = %+v, want %s", c.in, sh.Commands[0], c.want)
		}
	}
	if sh := Parse("DEADLINE SET 2026-06-08", nil, lon); len(sh.Commands) != 0 || len(sh.Diagnostics) == 0 {
		t.Errorf("a date without a time was accepted: %+v", sh.Commands)
	}
}

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
		sh := Parse(c.mail, nil, time.UTC)
		if sh.Password != c.pw || len(sh.Commands) != 1 || len(sh.Diagnostics) != 0 {
			t.Errorf("%q: password %q, %d commands, %v; want %q and one command", c.mail, sh.Password, len(sh.Commands), sh.Diagnostics, c.pw)
		}
	}
}

// TestRefereeTurnLine: a TURN line names the turn a referee mail's
// commands are about; a second, different one and TURN 0 are errors.
func TestRefereeTurnLine(t *testing.T) {
	sh := Parse("Hello,\n\nPASSWORD x\nTURN 3\nRESOLVE NOW\n", nil, nil)
	if sh.Turn != 3 || sh.TurnLine != 4 || len(sh.Commands) != 1 || len(sh.Diagnostics) != 0 {
		t.Errorf("TURN 3: %+v", sh)
	}
	sh = Parse("TURN 3\nRESOLVE NOW\nTURN 4\n", nil, nil)
	if sh.Turn != 3 || len(sh.Diagnostics) != 1 || !strings.Contains(sh.Diagnostics[0].Message, "a second TURN line") ||
		sh.Diagnostics[0].Line != 3 || sh.Diagnostics[0].Source != "TURN 4" {
		t.Errorf("two TURN lines: %+v", sh)
	}
	sh = Parse("TURN 0\nRESOLVE NOW\n", nil, nil)
	if sh.Turn != 0 || len(sh.Diagnostics) != 1 {
		t.Errorf("TURN 0: %+v", sh)
	}
}
