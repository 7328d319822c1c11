package mapdraw

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// svgLegend is the key under an SVG map: the report map page's overlays
// (nations, counters, marks) then the rules' map key (terrain, lines,
// cities, tax values), in columns across the image.
type svgLegend struct {
	s     *svgOut
	l     *Legend
	x, y  float64 // top left of the band
	w     float64
	fs    float64 // text size, px
	row   float64
	cols  int
	items []legendItem
	slots []int // each item's place: column × per + row
	per   int   // rows a column holds
}

// legendItem is a heading (symbol nil, heading true) or an entry.
type legendItem struct {
	heading bool
	text    string
	symbol  func(x, y float64) // centred at (x, y)
}

func newSVGLegend(s *svgOut, l *Legend, w, top float64) *svgLegend {
	fs := max(11, w/95)
	g := &svgLegend{s: s, l: l, x: 0, y: top, w: w, fs: fs, row: fs * 1.75, cols: max(1, int(w/(fs*22)))}
	g.items = g.entries()
	g.layout()
	return g
}

// layout puts the items in columns as evenly as they go, a heading never
// last in its column (it moves to the next, with its entries).
func (g *svgLegend) layout() {
	for g.per = max(1, (len(g.items)+g.cols-1)/g.cols); ; g.per++ {
		g.slots = g.slots[:0]
		at := 0
		for i, it := range g.items {
			if it.heading && at%g.per == g.per-1 && i+1 < len(g.items) {
				at++
			}
			g.slots = append(g.slots, at)
			at++
		}
		if at <= g.cols*g.per {
			return
		}
	}
}

// height is the band's height: a rule, the title, the columns.
func (g *svgLegend) height() float64 {
	return g.fs*3.2 + float64(g.per)*g.row + g.fs
}

