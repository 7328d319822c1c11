package hexmap

import (
	"reflect"
	"testing"

	"github.com/syw-pbem/pbem/game"
)

// Every national trait can be written in a map file, under its YAML name.
func TestTraitKeywordsCoverTraits(t *testing.T) {
	typ := reflect.TypeFor[game.Traits]()
	if typ.NumField() != len(traitKeywords) {
		t.Fatalf("game.Traits has %d fields, the traits= words cover %d", typ.NumField(), len(traitKeywords))
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("yaml")
		word := tag[:len(tag)-len(",omitempty")]
		found := false
		for _, k := range traitKeywords {
			if k.word != word {
				continue
			}
			found = true
			var tr game.Traits
			*k.of(&tr) = true
			if !reflect.ValueOf(tr).Field(i).Bool() {
				t.Errorf("traits=%s does not set %s", word, f.Name)
			}
		}
		if !found {
			t.Errorf("trait %s (yaml %q) has no traits= word", f.Name, word)
		}
	}
}
