package main

import (
	"fmt"
	"runtime/debug"

	"github.com/syw-pbem/pbem/ruleset"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func runVersion(e *env, c *command, args []string) int {
	if code, ok := parseNoArgs(e, c, newFlags(e, c), args); !ok {
		return code
	}
	goVersion := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(e.stdout, "pbem %s (%s)\nrulesets: %v\n", version, goVersion, ruleset.IDs())
	return exitOK
}
