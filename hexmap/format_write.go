package hexmap

// The writer of the map text format: Format and its helpers. The reader is
// in format.go.

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// Format writes m in the text format, in canonical order: grids first, then
// nations, provinces, cities, sea areas, winds, rivers, roads and good-holding
// hexes, each sorted. Parse(Format(m)) gives back the same map, except for
// Lines and the comments of a hand-written file.
func Format(w io.Writer, m *Map) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# %s: written by pbem (hexmap.Format); see docs/map-format.md\n", m.Name)
	fmt.Fprintf(b, "map %s %dx%d\n", quote(m.Name), m.Cols, m.Rows)
	label := 2
	if m.Rows > 99 {
		label = 3
	}
	writeRuler := func() {
		pad := strings.Repeat(" ", label+1)
		var tens, units strings.Builder
		for c := 1; c <= m.Cols; c++ {
			tens.WriteByte(byte('0' + c/10%10))
			units.WriteByte(byte('0' + c%10))
		}
		fmt.Fprintf(b, "#%s%s\n#%s%s\n", pad[1:], tens.String(), pad[1:], units.String())
	}
	fmt.Fprintf(b, "\nterrain\n")
	writeRuler()
	for r := 1; r <= m.Rows; r++ {
		row := make([]byte, m.Cols)
		for c := 1; c <= m.Cols; c++ {
			row[c-1] = TerrainChar(m.TerrainAt(game.Hex{Col: c, Row: r}))
		}
		fmt.Fprintf(b, "%0*d %s\n", label, r, row)
	}

	// The provinces grid holds one province per hex; any further province a
	// hex is given to (a mistake Validate reports) goes to a hexes= list.
	gridOf := map[game.Hex]string{}
	extra := map[string][]game.Hex{}
	for _, pr := range m.Provinces {
		for _, h := range pr.Hexes {
			if _, taken := gridOf[h]; taken || len(pr.Letter) != 1 || !m.InBounds(h) {
				extra[pr.Letter] = append(extra[pr.Letter], h)
				continue
			}
			gridOf[h] = pr.Letter
		}
	}
	if len(gridOf) > 0 {
		fmt.Fprintf(b, "\nprovinces\n")
		writeRuler()
		for r := 1; r <= m.Rows; r++ {
			row := make([]byte, m.Cols)
			for c := 1; c <= m.Cols; c++ {
				h := game.Hex{Col: c, Row: r}
				switch l, ok := gridOf[h]; {
				case ok:
					row[c-1] = l[0]
				case m.TerrainAt(h) == game.Sea:
					row[c-1] = '~'
				default:
					row[c-1] = '.'
				}
			}
			fmt.Fprintf(b, "%0*d %s\n", label, r, row)
		}
	}

	if len(m.Nations) > 0 {
		b.WriteString("\n")
	}
	for _, n := range m.Nations {
		fmt.Fprintf(b, "nation %s name=%s letter=%s capitol=%s provinces=%s", n.ID, quote(n.Name), n.Letter,
			quote(n.Capitol), strings.Join(n.Provinces, ","))
		var traits []string
		for _, k := range traitKeywords {
			if *k.of(&n.Traits) {
				traits = append(traits, k.word)
			}
		}
		if len(traits) > 0 {
			fmt.Fprintf(b, " traits=%s", strings.Join(traits, ","))
		}
		if t, ok := m.HomeTax[n.ID]; ok {
			fmt.Fprintf(b, " tax=%d", t)
		}
		b.WriteString("\n")
	}
	if len(m.Provinces) > 0 {
		b.WriteString("\n")
	}
	for _, pr := range m.Provinces {
		owner := string(pr.Owner)
		if pr.Owner == game.Neutral {
			owner = "neutral"
		}
		fmt.Fprintf(b, "province %s %s owner=%s\n", pr.Letter, quote(pr.Name), owner)
		writeHexList(b, extra[pr.Letter])
	}
	if len(m.Cities) > 0 {
		b.WriteString("\n")
	}
	for _, c := range m.Cities {
		fmt.Fprintf(b, "city %s %s", quote(c.Name), c.Hex)
		if c.Port {
			b.WriteString(" port")
		}
		if c.River {
			b.WriteString(" river")
		}
		b.WriteString("\n")
	}
	if len(m.Seas) > 0 {
		b.WriteString("\n")
	}
	for _, s := range m.Seas {
		fmt.Fprintf(b, "sea %s %s\n", s.ID, quote(string(s.Name)))
		writeHexList(b, s.Hexes)
	}
	if len(m.Winds) > 0 {
		b.WriteString("\n")
	}
	for _, wd := range m.Winds {
		arrow := ">"
		if wd.Kind == BothWays {
			arrow = "<>"
		}
		fmt.Fprintf(b, "wind %s %s %s\n", wd.From, arrow, wd.To)
	}
	if len(m.Rivers) > 0 {
		b.WriteString("\n")
	}
	for i := 0; i < len(m.Rivers); i += 8 {
		b.WriteString("river")
		for _, e := range m.Rivers[i:min(i+8, len(m.Rivers))] {
			fmt.Fprintf(b, " %s/%s", e.A, e.B)
		}
		b.WriteString("\n")
	}
	if len(m.Roads) > 0 {
		b.WriteString("\n")
	}
	for _, path := range edgePaths(m.Roads) {
		b.WriteString("road")
		for i, h := range path {
			if i > 0 && i%16 == 0 {
				b.WriteString("\n    ")
			}
			fmt.Fprintf(b, " %s", h)
		}
		b.WriteString("\n")
	}
	if len(m.GoodHolding) > 0 {
		b.WriteString("\ngoodholding")
		for i, item := range hexRanges(m.GoodHolding) {
			if i > 0 && i%12 == 0 {
				b.WriteString("\n   ")
			}
			fmt.Fprintf(b, " %s", item)
		}
		b.WriteString("\n")
	}
	return b.Flush()
}

