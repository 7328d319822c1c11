package mapdraw

import (
	"fmt"
	"math"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// legendFlow lays legend entries top to bottom in columns across a panel.
// A first pass with measure set only counts the height, so that a crowded
// panel can tighten its rows before the second pass draws.
type legendFlow struct {
	d          *drawer
	area       Rect
	colW, x, y float64
	row        float64 // height of an entry, mm
	measure    bool
	used       float64 // total height of every entry and heading
	entries    int     // number of entries (not headings)
}

const (
	legendRow   = 6.0 // height of an entry, mm, when there is room
	legendSlot  = 12  // width of the symbol column, mm
	legendR     = 5.0 // hex radius the legend's symbols are drawn for, mm
	legendHex   = 3.0 // circumradius of the terrain swatches, mm
	legendText  = 7.5 // points
	legendTitle = 8.5 // points
	headingRow  = 7.8 // height of a heading, mm
)

func (l *legendFlow) room(h float64) {
	if l.measure {
		l.used += h
		return
	}
	if l.y+h > l.area.Y+l.area.H+0.01 && l.y > l.area.Y {
		l.x += l.colW
		l.y = l.area.Y
	}
}

func (l *legendFlow) heading(s string) {
	l.room(headingRow)
	if l.measure {
		return
	}
	if l.y > l.area.Y {
		l.y += headingRow - 6
	}
	pdf := l.d.pdf
	pdf.SetFont(fonts.Sans, "B", legendTitle)
	ink(pdf, colBorder)
	pdf.Text(l.x, l.y+3.6, s)
	stroke(pdf, RGB{150, 140, 120})
	pdf.SetLineWidth(0.15)
	pdf.Line(l.x, l.y+4.8, l.x+l.colW-4, l.y+4.8)
	l.y += 6
}

// entry draws a symbol centred in the slot and the text beside it.
func (l *legendFlow) entry(text string, symbol func(x, y float64)) {
	l.room(l.row)
	if l.measure {
		l.entries++
		return
	}
	pdf := l.d.pdf
	cy := l.y + l.row/2
	if symbol != nil {
		symbol(l.x+legendSlot/2, cy)
	}
	pdf.SetFont(fonts.Condensed, "", legendText)
	ink(pdf, colBorder)
	pdf.Text(l.x+legendSlot+1.5, cy+capHeight*legendText*mmPerPt/2, text)
	l.y += l.row
}

// legend draws the key to the map in the panel, in as many columns as fit
// across it; one column tightens its rows to fit the panel's height.
func (d *drawer) legend(panel Rect) {
	cols := max(1, int(panel.W/70))
	l := &legendFlow{d: d, area: panel, colW: panel.W / float64(cols), row: legendRow, measure: true}
	d.legendEntries(l)
	if cols == 1 && l.used > panel.H && l.entries > 0 {
		headings := l.used - float64(l.entries)*l.row
		l.row = math.Max(4.2, (panel.H-headings)/float64(l.entries))
	}
	l.measure, l.x, l.y = false, panel.X, panel.Y
	d.legendEntries(l)
}

// legendEntries lists the key's entries into l.
func (d *drawer) legendEntries(l *legendFlow) {
	pdf := d.pdf
	r, k := legendR, legendR/5.0
	hexSwatch := func(t game.Terrain) func(x, y float64) {
		return func(x, y float64) {
			pts := make([]fpdf.PointType, 6)
			for i := range pts {
				c := corner(game.Hex{Col: 1, Row: 1}, i).sub(center(game.Hex{Col: 1, Row: 1}))
				pts[i] = fpdf.PointType{X: x + c.X*legendHex, Y: y + c.Y*legendHex}
			}
			fill(pdf, terrainColour(t))
			stroke(pdf, colGridLand)
			pdf.SetLineWidth(0.1)
			pdf.Polygon(pts, "FD")
			mark := terrainColour(t).darker(0.3)
			fill(pdf, mark)
			stroke(pdf, mark)
			pdf.SetLineWidth(0.1)
			drawTerrainMark(pdf, t, x, y+0.3*legendHex, legendHex)
		}
	}
	line := func(c RGB, width float64, dash bool) func(x, y float64) {
		return func(x, y float64) {
			stroke(pdf, c)
			pdf.SetLineWidth(width)
			if dash {
				pdf.SetDashPattern([]float64{2.2 * k, 0.9 * k}, 0)
			}
			pdf.Line(x-4.5, y, x+4.5, y)
			pdf.SetDashPattern([]float64{}, 0)
		}
	}
	// The holder's flag and the loyalty disc are shown in the first two
	// nations' colours.
	flagNation, loyal := game.NationID("eisenmark"), game.NationID("morgronskia")
	if len(d.m.Nations) > 0 {
		flagNation = d.m.Nations[0].ID
	}
	if len(d.m.Nations) > 1 {
		loyal = d.m.Nations[1].ID
	}

	l.heading("Terrain")
	l.entry("Clear", hexSwatch(game.Clear))
	l.entry("Rough", hexSwatch(game.Rough))
	l.entry("Woods (moves as rough)", hexSwatch(game.Woods))
	l.entry("Mountain", hexSwatch(game.Mountain))
	l.entry("Sea", hexSwatch(game.Sea))
	l.entry("0812  hex number: column, row", func(x, y float64) {
		pdf.SetFont(fonts.Condensed, "", 5.5)
		ink(pdf, colHexNum)
		tw := pdf.GetStringWidth("0812")
		pdf.Text(x-tw/2, y+0.8, "0812")
	})

	l.heading("Lines")
	l.entry("Road (hex centre to hex centre)", line(colRoad, 0.42*k, false))
	l.entry("River (along hexsides)", line(colRiver, 0.6*k, false))
	l.entry("Province border and coast", line(colBorder, 0.62*k, false))
	l.entry("Sea-area border", line(colSeaLine, 0.5*k, true))

	l.heading("Cities and coasts")
	l.entry("City: name and tax value", func(x, y float64) { drawCityBlock(pdf, x, y, 0.44*r, colCity, k) })
	l.entry("Capitol", func(x, y float64) { drawCityBlock(pdf, x, y, 0.58*r, colCapitol, k) })
	l.entry("Flag of the holder (none if neutral)", func(x, y float64) {
		drawCityBlock(pdf, x-0.6, y+0.6, 0.44*r, colCity, k)
		drawFlag(pdf, x-0.6+0.22*r, y+0.6-0.22*r, r, NationColour(d.m, d.o.NationColours, flagNation), k)
	})
	l.entry("Disc: loyal to another than its holder", func(x, y float64) {
		drawCityBlock(pdf, x-0.6, y+0.6, 0.44*r, colCity, k)
		drawFlag(pdf, x-0.6+0.22*r, y+0.6-0.22*r, r, NationColour(d.m, d.o.NationColours, flagNation), k)
		drawLoyaltyDisc(pdf, x-0.6-0.22*r, y+0.6, 0.13*r, NationColour(d.m, d.o.NationColours, loyal), k)
	})
	siege := func(masked bool) func(x, y float64) {
		return func(x, y float64) {
			stroke(pdf, colCapitol)
			pdf.SetLineWidth(0.25)
			if masked {
				pdf.SetDashPattern([]float64{0.7 * k, 0.5 * k}, 0)
			}
			pdf.Circle(x, y, 0.22*r*1.55, "D")
			pdf.SetDashPattern([]float64{}, 0)
			drawCityBlock(pdf, x, y, 0.44*r, colCity, k)
		}
	}
	l.entry("Masked city", siege(true))
	l.entry("Besieged city", siege(false))
	l.entry("Port (every coastal city)", func(x, y float64) { drawAnchor(pdf, x, y, 0.3*r, k) })
	l.entry("Good holding: may land outside a port", func(x, y float64) {
		fill(pdf, colBorder)
		stroke(pdf, colPaper)
		pdf.SetLineWidth(0.08)
		pdf.Circle(x, y, 0.11*r, "FD")
	})

	l.heading("Sea areas")
	l.entry("S3  sea-area ID", func(x, y float64) {
		pdf.SetFont(fonts.Sans, "I", 8)
		ink(pdf, colSeaLine)
		tw := pdf.GetStringWidth("S3")
		pdf.Text(x-tw/2, y+1.4, "S3")
	})
	l.entry("Prevailing wind: with it 1 MP, against 3", func(x, y float64) {
		drawArrow(pdf, pt{x - 4.5, y}, pt{x + 4.5, y}, false, r, k)
	})
	l.entry("Doldrums: 3 MP either way", func(x, y float64) {
		drawArrow(pdf, pt{x - 4.5, y}, pt{x + 4.5, y}, true, r, k)
	})

	if len(d.m.Nations) > 0 {
		l.heading("Nations")
		for _, n := range d.m.Nations {
			text := n.Name
			if text == "" {
				text = string(n.ID)
			}
			if len(n.Provinces) > 0 {
				text += " (" + strings.Join(n.Provinces, ", ") + ")"
			}
			if n.Capitol != "" {
				text += " — capitol " + n.Capitol
			}
			c := NationColour(d.m, d.o.NationColours, n.ID)
			l.entry(text, func(x, y float64) {
				fill(pdf, c)
				stroke(pdf, colBorder)
				pdf.SetLineWidth(0.1)
				pdf.Rect(x-2.6, y-1.7, 5.2, 3.4, "FD")
			})
		}
	}

	t := d.o.Taxes
	l.heading("Tax values")
	l.entry(fmt.Sprintf("Inland city %d, on a river %d", t.Inland, t.InlandRiver), nil)
	l.entry(fmt.Sprintf("Port %d, port on a river %d", t.Port, t.PortRiver), nil)
	l.entry("Province label: name, letter · total tax", nil)
}
