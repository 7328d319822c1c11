package main

import (
	"context"
	"fmt"
)

// runExport is "pbem export": the archive to standard output, or with --out
// to a file replaced whole or not at all (Game.ExportFile: temporary file,
// fsync, rename), so that a kill or an error never leaves part of an archive
// in the place of a good one.
func runExport(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	out := fs.String("out", "", "the file to write (default: standard output)")
	g, _, code := openGameArgs(e, c, fs, args, 0)
	if g == nil {
		return code
	}
	defer g.Close()
	if *out == "" {
		if _, err := g.Export(context.Background(), e.stdout); err != nil {
			return failed(e, err)
		}
		return exitOK
	}
	n, err := g.ExportFile(context.Background(), *out)
	if err != nil {
		return failed(e, err)
	}
	fmt.Fprintf(e.stdout, "%s: %d turn records of game %s\n", *out, n, g.ID())
	return exitOK
}
