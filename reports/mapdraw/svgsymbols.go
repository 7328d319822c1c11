package mapdraw

import (
	"fmt"
	"math"
	"strings"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/reports/fonts"
)

// The SVG map's symbols and labels: planned by the PDF drawer's own
// placement (labels.go, symbols.go) in the same order as Draw, so that
// the image's labels keep clear of the same symbols, then written as SVG.

// overlays plans and draws what stands on the map: good-holding dots,
// winds, cities, labels, counters, battles and supply lines.
func (s *svgOut) overlays(sv SVGOptions) {
	d := s.d
	type dot struct{ at pt }
	var dots []dot
	if d.o.shows(LayerGoodHolding) {
		for _, h := range d.m.GoodHolding {
			v, _ := d.seaward(h)
			c := d.p.page(center(h).add(v.scale(0.55)))
			d.symbol(HoldingDot, "", boxAround(c, 0.11*d.r, 0.11*d.r), boxAround(c, 0.15*d.r, 0.15*d.r))
			dots = append(dots, dot{c})
		}
	}
	var counters []placedMarker
	if d.o.shows(LayerMarkers) {
		counters = d.planLandMarkers()
	}
	var cities []cityPlan
	var battles []battleMark
	if d.o.shows(LayerCities) {
		cities, battles = d.planCities()
	} else {
		battles = d.planBattles()
	}
	var winds []windPlan
	if d.o.shows(LayerWinds) {
		winds = d.planWinds()
	}
	var provs []labelPlan
	if d.o.shows(LayerProvinces) {
		provs = d.planProvinceLabels()
	}
	var seas []labelPlan
	if d.o.shows(LayerSeaAreas) || d.o.shows(LayerMarkers) {
		seas = d.planSeaLabels()
	}
	for _, c := range dots {
		fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="#ffffff" stroke-width="%s"><title>good holding: a fleet may land here</title></circle>`+"\n",
			f(c.at.X), f(c.at.Y), f(0.11*d.r), colBorder.hex(), s.width(0.15, 0.5))
	}
	for _, w := range winds {
		s.arrow(w.from, w.to, w.double, d.r)
	}
	s.cities(cities)
	s.b.WriteString(`<g pointer-events="none">` + "\n")
	for _, pl := range cities {
		s.label(pl.label)
	}
	for _, l := range provs {
		s.label(l)
	}
	if d.o.shows(LayerSeaAreas) {
		for _, l := range seas {
			s.label(l)
		}
	}
	s.supply(sv)
	s.b.WriteString("</g>\n")
	if d.o.shows(LayerMarkers) {
		w, h, _ := markerSize(d.r)
		for _, p := range counters {
			s.counter(p.mk, p.at, w, h)
		}
		for _, p := range d.layoutMarkers(true) {
			s.counter(p.mk, p.at, w, h)
		}
	}
	for _, b := range battles {
		s.battle(b.at.X, b.at.Y, b.r)
	}
}

// svgFamily is the font-family of a face: the PDF's DejaVu faces first.
func svgFamily(family string) string {
	if family == fonts.Sans {
		return "DejaVu Sans, Verdana, sans-serif"
	}
	return "DejaVu Sans Condensed, Arial Narrow, sans-serif"
}

// text writes one run of text at its baseline, fitted to the width the
// PDF's fonts measure (textLength), with a paper halo of width halo.
func (s *svgOut) text(t textLine, halo float64) {
	size := t.size * mmPerPt
	wd := s.d.textWidth(t.family, t.style, t.size, t.text)
	attrs := ""
	if t.family == fonts.Sans {
		attrs += ` font-family="` + svgFamily(t.family) + `"`
	}
	switch t.style {
	case "B":
		attrs += ` font-weight="bold"`
	case "I":
		attrs += ` font-style="italic"`
	}
	if halo > 0 {
		attrs += fmt.Sprintf(` stroke="%s" stroke-width="%s" stroke-linejoin="round" paint-order="stroke"`, colHalo.hex(), f(halo))
	}
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" font-size="%s" fill="%s" textLength="%s" lengthAdjust="spacingAndGlyphs"%s>%s</text>`+"\n",
		f(t.x), f(t.y), f(size), t.colour.hex(), f(wd), attrs, esc(t.text))
}

// label writes a placed label: its gaps, then its runs with their halo.
func (s *svgOut) label(l labelPlan) {
	for _, g := range l.gaps {
		fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", f(g.x0), f(g.y0), f(g.x1-g.x0), f(g.y1-g.y0), colHalo.hex())
	}
	for _, t := range l.lines {
		s.text(t, l.halo)
	}
}

