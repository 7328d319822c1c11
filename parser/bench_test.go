package parser

import (
	"fmt"
	"strings"
	"testing"
)

// sheet500 is a 500-line monthly sheet: every kind of monthly order, many
// times over, with comments and wrapped lines (a good part of it is in
// error, as the same forces get many orders).
func sheet500() string {
	lines := []string{"GAME syw", "NATION eisenmark", "PASSWORD tobacco", "TURN 3"}
	tmpl := []string{
		"# orders for %s",
		"STANCE %s ATTACK",
		"RETREAT %s IF ODDS 3:2",
		"PURSUE %s",
		"ON CONTACT %s CONTINUE",
		"SLOW ENEMY %s",
		"MOVE %s TO Konigsfeld",
		"MOVE %s 1810 1910",
		"SPLIT %s 2 C infantry, 1 B light-cavalry,",
		"  1 C gunners",
		"BESIEGE %s Dresna",
		"SPECIAL \"Let %s forage along the Eisel and send word of the enemy.\"",
		"EMBARK %s ON E4",
	}
	forces := []string{"E1", "E2", "E3", "E5", "E6"}
	for i := 0; len(lines) < 499; i++ {
		lines = append(lines, fmt.Sprintf(tmpl[i%len(tmpl)], forces[i/len(tmpl)%len(forces)]))
	}
	lines = append(lines, "END")
	return strings.Join(lines, "\n") + "\n"
}

// BenchmarkCheck500 checks a 500-line sheet against the fixture game.
func BenchmarkCheck500(b *testing.B) {
	s := sheet500()
	if n := strings.Count(s, "\n"); n != 500 {
		b.Fatalf("%d lines", n)
	}
	ctx := fixture(b, 3)
	b.ReportAllocs()
	for b.Loop() {
		r := Check(s, ctx)
		_ = r.Text()
	}
}

// BenchmarkParse500 only reads the same sheet.
func BenchmarkParse500(b *testing.B) {
	s := sheet500()
	v := NewVocabulary(loadFixtureMap(b), fixtureState(loadFixtureMap(b), 3))
	b.ReportAllocs()
	for b.Loop() {
		Parse(s, v)
	}
}
