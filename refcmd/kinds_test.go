package refcmd

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCommandKindsComplete: every kind of the registry has a verb that is
// its type's, a keyword its grammar is found by, a family file, and an
// example that reads, alone, to one command of the kind whose canonical
// form reads back the same.
func TestCommandKindsComplete(t *testing.T) {
	v := testVocab(t)
	seen := map[string]bool{}
	families := []string{"rulings", "deadline", "turn", "mail", "passwords", "table", "rule"}
	for _, k := range kinds {
		ok := false
		switch {
		case k.Verb == "" || k.Zero == nil || k.Zero.Verb() != k.Verb:
			t.Errorf("kind %q: its zero value %T does not have its verb", k.Verb, k.Zero)
		case seen[k.Verb]:
			t.Errorf("kind %q is registered twice", k.Verb)
		case k.Parse == nil:
			t.Errorf("kind %q (%s.go) has no grammar: its Kind has no Parse", k.Verb, k.Family)
		case !slices.Contains(families, k.Family):
			t.Errorf("kind %q: family %q is none of %v", k.Verb, k.Family, families)
		case k.Example == "":
			t.Errorf("kind %q (%s.go) has no example", k.Verb, k.Family)
		default:
			ok = true
		}
		seen[k.Verb] = true
		if !ok {
			continue
		}
		if _, err := os.Stat(k.Family + ".go"); err != nil {
			t.Errorf("kind %q: no file of its family %s.go", k.Verb, k.Family)
		}
		sh := Parse(k.Example, v, nil)
		if len(sh.Diagnostics) > 0 || len(sh.Commands) != 1 || sh.Commands[0].Verb() != k.Verb {
			t.Errorf("kind %q: its example %q reads as %+v, %v", k.Verb, k.Example, sh.Commands, sh.Diagnostics)
			continue
		}
		canon := sh.Commands[0].Format(v)
		if again := Parse(canon, v, nil); len(again.Commands) != 1 || again.Commands[0].Format(v) != canon {
			t.Errorf("kind %q: its canonical form %q does not read back", k.Verb, canon)
		}
		if k2, ok := KindOf(k.Verb); !ok || k2.Keyword != k.Keyword {
			t.Errorf("KindOf(%q) = %+v, %v", k.Verb, k2, ok)
		}
	}
	for _, e := range effectKinds {
		sh := Parse("APPROVE R1\n  "+e.Example, v, nil)
		if len(sh.Diagnostics) > 0 || len(sh.Commands) != 1 || len(sh.Commands[0].(Approve).Effects) != 1 ||
			sh.Commands[0].(Approve).Effects[0].EffectKind() != e.Kind {
			t.Errorf("effect %s: its example %q reads as %+v, %v", e.Keyword, e.Example, sh.Commands, sh.Diagnostics)
		}
	}
}

// docBlocks returns the fenced blocks of a doc with the info string info.
func docBlocks(t *testing.T, path, info string) (blocks []string, lines []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(string(b), "\n")
	for i := 0; i < len(ls); i++ {
		if !strings.HasPrefix(ls[i], "```") {
			continue
		}
		open := i + 1
		this := strings.TrimSpace(strings.TrimPrefix(ls[i], "```"))
		var body []string
		for i++; i < len(ls) && !strings.HasPrefix(ls[i], "```"); i++ {
			body = append(body, ls[i])
		}
		if this == info {
			blocks, lines = append(blocks, strings.Join(body, "\n")+"\n"), append(lines, open)
		}
	}
	return blocks, lines
}

// TestDocReferee reads the referee examples of docs/referee.md: each reads
// without an error, and every kind's example and every effect is among
// them.
func TestDocReferee(t *testing.T) {
	v := testVocab(t)
	blocks, at := docBlocks(t, "../docs/referee.md", "referee")
	seen := map[string]bool{}
	all := strings.Join(blocks, "\n")
	for i, blk := range blocks {
		sh := Parse(blk, v, nil)
		for _, d := range sh.Diagnostics {
			t.Errorf("docs/referee.md line %d: line %d: %s", at[i], d.Line, d.Message)
		}
		for _, c := range sh.Commands {
			seen[c.Verb()] = true
			if a, ok := c.(Approve); ok {
				for _, e := range a.Effects {
					seen[e.EffectKind()] = true
				}
			}
		}
	}
	for _, k := range kinds {
		if !seen[k.Verb] || !strings.Contains(all, k.Example) {
			t.Errorf("docs/referee.md has no example of %s (%q)", k.Verb, k.Example)
		}
	}
	for _, e := range effectKinds {
		if !seen[e.Kind] || !strings.Contains(all, e.Example) {
			t.Errorf("docs/referee.md has no example of the effect %s (%q)", e.Keyword, e.Example)
		}
	}
}
