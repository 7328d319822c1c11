package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
	os.WriteFile(bad, []byte("data_dir: data\ngame:\n  rulset: syw-1752\n"), 0o600)
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