// draw writes the band.
func (g *svgLegend) draw() {
	b := &g.s.b
	fmt.Fprintf(b, `<g id="legend" font-size="%s">`+"\n", f(g.fs))
	fmt.Fprintf(b, `<path d="M0 %sH%s" stroke="%s" stroke-width="1.5"/>`+"\n", f(g.y+0.75), f(g.w), colBorder.hex())
	title := "Key"
	if g.l.Title != "" {
		title = g.l.Title + " — key"
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" font-weight="bold" font-size="%s" fill="%s">%s</text>`+"\n",
		f(g.fs), f(g.y+g.fs*2.1), f(g.fs*1.2), colBorder.hex(), esc(title))
	colW := g.w / float64(g.cols)
	top := g.y + g.fs*3.2
	for i, it := range g.items {
		at := g.slots[i]
		cx := float64(at/g.per)*colW + g.fs
		cy := top + float64(at%g.per)*g.row + g.row/2
		if it.heading {
			fmt.Fprintf(b, `<text x="%s" y="%s" font-weight="bold" fill="#781418">%s</text>`+"\n", f(cx), f(cy+g.fs*0.35), esc(it.text))
			continue
		}
		if it.symbol != nil {
			it.symbol(cx+g.fs*1.6, cy)
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s">%s</text>`+"\n", f(cx+g.fs*3.6), f(cy+g.fs*0.35), colBorder.hex(), esc(it.text))
	}
	b.WriteString("</g>\n")
}

// entries lists the key: what the report's map page explains, then the
// rules' map key.
func (g *svgLegend) entries() []legendItem {
	s, d := g.s, g.s.d
	r := g.fs * 2 // the hex radius the key's symbols are drawn for
	var items []legendItem
	head := func(t string) { items = append(items, legendItem{heading: true, text: t}) }
	entry := func(t string, sym func(x, y float64)) { items = append(items, legendItem{text: t, symbol: sym}) }
	counter := func(label string, faded, fleet bool) func(x, y float64) {
		return func(x, y float64) {
			op, rx, dash := "", 0.0, ""
			w, h := 2.4*g.fs, 1.15*g.fs
			if faded {
				op, dash = ` opacity="0.45"`, ` stroke-dasharray="2 1.4"`
			}
			if fleet {
				rx = h / 2
			}
			fmt.Fprintf(&s.b, `<g%s><rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="#c8c8c8" stroke="%s"%s/>`+
				`<text x="%s" y="%s" font-size="%s" font-weight="bold" text-anchor="middle" fill="%s">%s</text></g>`+"\n",
				op, f(x-w/2), f(y-h/2), f(w), f(h), f(rx), colBorder.hex(), dash, f(x), f(y+0.3*g.fs), f(0.75*g.fs), colBorder.hex(), esc(label))
		}
	}
	swatch := func(c RGB) func(x, y float64) {
		return func(x, y float64) {
			fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/>`+"\n",
				f(x-g.fs*0.9), f(y-g.fs*0.55), f(g.fs*1.8), f(g.fs*1.1), c.hex(), colBorder.hex())
		}
	}
	line := func(c RGB, width float64, dash string) func(x, y float64) {
		return func(x, y float64) {
			fmt.Fprintf(&s.b, `<path d="M%s %sH%s" stroke="%s" stroke-width="%s"%s/>`+"\n", f(x-1.3*g.fs), f(y), f(x+1.3*g.fs), c.hex(), f(width), dash)
		}
	}

	if len(g.l.Nations) > 0 {
		head("Nations (counter, province tint)")
		for _, n := range g.l.Nations {
			entry(s.nationName(n), swatch(NationColour(d.m, d.o.NationColours, n)))
		}
	}
	head("Counters")
	if g.l.Referee {
		entry("a force: ID and size class", counter("ID L", false, false))
	} else {
		entry("your force: ID and size class", counter("ID L", false, false))
		entry("foreign force: size class only", counter("? L", false, false))
		entry("foreign force, named or scouted", counter("ID L", false, false))
		entry("last seen (faded), with the month", counter("ID L", true, false))
	}
	entry("fleet (rounded)", counter("ID S", false, true))
	entry("S small, L large, H huge", nil)
	head("Marks")
	entry("battle or encounter this month", func(x, y float64) { s.battle(x, y, 0.55*g.fs) })
	if !g.l.Referee {
		entry("supply line: force to its depot or city", line(RGB{90, 90, 90}, 2, ` stroke-dasharray="5 3"`))
	}
	entry("city besieged (solid) / masked (dashed ring)", func(x, y float64) {
		fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", f(x), f(y), f(0.6*g.fs), colCapitol.hex())
	})
	entry("flag: the nation holding the city", func(x, y float64) {
		s.cityBlock(x-2, y+2, 0.44*r, colCity)
		s.flag(x-2+0.22*r, y+2-0.22*r, r, RGB{120, 120, 120})
	})
	entry("disc: loyal to another than its holder", func(x, y float64) {
		s.cityBlock(x, y, 0.44*r, colCity)
		s.disc(x-0.22*r, y, 0.13*r, RGB{120, 120, 120})
	})
	head("Terrain")
	for _, t := range []game.Terrain{game.Clear, game.Rough, game.Woods, game.Mountain, game.Sea} {
		name := strings.ToLower(t.String())
		if t == game.Woods {
			name += " (moves as rough)"
		}
		entry(name, func(x, y float64) {
			ps := make([]pt, 6)
			for i := range ps {
				c := corner(game.Hex{Col: 1, Row: 1}, i).sub(center(game.Hex{Col: 1, Row: 1}))
				ps[i] = pt{x + c.X*0.75*g.fs, y + c.Y*0.75*g.fs}
			}
			fmt.Fprintf(&s.b, `<polygon points="%s" fill="%s" stroke="%s"/>`+"\n", points(ps), terrainColour(t).hex(), colGridLand.hex())
			if t != game.Clear && t != game.Sea {
				mark := terrainColour(t).darker(0.3)
				if t == game.Rough {
					fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s"/>`+"\n", terrainMarkPath(t, x, y+0.22*g.fs, 0.75*g.fs), mark.hex())
				} else {
					fmt.Fprintf(&s.b, `<path d="%s" fill="%s"/>`+"\n", terrainMarkPath(t, x, y+0.22*g.fs, 0.75*g.fs), mark.hex())
				}
			}
		})
	}
	entry("hex number: column, row (hover a hex)", func(x, y float64) {
		fmt.Fprintf(&s.b, `<text x="%s" y="%s" font-size="%s" text-anchor="middle" fill="%s">0812</text>`+"\n", f(x), f(y+0.3*g.fs), f(0.8*g.fs), colHexNum.hex())
	})
	head("Lines")
	entry("road (hex centre to hex centre)", line(colRoad, 2, ""))
	entry("river (along hexsides)", line(colRiver, 3, ""))
	entry("province border and coast", line(colBorder, 2.5, ""))
	entry("sea-area border", line(colSeaLine, 2, ` stroke-dasharray="6 2.5"`))
	head("Cities and seas")
	t := d.o.Taxes
	entry("city: name and tax value", func(x, y float64) { s.cityBlock(x, y, 0.44*r, colCity) })
	entry("capitol", func(x, y float64) { s.cityBlock(x, y, 0.58*r, colCapitol) })
	entry("port (every coastal city)", func(x, y float64) { s.anchor(x, y, 0.26*r) })
	entry("good holding: may land outside a port", func(x, y float64) {
		fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n", f(x), f(y), f(0.15*r), colBorder.hex())
	})
	entry("prevailing wind: with it 1 MP, against 3", func(x, y float64) {
		s.arrow(pt{x - 1.3*g.fs, y}, pt{x + 1.3*g.fs, y}, false, 0.9*g.fs)
	})
	entry("doldrums: 3 MP either way", func(x, y float64) {
		s.arrow(pt{x - 1.3*g.fs, y}, pt{x + 1.3*g.fs, y}, true, 0.9*g.fs)
	})
	entry(fmt.Sprintf("tax: inland city %d, on a river %d", t.Inland, t.InlandRiver), nil)
	entry(fmt.Sprintf("tax: port %d, port on a river %d", t.Port, t.PortRiver), nil)
	entry("province: name, letter · total tax", nil)
	return items
}
