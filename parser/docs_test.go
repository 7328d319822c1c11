package parser

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// docBlock is a fenced code block of docs/orders.md.
type docBlock struct {
	info string // the fence's info string: orders, sheet, referee, reply
	text string
	line int // the line of the opening fence
}

func docBlocks(t *testing.T) []docBlock {
	t.Helper()
	b, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		blk := docBlock{info: strings.TrimSpace(strings.TrimPrefix(lines[i], "```")), line: i + 1}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		blk.text = strings.Join(body, "\n") + "\n"
		out = append(out, blk)
	}
	return out
}

// TestDocExamples parses every example order of docs/orders.md, and checks
// that every statement keyword has one.
func TestDocExamples(t *testing.T) {
	ctx := defaultGame(t, 1)
	v := NewVocabulary(ctx.Map, ctx.State)
	seen := map[string]bool{}
	n := 0
	for _, blk := range docBlocks(t) {
		if blk.info != "orders" {
			continue
		}
		sh := Parse(wrapSheet(blk.text), v)
		for _, d := range sh.Diagnostics {
			t.Errorf("docs/orders.md block at line %d: sheet line %d: %s", blk.line, d.Line, d.Message)
		}
		for _, st := range sh.Statements {
			n++
			kw, _ := match(firstWord(st.Source), orderKeywords)
			seen[kw] = true
			if st.Password != nil {
				continue // printed as a comment: the password is not echoed
			}
			// The canonical form of each example reads back the same.
			again := Parse(wrapSheet(FormatStatement(&st, v)), v)
			if len(again.Statements) != 1 || !sameStatement(st, again.Statements[0]) {
				t.Errorf("docs line %d: %q does not read back from its canonical form", blk.line, st.Source)
			}
		}
	}
	for _, kw := range orderKeywords {
		if !seen[kw] {
			t.Errorf("docs/orders.md has no example of %s", kw)
		}
	}
	if n < 60 {
		t.Errorf("only %d example statements found", n)
	}
}

// TestDocSheets checks the example sheets of docs/orders.md against the
// default scenario: they must have no error or warning (pbem check would
// exit 0).
func TestDocSheets(t *testing.T) {
	turnRE := regexp.MustCompile(`(?m)^TURN (\d+)`)
	n := 0
	for _, blk := range docBlocks(t) {
		if blk.info != "sheet" {
			continue
		}
		n++
		m := turnRE.FindStringSubmatch(blk.text)
		if m == nil {
			t.Fatalf("docs line %d: sheet without TURN", blk.line)
		}
		turn, _ := strconv.Atoi(m[1])
		r := Check(blk.text, defaultGame(t, turn))
		if r.ExitCode() != 0 || r.Count(Warning) > 0 {
			t.Errorf("docs line %d: the example sheet does not check clean:\n%s", blk.line, r.Text())
		}
	}
	if n < 3 {
		t.Errorf("%d example sheets, want the header example, a monthly and a year-end sheet", n)
	}
}

// TestDocReply: the sample reply in docs/orders.md is what the checker
// writes.
func TestDocReply(t *testing.T) {
	for _, blk := range docBlocks(t) {
		if blk.info != "reply" {
			continue
		}
		ctx := defaultGame(t, 1)
		// Deadlines are real dates, shown in the game's zone (the shipped
		// config's Europe/London), whatever the game's calendar says.
		london, err := time.LoadLocation("Europe/London")
		if err != nil {
			t.Fatal(err)
		}
		ctx.Deadline = time.Date(2026, 3, 6, 18, 0, 0, 0, london)
		ctx.Zone = london
		got := Check(docReplySheet, ctx).Text()
		// The doc shows the reply up to the receipt.
		want := blk.text
		if i := strings.Index(got, "\n(The receipt"); i >= 0 {
			got = got[:i+1]
		}
		if got != want {
			t.Errorf("docs line %d: the sample reply differs from the checker's:\n--- checker\n%s\n--- docs\n%s", blk.line, got, want)
		}
		return
	}
	t.Error("no reply example in docs/orders.md")
}

// docReplySheet is the sheet the sample reply of docs/orders.md answers.
const docReplySheet = "GAME syw\nNATION eisenmark\nPASSWORD tobacco\nTURN 1\nMOVE E1 TO Dresna\nSTANCE E1 ATACK\nEND\n"

// sameStatement compares two statements' content, not where they were read.
func sameStatement(a, b Statement) bool {
	if a.Order != nil && b.Order != nil {
		return reflect.DeepEqual(withoutLine(a.Order), withoutLine(b.Order))
	}
	a.Line, a.EndLine, a.Source, a.Order = 0, 0, "", nil
	b.Line, b.EndLine, b.Source, b.Order = 0, 0, "", nil
	return reflect.DeepEqual(a, b)
}
