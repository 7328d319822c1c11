// Package areamap is the map of an area-movement campaign — the Trossian
// campaign (seed 004) — as a value: provinces (plain, town, port) held by
// kingdoms, the land borders between them and the roads along some
// borders, and the sea lanes ("ocean provinces") linked to each other and
// touching the coasts of coastal provinces. It is the vocabulary the
// Trossian engine (package trossian) moves armies, navies and couriers on,
// as package hexmap is the SYW engine's.
//
// # The text format
//
// A map is a plain text file a referee edits (docs/areamap-format.md): one
// directive a line, '#' comments, an indented line continuing the one
// above:
//
//	map "Trossia, 1801"
//	kingdom norvale name=Norvale letter=N capital=Norhaven
//	lane N1 "Boreal Reach" frozen at=20,2
//	province Norhaven port kingdom=norvale coast=N1 at=20,10
//	border Norhaven Fjordby Elkmoor Rimeport    Norhaven borders each of the rest
//	link N1 N2 W1                               N1 is linked to N2 and W1
//	road Norhaven Elkmoor Tarnwick              a road along each border of the path
//
// Parse reads a file in one pass and collects every syntax error with its
// line; names are resolved afterwards. Validate checks what a reader cannot
// (capitals, ports with coasts, roads along borders, a map that hangs
// together, the four frozen lanes) and returns every problem with its line.
// Format writes a map back canonically; Parse(Format(m)) is m
// (FuzzParse checks it over arbitrary input).
//
// # Queries
//
// Build sorts everything and indexes it: Neighbors, Road, LaneNeighbors,
// Coast, CoastsOn and LandDistances answer from sorted slices, so that
// every search over the map visits places in the same order on every run —
// the engine's determinism rests on it.
package areamap
