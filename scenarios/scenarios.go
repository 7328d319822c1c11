// Package scenarios holds the scenarios that ship with pbem, embedded in the
// binary so that an installed pbem (with no source tree beside it) can
// still create, check and run the default game.
//
// The files on disk under scenarios/ are the sources: go:embed copies them
// into the binary at build time, so editing scenarios/default/map.txt and
// rebuilding changes both. A referee's own copy (pbem init writes one into
// the game folder) is read from disk instead; the embedded one is used only
// when the configured folder is the default one and it does not exist.
package scenarios

import (
	"embed"
	"io/fs"
	"path/filepath"
)

//go:embed default/map.txt default/scenario.yaml
var files embed.FS

//go:embed trossian/map.txt trossian/scenario.yaml
var trossianFiles embed.FS

// TrossianDir is the Trossian campaign's default scenario folder as configs
// name it (pbem init --scenario trossian writes a copy of it).
const TrossianDir = "scenarios/trossian"

// Trossian returns the Trossian campaign's default scenario (seed 004):
// map.txt (package areamap's format) and scenario.yaml (package trossian's)
// at its root.
func Trossian() fs.FS {
	sub, err := fs.Sub(trossianFiles, "trossian")
	if err != nil {
		panic(err) // a valid path; fs.Sub fails only on invalid ones
	}
	return sub
}

// DefaultDir is the default scenario's folder as configs name it
// (game.scenario's default, relative to the config's folder).
const DefaultDir = "scenarios/default"

// Default returns the default scenario: map.txt and scenario.yaml at its
// root.
func Default() fs.FS {
	sub, err := fs.Sub(files, "default")
	if err != nil {
		panic(err) // "default" is a valid path; fs.Sub fails only on invalid ones
	}
	return sub
}

// IsDefault reports whether dir names the default scenario folder: its
// path ends in scenarios/default (relative to any folder).
func IsDefault(dir string) bool {
	dir = filepath.ToSlash(filepath.Clean(dir))
	return dir == DefaultDir || len(dir) > len(DefaultDir) && dir[len(dir)-len(DefaultDir)-1:] == "/"+DefaultDir
}

// IsTrossian reports whether dir names the Trossian scenario folder: its
// path ends in scenarios/trossian (relative to any folder).
func IsTrossian(dir string) bool {
	dir = filepath.ToSlash(filepath.Clean(dir))
	return dir == TrossianDir || len(dir) > len(TrossianDir) && dir[len(dir)-len(TrossianDir)-1:] == "/"+TrossianDir
}