// cities draws each city's siege ring, block, flag, loyalty disc and
// anchor, with a tooltip saying who holds it.
func (s *svgOut) cities(plans []cityPlan) {
	d, r := s.d, s.d.r
	for _, pl := range plans {
		hs := pl.size / 2
		tip := pl.city.Name + " (" + pl.city.Hex.String() + ")"
		if pl.capitol {
			tip += ", capitol"
		}
		if pl.marks.Controller != game.Neutral {
			tip += ", held by " + s.nationName(pl.marks.Controller)
		} else {
			tip += ", held by no nation"
		}
		if pl.marks.Controller != pl.marks.Loyalty {
			if pl.marks.Loyalty == game.Neutral {
				tip += ", loyal to none"
			} else {
				tip += ", loyal to " + s.nationName(pl.marks.Loyalty)
			}
		}
		switch pl.marks.Siege {
		case game.Masked:
			tip += ", masked"
		case game.Besieged:
			tip += ", besieged"
		}
		fmt.Fprintf(&s.b, "<g><title>%s</title>\n", esc(tip))
		if pl.marks.Siege != game.NotBesieged {
			dash := ""
			if pl.marks.Siege == game.Masked {
				dash = fmt.Sprintf(` stroke-dasharray="%s %s"`, f(0.7*d.k), f(0.5*d.k))
			}
			fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`+"\n",
				f(pl.at.X), f(pl.at.Y), f(hs*1.55), colCapitol.hex(), s.width(0.45, 1), dash)
		}
		colour := colCity
		if pl.capitol {
			colour = colCapitol
		}
		s.cityBlock(pl.at.X, pl.at.Y, pl.size, colour)
		if pl.marks.Controller != game.Neutral {
			s.flag(pl.at.X+hs, pl.at.Y-hs, r, NationColour(d.m, d.o.NationColours, pl.marks.Controller))
		}
		if pl.marks.Controller != pl.marks.Loyalty {
			s.disc(pl.at.X-hs, pl.at.Y, 0.13*r, NationColour(d.m, d.o.NationColours, pl.marks.Loyalty))
		}
		if pl.city.Port {
			s.anchor(pl.anchor.X, pl.anchor.Y, 0.2*r)
		}
		s.b.WriteString("</g>\n")
	}
}

func (s *svgOut) nationName(id game.NationID) string {
	if n, ok := s.d.m.Nation(id); ok && n.Name != "" {
		return n.Name
	}
	return string(id)
}

// cityBlock is drawCityBlock: four blocks of houses on white, side sz.
func (s *svgOut) cityBlock(x, y, sz float64, c RGB) {
	gap := sz * 0.12
	b := (sz - 3*gap) / 2
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#ffffff" stroke="%s" stroke-width="%s"/>`,
		f(x-sz/2), f(y-sz/2), f(sz), f(sz), c.hex(), s.width(0.14, 0.5))
	var p strings.Builder
	for _, o := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		fmt.Fprintf(&p, "M%s %sh%sv%sh%sZ", f(x-sz/2+gap+o[0]*(b+gap)), f(y-sz/2+gap+o[1]*(b+gap)), f(b), f(b), f(-b))
	}
	fmt.Fprintf(&s.b, `<path d="%s" fill="%s"/>`+"\n", p.String(), c.hex())
}

// flag is drawFlag: a flag in colour c on a staff rising from (x, y).
func (s *svgOut) flag(x, y, r float64, c RGB) {
	top := y - 0.5*r
	fmt.Fprintf(&s.b, `<path d="M%s %sV%s" stroke="%s" stroke-width="%s"/><rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" stroke-width="%s"/>`+"\n",
		f(x), f(y), f(top), colBorder.hex(), s.width(0.14, 0.5), f(x), f(top), f(0.36*r), f(0.24*r), c.hex(), colBorder.hex(), s.width(0.1, 0.4))
}

