package mapdraw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/game"
)

// Where a whole map's hexes come out smaller than rasterBelow mm (circum-
// radius) — a continent page of a big game, 200 × 200 hexes on one page —
// their fills (terrain, and the tint over it) are drawn as one picture at
// rasterDPMM dots per mm rather than a polygon per hex: tens of thousands of
// polygons of a few tenths of a millimetre are megabytes of PDF that read
// no better than the picture. Borders, rivers, roads, cities, labels and
// markers stay vector drawings on top. Smaller maps (the default game's) are
// drawn as before.
const (
	rasterBelow = 1.0
	rasterDPMM  = 6.0
)

// rasterFill draws the terrain and tint fills of the whole map as one
// image, which is built once per process for each different colouring
// (rasterCache): every report of a turn, and its map pages, share it.
func (d *drawer) rasterFill() {
	b := d.p.Bounds()
	wpx, hpx := int(math.Ceil(b.W*rasterDPMM)), int(math.Ceil(b.H*rasterDPMM))
	colours := d.hexColours()
	key := rasterKey(d, wpx, hpx, colours)
	img := rasterCache.get(key, func() []byte { return d.rasterPNG(wpx, hpx, colours) })
	name := fmt.Sprintf("mapfill-%x", key.sum)
	if d.pdf.GetImageInfo(name) == nil {
		d.pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(img))
	}
	d.pdf.ImageOptions(name, b.X, b.Y, b.W, b.H, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
}

// hexColours returns each hex's fill (row-major like hexmap.Map.Terrain):
// its terrain colour, multiplied by its tint as tint() blends it; alpha 0
// for a hex with no terrain.
func (d *drawer) hexColours() []color.NRGBA {
	out := make([]color.NRGBA, d.m.Cols*d.m.Rows)
	const a = 0.28 // tint's alpha, Multiply
	d.hexes(func(h game.Hex, t game.Terrain) {
		if t == 0 {
			return
		}
		c := terrainColour(t)
		if t == game.Sea && d.coastalSea(h) {
			c = colSeaCoast
		}
		if d.o.Tint != nil && t.IsLand() {
			if tc, ok := d.o.Tint(h); ok {
				mul := func(base, tint int) int {
					return int(math.Round(float64(base) * (1 - a + a*float64(tint)/255)))
				}
				c = RGB{mul(c.R, tc.R), mul(c.G, tc.G), mul(c.B, tc.B)}
			}
		}
		out[(h.Row-1)*d.m.Cols+h.Col-1] = color.NRGBA{uint8(c.R), uint8(c.G), uint8(c.B), 255}
	})
	return out
}

// rasterPNG paints each dot with the fill of the hex under its centre.
func (d *drawer) rasterPNG(wpx, hpx int, colours []color.NRGBA) []byte {
	// A palette of the colours used (a few dozen at most: terrains times
	// tints), index 0 transparent for what lies off the map.
	palette := color.Palette{color.NRGBA{}}
	index := map[color.NRGBA]uint8{{}: 0}
	for _, c := range colours {
		if _, ok := index[c]; !ok && len(palette) < 256 {
			index[c] = uint8(len(palette))
			palette = append(palette, c)
		}
	}
	img := image.NewPaletted(image.Rect(0, 0, wpx, hpx), palette)
	b := d.p.Bounds()
	step := 1 / (rasterDPMM * d.r) // hex units per dot
	x0, y0 := (b.X-d.p.x0)/d.r, (b.Y-d.p.y0)/d.r
	for y := range hpx {
		for x := range wpx {
			h := hexAt(pt{x0 + (float64(x)+0.5)*step, y0 + (float64(y)+0.5)*step})
			if !d.m.InBounds(h) {
				continue
			}
			img.Pix[y*img.Stride+x] = index[colours[(h.Row-1)*d.m.Cols+h.Col-1]]
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		panic(err) // encoding to memory fails only on a bad image, which this is not
	}
	return buf.Bytes()
}

// rasterID identifies a map fill picture: the map's size, the picture's and
// the hex colours.
type rasterID struct {
	cols, rows, wpx, hpx int
	sum                  uint64
}

func rasterKey(d *drawer, wpx, hpx int, colours []color.NRGBA) rasterID {
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], math.Float64bits(d.r))
	h.Write(buf[:])
	for _, c := range colours {
		h.Write([]byte{c.R, c.G, c.B, c.A})
	}
	return rasterID{cols: d.m.Cols, rows: d.m.Rows, wpx: wpx, hpx: hpx, sum: h.Sum64()}
}

// rasterCache keeps the last few pictures built: the six reports of a
// turn, and a game's turns, draw the same continent again and again.
var rasterCache = &pictureCache{max: 4}

type pictureCache struct {
	mu    sync.Mutex
	max   int
	order []rasterID
	pics  map[rasterID][]byte
}

func (c *pictureCache) get(k rasterID, build func() []byte) []byte {
	c.mu.Lock()
	if p, ok := c.pics[k]; ok {
		c.mu.Unlock()
		return p
	}
	c.mu.Unlock()
	p := build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pics == nil {
		c.pics = map[rasterID][]byte{}
	}
	if _, ok := c.pics[k]; !ok {
		c.pics[k] = p
		c.order = append(c.order, k)
		if len(c.order) > c.max {
			delete(c.pics, c.order[0])
			c.order = c.order[1:]
		}
	}
	return p
}
