package main

import (
	"fmt"
	"runtime/debug"

	"github.com/syw-pbem/pbem/ruleset"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func runVersion(e *env, args []string) int {
	fs := newFlags(e, "version", "", "Prints pbem's version, the Go version it was built with, and the rulesets it knows.")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	goVersion := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(e.stdout, "pbem %s (%s)\nrulesets: %v\n", version, goVersion, ruleset.IDs())
	return exitOK
}
