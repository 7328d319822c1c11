// Package templates holds the texts pbem mails to players and the referee,
// as text/template files embedded in the binary, so that wording can be
// changed (or translated) without touching the code that decides when each
// is sent.
//
// Each template is a file named after the mail it writes (no-sheet.txt);
// Render fills it with the data the caller gives. Templates are parsed once,
// with missingkey=error, so a mistyped field fails the tests rather than
// printing "<no value>" to a player.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/syw-pbem/pbem/internal/english"
)

//go:embed *.txt
var files embed.FS

var parsed = template.Must(template.New("").Option("missingkey=error").Funcs(template.FuncMap{
	"indent": func(s string) string {
		return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
	},
	// count writes a number and its noun in agreement ("1 crown", "200
	// crowns"): english.Count.
	"count": english.Count,
}).ParseFS(files, "*.txt"))

// Render fills the named template (its file name without .txt) with data.
func Render(name string, data any) (string, error) {
	t := parsed.Lookup(name + ".txt")
	if t == nil {
		return "", fmt.Errorf("templates: no template %q", name)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return b.String(), nil
}

// Must is Render for templates whose data the caller controls fully: a
// failure is a programming error, caught by the tests.
func Must(name string, data any) string {
	s, err := Render(name, data)
	if err != nil {
		panic(err)
	}
	return s
}

// Names lists the templates, sorted.
func Names() []string {
	var out []string
	for _, t := range parsed.Templates() {
		if n, ok := strings.CutSuffix(t.Name(), ".txt"); ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