func quote(s string) string { return `"` + s + `"` }

// writeHexList writes an indented hexes= continuation of the directive above.
func writeHexList(b *bufio.Writer, hexes []game.Hex) {
	items := hexRanges(hexes)
	for i := 0; i < len(items); i += 10 {
		if i == 0 {
			b.WriteString("    hexes=")
		} else {
			b.WriteString("          ")
		}
		b.WriteString(strings.Join(items[i:min(i+10, len(items))], " "))
		b.WriteString("\n")
	}
}

// hexRanges writes hexes as runs down a column ("0810-0814"), sorted.
func hexRanges(hexes []game.Hex) []string {
	hs := slices.Clone(hexes)
	slices.SortFunc(hs, game.Hex.Compare)
	hs = slices.Compact(hs)
	var out []string
	for i := 0; i < len(hs); {
		j := i
		for j+1 < len(hs) && hs[j+1].Col == hs[i].Col && hs[j+1].Row == hs[j].Row+1 {
			j++
		}
		if j == i {
			out = append(out, hs[i].String())
		} else {
			out = append(out, hs[i].String()+"-"+hs[j].String())
		}
		i = j + 1
	}
	return out
}

// edgePaths splits a set of road edges into paths that use each edge once:
// each path starts at the first hex (in hex order) with an odd number of
// unused edges, or failing that any unused edge, and always takes the least
// unused neighbour. The result is deterministic.
func edgePaths(edges []Edge) [][]game.Hex {
	adj := map[game.Hex][]game.Hex{}
	used := map[Edge]bool{}
	for _, e := range edges {
		if _, dup := used[e]; dup {
			continue
		}
		used[e] = false
		adj[e.A] = append(adj[e.A], e.B)
		if e.B != e.A {
			adj[e.B] = append(adj[e.B], e.A)
		}
	}
	hexes := make([]game.Hex, 0, len(adj))
	for h, ns := range adj {
		slices.SortFunc(ns, game.Hex.Compare)
		hexes = append(hexes, h)
	}
	slices.SortFunc(hexes, game.Hex.Compare)
	free := func(h game.Hex) int {
		n := 0
		for _, o := range adj[h] {
			if !used[EdgeOf(h, o)] {
				n++
			}
		}
		return n
	}
	var paths [][]game.Hex
	for {
		start, found := game.Hex{}, false
		for _, h := range hexes {
			if f := free(h); f%2 == 1 {
				start, found = h, true
				break
			}
		}
		if !found {
			for _, h := range hexes {
				if free(h) > 0 {
					start, found = h, true
					break
				}
			}
		}
		if !found {
			return paths
		}
		path := []game.Hex{start}
		cur := start
		for {
			next, ok := game.Hex{}, false
			for _, o := range adj[cur] {
				if !used[EdgeOf(cur, o)] {
					next, ok = o, true
					break
				}
			}
			if !ok {
				break
			}
			used[EdgeOf(cur, next)] = true
			path = append(path, next)
			cur = next
		}
		paths = append(paths, path)
	}
}
