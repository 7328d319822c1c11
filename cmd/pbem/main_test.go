package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// run calls pbem's main with args from the repository root, as a user would.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code = realMain(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestMapValidateDefault(t *testing.T) {
	code, out, errs := run(t, "", "map", "validate")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", code, out, errs)
	}
	for _, nation := range []string{"Eisenmark", "Morgronskia", "Unterreich", "Fromande", "Hispardia"} {
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, nation) {
				line = l
			}
		}
		if !strings.Contains(line, " 1600 ") {
			t.Errorf("%s's summary line does not show a 1600 tax base: %q", nation, line)
		}
	}
	if !strings.Contains(out, "valid") {
		t.Errorf("no verdict in:\n%s", out)
	}
}

func TestMapValidateBrokenFileNamesEachError(t *testing.T) {
	code, _, errs := run(t, "", "map", "validate", "hexmap/testdata/broken.map")
	if code != exitProblems {
		t.Fatalf("exit %d, want %d\n%s", code, exitProblems, errs)
	}
	n := 0
	for _, l := range strings.Split(errs, "\n") {
		if strings.HasPrefix(l, "hexmap/testdata/broken.map:") {
			n++
		}
	}
	if n < 5 {
		t.Errorf("only %d errors named with file:line:\n%s", n, errs)
	}
}

func TestMapRenderWritesPDF(t *testing.T) {
	out := filepath.Join(t.TempDir(), "map.pdf")
	code, _, errs := run(t, "", "map", "render", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("no PDF written: %v", err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils): not checking the text")
	}
	txt, err := exec.Command("pdftotext", out, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Konigsfeld", "Morgrad", "Kaiserau", "Valmont", "Madrona"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("rendered map lacks capitol %s", want)
		}
	}
}

