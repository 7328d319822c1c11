package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The shape of scenario.yaml (docs/scenario.md describes every key). These
// types are only the file's syntax; Load turns them into game values.

type fileSpec struct {
	Name     string       `yaml:"name"`
	Map      string       `yaml:"map"`
	Calendar calendarSpec `yaml:"calendar"`
	Nations  []nationSpec `yaml:"nations"`
}

type calendarSpec struct {
	StartYear  int `yaml:"start_year"`
	FirstMonth int `yaml:"first_month"`
}

type nationSpec struct {
	ID       string      `yaml:"id"`
	Treasury int         `yaml:"treasury"`
	Depots   []string    `yaml:"depots"`
	Forces   []forceSpec `yaml:"forces"`
}

type forceSpec struct {
	ID       string       `yaml:"id"`
	At       string       `yaml:"at"`
	Stance   string       `yaml:"stance"`
	Garrison bool         `yaml:"garrison"`
	Generals []leaderSpec `yaml:"generals"`
	Admirals []leaderSpec `yaml:"admirals"`
	Troops   []string     `yaml:"troops"`
	Guns     []string     `yaml:"guns"`
	Ships    shipsSpec    `yaml:"ships"`
}

type leaderSpec struct {
	ID         string `yaml:"id"`
	Name       string `yaml:"name"`
	Experience int    `yaml:"experience"`
}

type shipsSpec struct {
	Warships   int `yaml:"warships"`
	Transports int `yaml:"transports"`
}

// nouns name the file's parts in error messages.
var nouns = map[string]reflect.Type{
	"the scenario":      reflect.TypeFor[fileSpec](),
	"the calendar":      reflect.TypeFor[calendarSpec](),
	"a nation":          reflect.TypeFor[nationSpec](),
	"a force":           reflect.TypeFor[forceSpec](),
	"a general/admiral": reflect.TypeFor[leaderSpec](),
	"ships":             reflect.TypeFor[shipsSpec](),
}

// Error is one mistake in a scenario: the file and line, and what is wrong.
type Error struct {
	File string // scenario.yaml or the map file
	Line int    // counted from 1; 0 for the file as a whole
	Msg  string // what was read, what was expected
}

// Error prints "file:line: message".
func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Errors is every mistake found, in file and line order.
type Errors []*Error

// Error prints one mistake per line.
func (l Errors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

var (
	yamlLine   = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	notFound   = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
	cannotDeco = regexp.MustCompile(`^cannot unmarshal !!(\w+) (.*) into (\S+)$`)
)

// decodeFile reads scenario.yaml strictly: unknown keys, wrong types and
// syntax errors are reported with their lines. It also returns the document's
// node tree, to find the line of any value later.
func decodeFile(data []byte, file string) (*fileSpec, *yaml.Node, error) {
	var spec fileSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(&spec)
	if err != nil {
		var errs Errors
		var te *yaml.TypeError
		if errors.As(err, &te) {
			for _, m := range te.Errors {
				errs = append(errs, yamlError(file, m))
			}
		} else {
			errs = append(errs, yamlError(file, err.Error()))
		}
		return nil, nil, errs
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, Errors{yamlError(file, err.Error())}
	}
	return &spec, &root, nil
}

// yamlError turns one of the YAML library's messages into ours.
func yamlError(file, msg string) *Error {
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := notFound.FindStringSubmatch(msg); m != nil {
		noun, keys := describe(m[2])
		msg = fmt.Sprintf("read unknown key %q in %s, expected one of: %s", m[1], noun, keys)
	} else if m := cannotDeco.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("read %q where %s was expected", strings.Trim(m[2], "`"), kindOf(m[3]))
	}
	if msg == "EOF" {
		msg = "the file is empty: expected name, map, calendar and nations"
	}
	return &Error{File: file, Line: line, Msg: msg}
}

// describe names a spec type for people and lists its keys.
func describe(goType string) (string, string) {
	for noun, t := range nouns {
		if strings.HasSuffix(goType, "."+t.Name()) {
			var keys []string
			for i := range t.NumField() {
				keys = append(keys, strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0])
			}
			return noun, strings.Join(keys, ", ")
		}
	}
	return "the scenario", ""
}

func kindOf(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case goType == "int":
		return "a whole number"
	case goType == "string":
		return "a word or quoted text"
	case goType == "bool":
		return "true or false"
	}
	return "a mapping of keys"
}

// lineOf finds the line of a value in the document: path steps are mapping
// keys (string) and list indexes (int). A key's line is where the key is
// written (its value may start below it); a list item's line is where the item
// starts. A missing step gives the line of the deepest part found.
func lineOf(root *yaml.Node, path ...any) int {
	n := root
	if n == nil {
		return 0
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, step := range path {
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == s {
						next = n.Content[i+1]
						line = n.Content[i].Line
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < len(n.Content) {
				next = n.Content[s]
			}
		}
		if next == nil {
			return line
		}
		if _, isKey := step.(string); !isKey {
			line = next.Line
		}
		n = next
	}
	return line
}
