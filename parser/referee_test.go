package parser

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// TestRefereeCommands reads each command and compares its canonical form,
// or the error it gives.
func TestRefereeCommands(t *testing.T) {
	v := vocabForFuzz(t)
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
		{"TREASURY eisenmark +200", "error: the effect TREASURY follows no APPROVE"},
		{"APROVE R1", "error: read \"APROVE\"; did you mean APPROVE?"},
		{"DEADLINE EXTEND soon", "error: expected a duration such as 2d"},
		{"DEADLINE SET tomorrow", "error: expected a date and time such as 2025-06-08 18:00"},
		{"DEADLINE SET 2025-06-08 18:00 Mars/Olympus", "error: unknown time zone"},
		{"BREACH T1 fromande eisenmark", "error: expected AGAINST, read \"eisenmark\""},
		{"APPROVE R1\n  TREASURY eisenmark 200", "error: expected + or - and a number of crowns"},
		{"APPROVE\n  TREASURY eisenmark +200", "error: expected a request token"},
		{"RESOLVE", "error: expected NOW"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			rs := ParseRefereeCommands("Dear all,\n\n"+tc.in+"\n-- \nThe Referee\n", v, nil)
			if strings.HasPrefix(tc.want, "error: ") {
				want := strings.TrimPrefix(tc.want, "error: ")
				if len(rs.Diagnostics) == 0 || !strings.Contains(rs.Diagnostics[0].Message, want) {
					t.Fatalf("diagnostics %+v, want %q", rs.Diagnostics, want)
				}
				return
			}
			if len(rs.Diagnostics) > 0 || len(rs.Commands) != 1 {
				t.Fatalf("diagnostics %+v, %d commands", rs.Diagnostics, len(rs.Commands))
			}
			got := FormatRefereeCommand(rs.Commands[0], v)
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			again := ParseRefereeCommands(got, v, nil)
			if len(again.Commands) != 1 || FormatRefereeCommand(again.Commands[0], v) != got {
				t.Fatalf("canonical form does not read back: %+v", again)
			}
		})
	}
}

// TestRefereeSheet: commands keep their lines and effects their APPROVE;
// greetings and quoted text before the first command are ignored; END stops.
func TestRefereeSheet(t *testing.T) {
	mail := "Hi,\n> quoted APPROVE R999\nGAME syw\nAPPROVE R1\n  TREASURY eisenmark +200\nDENY R2\nAPPROVE R3\n  MOVE E2 TO 1910\nEND\nRESOLVE NOW\n"
	rs := ParseRefereeCommands(mail, vocabForFuzz(t), time.UTC)
	if len(rs.Diagnostics) > 0 || rs.Game != "syw" || len(rs.Commands) != 3 {
		t.Fatalf("%+v", rs)
	}
	a := rs.Commands[0].(Approve)
	if a.Line != 4 || len(a.Effects) != 1 || a.Effects[0] != (engine.TreasuryChange{Nation: "eisenmark", Delta: 200}) {
		t.Errorf("first %+v", a)
	}
	if c := rs.Commands[2].(Approve); len(c.Effects) != 1 || c.Effects[0] != (engine.PlaceForce{Force: "E2", To: game.Hex{Col: 19, Row: 10}}) {
		t.Errorf("third %+v", c)
	}
	if rs := ParseRefereeCommands("Thanks!", nil, nil); len(rs.Diagnostics) != 1 {
		t.Errorf("no commands: %+v", rs)
	}
}

// FuzzReferee: no referee mail makes the reader panic, and the canonical
// form of what it read reads back the same.
func FuzzReferee(f *testing.F) {
	f.Add("APPROVE R1\n  TREASURY eisenmark +200\n  ADD E9 24 C infantry AT 1910\nDENY R2 \"no\"\nDEADLINE SET 2025-06-08 18:00 UTC\nRERUN 3")
	f.Add("BREACH T1 fromande AGAINST eisenmark\nDEADLINE EXTEND 1d12h\nRESOLVE NOW\nPREVIEW\nLIFT T1 fromande AGAINST eisenmark")
	f.Add("> APPROVE R1\n> LOYALTY Dresna NEUTRAL\n> REMOVE E3 4 C infantry, general Keith")
	f.Fuzz(func(t *testing.T, mail string) {
		v := vocabForFuzz(t)
		rs := ParseRefereeCommands(mail, v, time.UTC)
		var lines []string
		for _, c := range rs.Commands {
			lines = append(lines, FormatRefereeCommand(c, v))
		}
		text := strings.Join(lines, "\n")
		again := ParseRefereeCommands(text, v, time.UTC)
		if len(rs.Commands) == 0 {
			return
		}
		var lines2 []string
		for _, c := range again.Commands {
			lines2 = append(lines2, FormatRefereeCommand(c, v))
		}
		if len(again.Diagnostics) > 0 || strings.Join(lines2, "\n") != text {
			t.Fatalf("canonical form does not read back:\n%s\n---\n%s\n%+v", text, strings.Join(lines2, "\n"), again.Diagnostics)
		}
	})
}

// TestRulingOf: APPROVE, BREACH and LIFT carry engine rulings; the other
// commands carry none.
func TestRulingOf(t *testing.T) {
	rs := ParseRefereeCommands("APPROVE R1\n  TREASURY eisenmark -100\n  LOYALTY Dresna NEUTRAL\nBREACH T1 fromande AGAINST eisenmark\nLIFT T2 eisenmark AGAINST fromande\nRESOLVE NOW\n", vocabForFuzz(t), time.UTC)
	if len(rs.Diagnostics) > 0 || len(rs.Commands) != 4 {
		t.Fatalf("%+v", rs)
	}
	want := []engine.Ruling{
		{Token: "R1", Effects: []engine.Effect{engine.TreasuryChange{Nation: "eisenmark", Delta: -100}, engine.SetLoyalty{City: "Dresna"}}},
		{Effects: []engine.Effect{engine.DeclareBreach{Treaty: "T1", Offender: "fromande", Aggrieved: "eisenmark"}}},
		{Effects: []engine.Effect{engine.LiftPenalty{Treaty: "T2", Offender: "eisenmark", Aggrieved: "fromande"}}},
	}
	for i, w := range want {
		got, ok := RulingOf(rs.Commands[i])
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("command %d: RulingOf = %+v, %v; want %+v", i, got, ok, w)
		}
	}
	if _, ok := RulingOf(rs.Commands[3]); ok {
		t.Error("RESOLVE NOW carries a ruling")
	}
}