func TestCheckExampleSheets(t *testing.T) {
	code, out, errs := run(t, "", "check", "docs/examples/monthly.txt")
	if code != 0 {
		t.Fatalf("exit %d on the example sheet\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "Receipt:") {
		t.Errorf("no receipt in the reply:\n%s", out)
	}
}

func TestCheckSheetWithErrorsExitsOne(t *testing.T) {
	sheet := "GAME syw\nNATION eisenmark\nTURN 1\nSTANCE E1 ATACK\nMOVE E12 0101\nEND\n"
	code, out, _ := run(t, sheet, "check", "-")
	if code != exitProblems {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"line 4", "ATTACK", "line 5", "E12"} {
		if !strings.Contains(out, want) {
			t.Errorf("reply lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	if code, _, errs := run(t, "", "frobnicate"); code != exitUsage || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, errs)
	}
	if code, _, _ := run(t, "", "map", "render"); code != exitUsage {
		t.Errorf("map render without --out: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := run(t, "", "check", "--help"); code != exitOK {
		t.Errorf("--help: exit %d, want 0", code)
	}
}

func TestConfigErrorsExitThree(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(bad, []byte("data_dir: data\ngame:\n  rulset: syw-1752\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "", "--config", bad, "new")
	if code != exitConfig {
		t.Fatalf("exit %d, want %d\n%s", code, exitConfig, errs)
	}
	if !strings.Contains(errs, ":3:") || !strings.Contains(errs, "rulset") {
		t.Errorf("config error does not name the key and its line:\n%s", errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "", "version")
	if code != 0 || !strings.Contains(out, "syw-1752") || !strings.Contains(out, "syw-v4") {
		t.Errorf("version: exit %d\n%s", code, out)
	}
}

// TestREADMECommandTable: the README's command table is the list "pbem
// help" prints, row for row, so a reader is never sent to a command or
// flag that is not there.
func TestREADMECommandTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `pbem ") {
			rows = append(rows, line)
		}
	}
	var want []string
	for _, c := range leaves(commands()) {
		want = append(want, fmt.Sprintf("| `%s` | %s |", strings.ReplaceAll(c.synopsis(), "|", `\|`), c.summary))
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("the README's command table differs from \"pbem help\"; make it:\n%s\n\nit is:\n%s",
			strings.Join(want, "\n"), strings.Join(rows, "\n"))
	}
	_, out, _ := run(t, "", "help")
	for _, c := range leaves(commands()) {
		if !strings.Contains(out, c.synopsis()+"\n      "+c.summary+"\n") {
			t.Errorf("\"pbem help\" does not list %q", c.synopsis())
		}
	}
}

// TestREADMEFreshMachine: the README's two commands for a fresh machine are
// the demo and the tests, and every document it links to
// exists.
func TestREADMEFreshMachine(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	_, section, _ := strings.Cut(text, "## Two commands on a fresh machine")
	_, block, _ := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if got := strings.Join(cmds, "; "); got != "go run ./cmd/pbem demo --out demo-out; go test ./..." {
		t.Errorf("the fresh-machine commands are %q, want \"go run ./cmd/pbem demo --out demo-out; go test ./...\"", got)
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)\)`).FindAllStringSubmatch(text, -1) {
		link := m[1]
		if strings.Contains(link, "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("../..", link)); err != nil {
			t.Errorf("the README links to %s, which does not exist", link)
		}
	}
	if !strings.Contains(text, "codeberg.org/go-pdf/fpdf") || !strings.Contains(text, "jung-kurt/gofpdf") {
		t.Error("the README no longer says which PDF library pbem uses (codeberg.org/go-pdf/fpdf, the continuation of jung-kurt/gofpdf)")
	}
}

// TestEveryCommandHasHelp: "pbem COMMAND --help" and "pbem help COMMAND"
// describe every command on standard output and exit 0.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range leaves(commands()) {
		for _, args := range [][]string{append(strings.Fields(c.path()), "--help"), append([]string{"help"}, strings.Fields(c.path())...)} {
			code, out, errs := run(t, "", args...)
			if code != exitOK || !strings.HasPrefix(out, "Usage: "+c.synopsis()) {
				t.Errorf("pbem %s: exit %d, stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errs)
			}
		}
	}
}

// TestExtraArgumentsRefused: a command that takes no arguments says so
// rather than ignoring what was typed.
func TestExtraArgumentsRefused(t *testing.T) {
	for _, name := range []string{"new", "run", "version"} {
		code, _, errs := run(t, "", name, "extra")
		if code != exitUsage || !strings.Contains(errs, "takes no arguments") {
			t.Errorf("pbem %s extra: exit %d, %q", name, code, errs)
		}
	}
}

// TestMissingFilesExitFour: a file that cannot be read is a failure while
// running (4), named in the message, for every command that reads one.
func TestMissingFilesExitFour(t *testing.T) {
	for _, args := range [][]string{{"map", "validate", "nosuch.map"}, {"check", "nosuch.txt"}, {"send", "--from", "a@b", "nosuch.txt"}} {
		code, _, errs := run(t, "", args...)
		if code != exitFailure || !strings.Contains(errs, "nosuch") {
			t.Errorf("pbem %s: exit %d, %q; want %d naming the file", strings.Join(args, " "), code, errs, exitFailure)
		}
	}
}

// TestRulesetCannotChange: a config naming another edition than the game
// was created with is a configuration error (3) that says what to do, for
// "pbem check" too, which would otherwise check sheets by the wrong rules.
func TestRulesetCannotChange(t *testing.T) {
	dir := t.TempDir()
	conf, err := os.ReadFile("../../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scen, _ := filepath.Abs("../../scenarios/default")
	text := strings.Replace(string(conf), "scenario: scenarios/default", "scenario: "+scen, 1)
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "", "--config", path, "new"); code != exitOK {
		t.Fatalf("pbem new: exit %d\n%s", code, errs)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, "ruleset: syw-1752", "ruleset: syw-v4", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"new"}, {"check", "docs/examples/monthly.txt"}} {
		code, _, errs := run(t, "", append([]string{"--config", path}, args...)...)
		if code != exitConfig || !strings.Contains(errs, "set game.ruleset back to syw-1752") {
			t.Errorf("pbem %s with the ruleset changed: exit %d, %q", args[0], code, errs)
		}
	}
}

// TestSendKeepsMessagesAndWrapsText: a file that is already a mail is sent
// as it is; anything else (a sheet, a letter that starts "From: the King")
// is wrapped in a new message.
func TestSendKeepsMessagesAndWrapsText(t *testing.T) {
	for text, want := range map[string]bool{
		"From: a@b\r\nSubject: x\r\n\r\nGAME syw\r\n":    true,
		"Subject: x\nFrom: a@b\n  (continued)\n\nbody\n": true,
		"GAME syw\nNATION eisenmark\nEND\n":              false,
		"From: the King, to his referee\n\nGAME syw\n":   false,
		"Dear referee,\nFrom: Frederick\n\nGAME syw\n":   false,
		"Subject: orders, no sender\n\nGAME syw\n":       false,
		"\nFrom: a@b\n\nbody":                            false,
		"":                                               false,
	} {
		if got := looksLikeMessage([]byte(text)); got != want {
			t.Errorf("looksLikeMessage(%q) = %v, want %v", text, got, want)
		}
	}
}
