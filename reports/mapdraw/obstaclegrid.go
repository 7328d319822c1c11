package mapdraw

import (
	"math"
	"slices"
)

// obstacleGrid files the drawer's obstacles by the cells of a grid over
// the page, so that cover, asked for every candidate place of every label,
// looks only at the obstacles near a box rather than at all of them (a big
// map has thousands). It is a filter: cover still measures each obstacle
// it finds, in the order they were added, so its sums are the same to the
// last bit as a walk over every obstacle.
type obstacleGrid struct {
	cell       float64 // mm
	cols, rows int
	cells      [][]int32 // obstacle indices, ascending
	indexed    int       // d.obstacles[:indexed] are filed
	mark       []uint32  // per obstacle: the query that last found it
	query      uint32
	found      []int32
}

const obstacleCell = 8.0 // mm

// near returns the indices, ascending, of the obstacles whose cells b
// touches, filing any obstacles added since the last call first.
func (d *drawer) near(b box) []int32 {
	g := d.nearby
	if g == nil || len(d.obstacles) < g.indexed {
		w, h := d.pdf.GetPageSize()
		g = &obstacleGrid{cell: obstacleCell, cols: max(1, int(math.Ceil(w/obstacleCell))), rows: max(1, int(math.Ceil(h/obstacleCell)))}
		g.cells = make([][]int32, g.cols*g.rows)
		d.nearby = g
	}
	for i := g.indexed; i < len(d.obstacles); i++ {
		c0, r0, c1, r1 := g.span(d.obstacles[i].box)
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				g.cells[r*g.cols+c] = append(g.cells[r*g.cols+c], int32(i))
			}
		}
		g.mark = append(g.mark, 0)
	}
	g.indexed = len(d.obstacles)
	g.query++
	if g.query == 0 {
		clear(g.mark)
		g.query = 1
	}
	g.found = g.found[:0]
	c0, r0, c1, r1 := g.span(b)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			for _, i := range g.cells[r*g.cols+c] {
				if g.mark[i] != g.query {
					g.mark[i] = g.query
					g.found = append(g.found, i)
				}
			}
		}
	}
	slices.Sort(g.found)
	return g.found
}

// span returns the cells a box touches, clamped to the grid: a box off the
// page is filed in (and found from) the edge cells.
func (g *obstacleGrid) span(b box) (c0, r0, c1, r1 int) {
	cl := func(v float64, n int) int { return min(max(int(math.Floor(v/g.cell)), 0), n-1) }
	return cl(b.x0, g.cols), cl(b.y0, g.rows), cl(b.x1, g.cols), cl(b.y1, g.rows)
}