// disc is drawLoyaltyDisc.
func (s *svgOut) disc(x, y, a float64, c RGB) {
	fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="%s"/>`+"\n",
		f(x), f(y), f(a), c.hex(), colBorder.hex(), s.width(0.12, 0.4))
}

// anchor is drawAnchor: a port's anchor on a white disc of radius a.
func (s *svgOut) anchor(x, y, a float64) {
	fx := 0.55 * a * math.Cos(20*math.Pi/180)
	fy := y + 0.12*a + 0.55*a*math.Sin(20*math.Pi/180)
	fmt.Fprintf(&s.b, `<g stroke="%s" fill="none" stroke-width="%s"><circle cx="%s" cy="%s" r="%s" fill="#ffffff" stroke-width="%s"/>`+
		`<circle cx="%s" cy="%s" r="%s"/><path d="M%s %sV%sM%s %sH%sM%s %sA%s %s 0 0 0 %s %sM%s %sl%s %sM%s %sl%s %s"/></g>`+"\n",
		colAnchor.hex(), s.width(0.13, 0.5), f(x), f(y), f(a), s.width(0.1, 0.4),
		f(x), f(y-0.6*a), f(0.14*a),
		f(x), f(y-0.46*a), f(y+0.7*a), f(x-0.32*a), f(y-0.3*a), f(x+0.32*a),
		f(x-fx), f(fy), f(0.55*a), f(0.55*a), f(x+fx), f(fy),
		f(x-fx), f(fy), f(0.02*a), f(-0.22*a), f(x+fx), f(fy), f(-0.02*a), f(-0.22*a))
}

// arrow is drawArrow: a wind from → to, headed at to (and from, double).
func (s *svgOut) arrow(from, to pt, double bool, r float64) {
	v := to.sub(from).unit()
	n := pt{-v.Y, v.X}
	head, halfW := 0.5*r, 0.26*r
	a, b := from, to.sub(v.scale(head*0.8))
	if double {
		a = from.add(v.scale(head * 0.8))
	}
	tri := func(tip, dir pt) string {
		base := tip.sub(dir.scale(head))
		return points([]pt{tip, base.add(n.scale(halfW)), base.sub(n.scale(halfW))})
	}
	heads := fmt.Sprintf(`<polygon points="%s"/>`, tri(to, v))
	if double {
		heads += fmt.Sprintf(`<polygon points="%s"/>`, tri(from, v.scale(-1)))
	}
	tip := "prevailing wind: with it 1 MP, against it 3"
	if double {
		tip = "doldrums: 3 MP either way"
	}
	fmt.Fprintf(&s.b, `<g><title>%s</title><path d="M%s %sL%s %s" stroke="#ffffff" stroke-width="%s"/><path d="M%s %sL%s %s" stroke="%s" stroke-width="%s"/><g fill="%s">%s</g></g>`+"\n",
		tip, f(a.X), f(a.Y), f(b.X), f(b.Y), s.width(1.3, 2), f(a.X), f(a.Y), f(b.X), f(b.Y), colWind.hex(), s.width(0.6, 1), colWind.hex(), heads)
}

// counter draws one counter centred at c, as drawMarker does, with a
// tooltip saying whose and where.
func (s *svgOut) counter(mk Marker, c pt, w, h float64) {
	d := s.d
	col := NationColour(d.m, d.o.NationColours, mk.Nation)
	text := mk.Label
	if mk.Size != "" {
		text += " " + mk.Size
	}
	tip := text + ": " + s.nationName(mk.Nation)
	if mk.Fleet {
		tip += " fleet"
	}
	if mk.Faded {
		tip += ", last seen"
	}
	tip += " at " + mk.At.String()
	group := ""
	if mk.Faded {
		group = ` opacity="0.45"`
	}
	rx, dash := 0.0, ""
	if mk.Fleet {
		rx = h / 2
	}
	if mk.Faded {
		dash = ` stroke-dasharray="2 1.4"`
	}
	fmt.Fprintf(&s.b, `<g%s><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="%s" stroke-width="%s"%s/>`,
		group, esc(tip), f(c.X-w/2), f(c.Y-h/2), f(w), f(h), f(rx), col.hex(), colBorder.hex(), s.width(0.14, 0.5), dash)
	size := 0.26 * d.r / mmPerPt
	tw := d.textWidth(fonts.Condensed, "B", size, text)
	if tw > w*0.92 {
		size *= w * 0.92 / tw
		tw = d.textWidth(fonts.Condensed, "B", size, text)
	}
	ink := colPaper
	if col.light() {
		ink = colBorder
	}
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s" textLength="%s" lengthAdjust="spacingAndGlyphs">%s</text></g>`+"\n",
		f(c.X-tw/2), f(c.Y+capHeight*size*mmPerPt/2), f(size*mmPerPt), ink.hex(), f(tw), esc(text))
}

// battle is DrawBattleMark: a red ring round a cross.
func (s *svgOut) battle(x, y, r float64) {
	k := r * 0.6
	fmt.Fprintf(&s.b, `<g opacity="0.85" stroke="#be1414" stroke-width="%s"><title>battle or encounter this month</title><circle cx="%s" cy="%s" r="%s" fill="#ffffff"/>`+
		`<path d="M%s %sL%s %sM%s %sL%s %s"/></g>`+"\n",
		f(math.Max(1, r*0.18)), f(x), f(y), f(r), f(x-k), f(y-k), f(x+k), f(y+k), f(x-k), f(y+k), f(x+k), f(y-k))
}

// supply draws a nation's supply lines, dashed in its colour.
func (s *svgOut) supply(sv SVGOptions) {
	if len(sv.Supply) == 0 {
		return
	}
	d := s.d
	var b strings.Builder
	for _, l := range sv.Supply {
		if !d.m.InBounds(l[0]) || !d.m.InBounds(l[1]) {
			continue
		}
		x0, y0 := d.p.Center(l[0])
		x1, y1 := d.p.Center(l[1])
		fmt.Fprintf(&b, "M%s %sL%s %s", f(x0), f(y0), f(x1), f(y1))
	}
	w := math.Max(1, 0.07*d.r)
	fmt.Fprintf(&s.b, `<path d="%s" fill="none" stroke="%s" stroke-opacity="0.8" stroke-width="%s" stroke-dasharray="%s %s"/>`+"\n",
		b.String(), sv.SupplyColour.hex(), f(w), f(4*w), f(2.7*w))
}
