package mapdraw

import "github.com/syw-pbem/pbem/game"

// areaIndex answers "which province, which sea area is this hex in?" from
// arrays by hex, built once per drawing: label placement asks it nine times
// for every candidate place of every label (outside), and the map's own
// answer is a hash-map look-up. Hexes off the map are asked of the map.
type areaIndex struct {
	prov, sea []int32 // per hex, row-major: 1 + the index in Provinces, Seas; 0 for none
}

func (d *drawer) areas() *areaIndex {
	if d.areaIdx != nil {
		return d.areaIdx
	}
	m := d.m
	a := &areaIndex{prov: make([]int32, m.Cols*m.Rows), sea: make([]int32, m.Cols*m.Rows)}
	// In the map's order, later areas overwriting earlier ones, as
	// hexmap.Map.Build files them.
	for i := range m.Provinces {
		for _, h := range m.Provinces[i].Hexes {
			if m.InBounds(h) {
				a.prov[(h.Row-1)*m.Cols+h.Col-1] = int32(i + 1)
			}
		}
	}
	for i := range m.Seas {
		for _, h := range m.Seas[i].Hexes {
			if m.InBounds(h) {
				a.sea[(h.Row-1)*m.Cols+h.Col-1] = int32(i + 1)
			}
		}
	}
	d.areaIdx = a
	return a
}

// inProvince reports whether h is in the province with this letter (as
// hexmap.Map.ProvinceOf says).
func (d *drawer) inProvince(h game.Hex, letter string) bool {
	if !d.m.InBounds(h) {
		q, ok := d.m.ProvinceOf(h)
		return ok && q.Letter == letter
	}
	i := d.areas().prov[(h.Row-1)*d.m.Cols+h.Col-1]
	return i > 0 && d.m.Provinces[i-1].Letter == letter
}

// inSea reports whether h is in the sea area id (as hexmap.Map.SeaOf says).
func (d *drawer) inSea(h game.Hex, id game.SeaID) bool {
	if !d.m.InBounds(h) {
		q, ok := d.m.SeaOf(h)
		return ok && q.ID == id
	}
	i := d.areas().sea[(h.Row-1)*d.m.Cols+h.Col-1]
	return i > 0 && d.m.Seas[i-1].ID == id
}
