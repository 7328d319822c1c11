package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docCommand is a pbem command line found in the docs.
type docCommand struct {
	where string   // file:line
	words []string // after "pbem"
}

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	pbemInCode = regexp.MustCompile(`(?:^|[\s|(;])(?:go run \./cmd/pbem|\./pbem|pbem)((?:\s+[^\s#|;)]+)*)`)
)

// docCommands finds every pbem command line in the README and docs/*.md:
// in inline code spans and in shell code blocks.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	var out []docCommand
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fence, shell := false, false
		// prose is the file with fenced blocks blanked (lines kept), so
		// that a code span broken over two lines is still one span.
		var prose []string
		add := func(where, code string) {
			for _, m := range pbemInCode.FindAllStringSubmatch(code, -1) {
				if words := strings.Fields(m[1]); len(words) > 0 {
					out = append(out, docCommand{where, words})
				}
			}
		}
		name := strings.TrimPrefix(f, "../../")
		for i, line := range strings.Split(string(b), "\n") {
			trimmed := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(trimmed, "```") && fence:
				fence = false
			case strings.HasPrefix(trimmed, "```"):
				fence = true
				info := strings.TrimPrefix(trimmed, "```")
				shell = info == "sh" || info == "shell" || info == "console"
			case fence && shell:
				add(name+":"+strconv.Itoa(i+1), line)
			}
			if fence || strings.HasPrefix(trimmed, "```") {
				prose = append(prose, "")
			} else {
				prose = append(prose, line)
			}
		}
		text := strings.Join(prose, "\n")
		for _, m := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
			line := strings.Count(text[:m[0]], "\n") + 1
			add(name+":"+strconv.Itoa(line), strings.ReplaceAll(text[m[2]:m[3]], "\n", " "))
		}
	}
	return out
}

// commandFlags is the flags "pbem PATH --help" lists, and the global ones.
func commandFlags(t *testing.T, path string) []string {
	t.Helper()
	_, out, _ := run(t, "", append(strings.Fields(path), "--help")...)
	flags := []string{"config", "help", "h"}
	for _, m := range regexp.MustCompile(`(?m)^\s+--(\S+)`).FindAllStringSubmatch(out, -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// TestDocsNameRealCommands: every pbem command the README and the docs
// show in code exists, and so does every flag given to it.
func TestDocsNameRealCommands(t *testing.T) {
	byPath := map[string]*command{}
	for _, c := range leaves(commands()) {
		byPath[c.path()] = c
	}
	groups := map[string]bool{}
	for _, c := range commands() {
		if c.run == nil {
			groups[c.name] = true
		}
	}
	flagsOf := map[string][]string{}
	found := 0
	for _, dc := range docCommands(t) {
		words := dc.words
		// Global flags before the command.
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			name := strings.TrimLeft(words[0], "-")
			if name != "config" && name != "help" && name != "h" {
				t.Errorf("%s: pbem %s: no global flag %s (only --config and --help)", dc.where, strings.Join(dc.words, " "), words[0])
			}
			words = words[1:]
			if name == "config" && len(words) > 0 {
				words = words[1:]
			}
		}
		if len(words) == 0 {
			continue
		}
		path := words[0]
		words = words[1:]
		if strings.ToUpper(path) == path {
			continue // a placeholder: "pbem COMMAND"
		}
		if groups[path] && len(words) > 0 {
			path += " " + words[0]
			words = words[1:]
		}
		if _, ok := byPath[path]; !ok {
			t.Errorf("%s: the docs name \"pbem %s\", which is not a command", dc.where, path)
			continue
		}
		found++
		if _, ok := flagsOf[path]; !ok {
			flagsOf[path] = commandFlags(t, path)
		}
		for _, w := range words {
			for _, alt := range strings.Split(strings.Trim(w, "[]"), `\|`) {
				alt = strings.Trim(alt, "[]")
				if !strings.HasPrefix(alt, "-") || alt == "-" {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimLeft(alt, "-"), "=")
				if !slices.Contains(flagsOf[path], name) {
					t.Errorf("%s: the docs give \"pbem %s\" the flag %s, which it does not take (it takes %s)", dc.where, path, alt, strings.Join(flagsOf[path], ", "))
				}
			}
		}
	}
	if found < 20 {
		t.Errorf("found only %d pbem commands in the docs; is the scan broken?", found)
	}
}

// TestFlagHelpShowsDoubleDashes: every command's --help lists its flags as
// they are written on the command line and in the docs, "--out", never
// "-out".
func TestFlagHelpShowsDoubleDashes(t *testing.T) {
	for _, c := range leaves(commands()) {
		_, out, _ := run(t, "", append(strings.Fields(c.path()), "--help")...)
		if m := regexp.MustCompile(`(?m)^\s+-[a-z]`).FindString(out); m != "" {
			t.Errorf("pbem %s --help lists a flag with one dash: %q", c.path(), strings.TrimSpace(m))
		}
		if !strings.Contains(out, "  --config") {
			t.Errorf("pbem %s --help does not list --config:\n%s", c.path(), out)
		}
	}
}
