package mapdraw

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// SVG draws the map as an SVG image for a page on screen (the referee's
// console): the terrain, the provinces tinted (Options.Tint), the
// washed-out hexes (Options.Dim), the cities in their holder's colour with
// their names, the counters (Options.Markers) and the battles
// (Options.Battles), with the same projection, palette and counters as the
// PDF map. It leaves out what a screen at this size does not need — hex
// numbers, terrain marks, rivers, roads, winds, the legend; the PDF report
// has them. width is the image's width in pixels; the height follows the
// map. The same options give the same bytes.
func SVG(w io.Writer, m *hexmap.Map, opts *Options, width int) error {
	if m == nil || m.Cols == 0 || m.Rows == 0 {
		return errors.New("mapdraw: the map is empty")
	}
	o := opts.withDefaults()
	mw, mh := mapSize(m)
	W := float64(max(width, 200))
	H := math.Ceil(W * mh / mw)
	p := newProjection(m, Rect{X: 0, Y: 0, W: W, H: H})
	r := p.Radius()
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif">`+"\n", W, H, W, H)
	if o.Title != "" {
		fmt.Fprintf(b, "<title>%s</title>\n", esc(o.Title))
	}
	poly := func(h game.Hex) string {
		var s strings.Builder
		for i, c := range p.Corners(h) {
			if i > 0 {
				s.WriteByte(' ')
			}
			fmt.Fprintf(&s, "%.1f,%.1f", c.X, c.Y)
		}
		return s.String()
	}
	// Terrain, then the tint and the wash, hex by hex in canonical order.
	b.WriteString(`<g stroke-width="0.4">` + "\n")
	for c := 1; c <= m.Cols; c++ {
		for rr := 1; rr <= m.Rows; rr++ {
			h := game.Hex{Col: c, Row: rr}
			t := m.TerrainAt(h)
			fill := terrainColour(t)
			grid := colGridLand
			if t == game.Sea {
				grid = colGridSea
			}
			fmt.Fprintf(b, `<polygon points="%s" fill="%s" stroke="%s"/>`+"\n", poly(h), fill.hex(), grid.hex())
			if o.Tint != nil && t != game.Sea {
				if tc, ok := o.Tint(h); ok {
					fmt.Fprintf(b, `<polygon points="%s" fill="%s" fill-opacity="0.3" stroke="none"/>`+"\n", poly(h), tc.hex())
				}
			}
			if o.Dim != nil && o.Dim(h) {
				fmt.Fprintf(b, `<polygon points="%s" fill="#ffffff" fill-opacity="0.55" stroke="none"/>`+"\n", poly(h))
			}
		}
	}
	b.WriteString("</g>\n")
	// Cities: a block in the holder's colour (black for none), a red one
	// for a capitol's outline; the name beside it.
	if o.Hide&LayerCities == 0 {
		b.WriteString(`<g font-size="` + fmt.Sprintf("%.1f", math.Max(7, 0.55*r)) + `">` + "\n")
		for _, c := range m.Cities {
			x, y := p.Center(c.Hex)
			fill := colCity
			if mk, ok := o.Cities[c.Name]; ok && mk.Controller != "" && mk.Controller != game.Neutral {
				fill = NationColour(m, o.NationColours, mk.Controller)
			}
			stroke := colBorder
			if c.Capitol != "" && c.Capitol != game.Neutral {
				stroke = colCapitol
			}
			s := math.Max(3, 0.45*r)
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="%s" stroke-width="1"><title>%s</title></rect>`+"\n",
				x-s/2, y-s/2, s, s, fill.hex(), stroke.hex(), esc(c.Name))
			if r >= 6 {
				fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="#222" stroke="%s" stroke-width="2" paint-order="stroke">%s</text>`+"\n",
					x+s/2+1, y-s/2, colHalo.hex(), esc(c.Name))
			}
		}
		b.WriteString("</g>\n")
	}
	// Counters: side by side in their hex or sea area, in the order given.
	if o.Hide&LayerMarkers == 0 {
		byPlace := map[game.Place][]Marker{}
		var order []game.Place
		for _, mk := range o.Markers {
			if _, ok := byPlace[mk.At]; !ok {
				order = append(order, mk.At)
			}
			byPlace[mk.At] = append(byPlace[mk.At], mk)
		}
		fs := math.Max(7, 0.5*r)
		fmt.Fprintf(b, `<g font-size="%.1f" font-weight="bold" text-anchor="middle">`+"\n", fs)
		for _, at := range order {
			x, y, ok := svgPlace(m, p, at)
			if !ok {
				continue
			}
			ms := byPlace[at]
			cw, ch := fs*3.2, fs*1.4
			x0 := x - float64(len(ms))*cw/2
			for i, mk := range ms {
				col := NationColour(m, o.NationColours, mk.Nation)
				ink := "#fff"
				if col.light() {
					ink = "#000"
				}
				label := strings.TrimSpace(mk.Label + " " + mk.Size)
				rx, op, dash := 1.0, 1.0, ""
				if mk.Fleet {
					rx = ch / 2
				}
				if mk.Faded {
					op, dash = 0.45, ` stroke-dasharray="2,1.5"`
				}
				fmt.Fprintf(b, `<g opacity="%.2f"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="%.1f" fill="%s" stroke="#111" stroke-width="0.8"%s/>`+
					`<text x="%.1f" y="%.1f" fill="%s">%s</text><title>%s</title></g>`+"\n",
					op, x0+float64(i)*cw+0.5, y+0.25*r, cw-1, ch, rx, col.hex(), dash,
					x0+float64(i)*cw+cw/2, y+0.25*r+ch*0.75, ink, esc(label), esc(label))
			}
		}
		b.WriteString("</g>\n")
	}
	// Battles: a red ringed cross.
	for _, h := range o.Battles {
		if !m.InBounds(h) {
			continue
		}
		x, y := p.Center(h)
		d := math.Max(3, 0.35*r)
		fmt.Fprintf(b, `<g stroke="#c8141a" stroke-width="2" fill="none"><circle cx="%.1f" cy="%.1f" r="%.1f"/>`+
			`<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f"/><title>battle at %s</title></g>`+"\n",
			x, y-0.45*r, d, x-d*0.7, y-0.45*r-d*0.7, x+d*0.7, y-0.45*r+d*0.7, x-d*0.7, y-0.45*r+d*0.7, x+d*0.7, y-0.45*r-d*0.7, h)
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

// svgPlace is where a counter stands: its hex's centre, or the middle of
// its sea area's hexes.
func svgPlace(m *hexmap.Map, p *Projection, at game.Place) (x, y float64, ok bool) {
	if !at.IsSea() {
		if !m.InBounds(at.Hex) {
			return 0, 0, false
		}
		x, y = p.Center(at.Hex)
		return x, y, true
	}
	i, found := slices.BinarySearchFunc(m.Seas, at.Sea, func(s hexmap.SeaArea, id game.SeaID) int { return strings.Compare(string(s.ID), string(id)) })
	if !found || len(m.Seas[i].Hexes) == 0 {
		return 0, 0, false
	}
	for _, h := range m.Seas[i].Hexes {
		hx, hy := p.Center(h)
		x, y = x+hx, y+hy
	}
	n := float64(len(m.Seas[i].Hexes))
	return x / n, y / n, true
}

// hex is the colour as #rrggbb.
func (c RGB) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R&255, c.G&255, c.B&255) }

// esc escapes text for SVG (XML).
func esc(s string) string { return html.EscapeString(s) }
