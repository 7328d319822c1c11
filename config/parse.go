package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong with a config file.
type Problem struct {
	File    string // the config file's name
	Line    int    // 1-based; 0 when the key is not in the file (a default is at fault)
	Path    string // the key path, such as "mail.imap.port"; "" for the file as a whole
	Message string // what is wrong and what to write instead
}

// String formats the problem as "file:line: key.path: message".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is the error Parse, Load and Validate return: every problem
// found, in file order where lines are known.
type Problems []Problem

// Error lists the problems, one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Load reads, parses and validates the config file at path: the call the
// daemon makes at start-up. Its error is Problems (or a file-reading error).
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse decodes a config file's contents over Default(). name is the file's
// name: it appears in messages, and relative paths in the config are
// resolved against its directory. Unknown keys, values of the wrong type
// and YAML syntax errors are reported together as Problems, each with its
// line and key path. Parse does not validate; see Validate and Load.
func Parse(data []byte, name string) (*Config, error) {
	c := Default()
	c.source = name
	c.dir = filepath.Dir(name)

	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Problems{syntaxProblem(name, err)}
	}
	entries := index(&root)
	c.lines = make(map[string]int, len(entries))
	for _, e := range entries {
		c.lines[e.path] = e.key.Line
	}

	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(c)
	if errors.Is(err, io.EOF) {
		err = nil // an empty file: all defaults
	}
	if err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, Problems{syntaxProblem(name, err)}
		}
		var ps Problems
		for _, msg := range te.Errors {
			ps = append(ps, decodeProblem(name, msg, entries))
		}
		slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
		return nil, ps
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, Problems{{File: name, Line: extra.Line, Message: "a second YAML document (after ---); a config file holds one"}}
	}
	c.setSecretDirs()
	return c, nil
}

// setSecretDirs tells every Secret where relative password_file names start.
func (c *Config) setSecretDirs() {
	for id, n := range c.Game.Nations {
		n.dir = c.dir
		c.Game.Nations[id] = n
	}
	for i := range c.Mail.Embedded.Accounts {
		c.Mail.Embedded.Accounts[i].dir = c.dir
	}
	c.Mail.IMAP.dir = c.dir
	c.Mail.SMTP.dir = c.dir
	c.Game.RefereePassword.dir = c.dir
}

// entry is one key of the file with its path, for messages.
type entry struct {
	path       string
	key, value *yaml.Node // key is the value itself for sequence items
}

// index lists every key and sequence item in the document, depth first.
func index(root *yaml.Node) []entry {
	var out []entry
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				out = append(out, entry{path: p, key: k, value: v})
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				out = append(out, entry{path: p, key: c, value: c})
				walk(c, p)
			}
		case yaml.AliasNode:
			// Aliases are decoded from their anchor; their keys are listed there.
		}
	}
	walk(root, "")
	return out
}

var (
	syntaxRE  = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownRE = regexp.MustCompile(`^line (\d+): field (.*) not found in type (\S+)$`)
	dupRE     = regexp.MustCompile(`^line (\d+): mapping key "(.*)" already defined at line (\d+)$`)
	typeRE    = regexp.MustCompile(`^line (\d+): cannot unmarshal (!!\w+)(?: ` + "`" + `(.*)` + "`" + `)? into (.+)$`)
)

func syntaxProblem(name string, err error) Problem {
	if m := syntaxRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Problem{File: name, Line: line, Message: "YAML syntax: " + m[2]}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.Contains(msg, "aliasing") || strings.Contains(msg, "max depth") {
		return Problem{File: name, Message: msg}
	}
	// yaml.v3 leaves out the line number when it is the first line.
	return Problem{File: name, Line: 1, Message: "YAML syntax: " + msg}
}

// decodeProblem rewrites one of yaml.v3's decoding messages for people: the
// key path, the value read, and what was expected.
func decodeProblem(name, msg string, entries []entry) Problem {
	if m := unknownRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		key := m[2]
		p := Problem{File: name, Line: line, Path: key, Message: "unknown key"}
		for _, e := range entries {
			if e.key.Line == line && e.key.Value == key {
				p.Path = e.path
				break
			}
		}
		if known := knownKeys(m[3]); len(known) > 0 {
			if guess := closest(key, known); guess != "" {
				p.Message += fmt.Sprintf("; did you mean %q?", guess)
			} else {
				p.Message += "; the keys allowed here are " + strings.Join(known, ", ")
			}
		}
		return p
	}
	if m := typeRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		tag, shown, goType := m[2], m[3], m[4]
		p := Problem{File: name, Line: line}
		var found string
		wantKind := yaml.ScalarNode
		switch tag {
		case "!!seq":
			wantKind = yaml.SequenceNode
		case "!!map":
			wantKind = yaml.MappingNode
		}
		for _, e := range entries {
			v := e.value
			if v.Line != line || v.Kind != wantKind {
				continue
			}
			if v.Kind == yaml.ScalarNode && !strings.HasPrefix(v.Value, strings.TrimSuffix(shown, "...")) {
				continue
			}
			p.Path = e.path
			switch v.Kind {
			case yaml.ScalarNode:
				found = strconv.Quote(v.Value)
			case yaml.SequenceNode:
				found = "a list"
			case yaml.MappingNode:
				found = "a set of keys"
			}
			break
		}
		if found == "" {
			found = describeTag(tag, shown)
		}
		p.Message = fmt.Sprintf("expected %s, found %s", describeGoType(goType), found)
		return p
	}
	if m := dupRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		p := Problem{File: name, Line: line, Path: m[2], Message: fmt.Sprintf("given twice (first at line %s); keep one", m[3])}
		for _, e := range entries {
			if e.key.Line == line && e.key.Value == m[2] {
				p.Path = e.path
				break
			}
		}
		return p
	}
	return Problem{File: name, Message: msg}
}

func describeTag(tag, shown string) string {
	switch tag {
	case "!!seq":
		return "a list"
	case "!!map":
		return "a set of keys"
	}
	return strconv.Quote(shown)
}

func describeGoType(t string) string {
	switch {
	case t == "time.Duration":
		return "a duration such as 90s, 2m or 1h30m"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "a whole number"
	case t == "string" || t == "config.Password" || t == "config.Security" || t == "config.Mode":
		return "a single value"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "config."):
		return "a set of keys"
	}
	return t
}

// configTypes maps yaml.v3's type names ("config.Nation") to the types, for
// listing the keys a section accepts.
var configTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || m[t.String()] != nil {
			return
		}
		m[t.String()] = t
		for i := range t.NumField() {
			add(t.Field(i).Type)
		}
	}
	add(reflect.TypeOf(Config{}))
	return m
}()

// knownKeys lists the YAML keys of a config type, inline fields included.
func knownKeys(typeName string) []string {
	t, ok := configTypes[typeName]
	if !ok {
		return nil
	}
	var keys []string
	var collect func(t reflect.Type)
	collect = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if strings.Contains(opts, "inline") {
				collect(f.Type)
				continue
			}
			if name != "" && name != "-" {
				keys = append(keys, name)
			}
		}
	}
	collect(t)
	return keys
}

// closest returns the known key nearest to key by edit distance, if it is
// near enough to be a likely typo.
func closest(key string, known []string) string {
	best, bestD := "", -1
	for _, k := range known {
		if d := editDistance(strings.ToLower(key), k); bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD < 0 || bestD > max(1, len(key)/3) {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
