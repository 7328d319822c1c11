package mapdraw

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
)

// TestSVG: the map as an SVG image is well-formed XML, the same bytes for
// the same options, with every counter's label and every city's name as
// text (escaped), every hex drawn with its tooltip, hex numbers, and the
// key with its title.
func TestSVG(t *testing.T) {
	m := defaultMap(t)
	city := m.Cities[0]
	opts := &Options{Title: `<script>"x"</script>`, Markers: []Marker{
		{At: game.AtHex(city.Hex), Nation: m.Nations[0].ID, Label: "E1", Size: "L"},
		{At: game.AtHex(city.Hex), Nation: m.Nations[0].ID, Label: "<b>", Size: "S", Faded: true},
		{At: game.AtSea(m.Seas[0].ID), Nation: m.Nations[0].ID, Label: "N1", Fleet: true},
	}, Battles: []game.Hex{city.Hex}, Taxes: &ruleset.SYW1752().Taxes}
	var a, b bytes.Buffer
	if err := SVG(&a, m, opts, &SVGOptions{Width: 1200, Legend: &Legend{Title: "the <key>", Nations: []game.NationID{m.Nations[0].ID}}}); err != nil {
		t.Fatal(err)
	}
	if err := SVG(&b, m, opts, &SVGOptions{Width: 1200, Legend: &Legend{Title: "the <key>", Nations: []game.NationID{m.Nations[0].ID}}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same map drew two different images")
	}
	d := xml.NewDecoder(bytes.NewReader(a.Bytes()))
	var texts []string
	polygons := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if x.Name.Local == "script" {
				t.Fatal("the title became an element")
			}
			if x.Name.Local == "polygon" {
				polygons++
			}
		case xml.CharData:
			texts = append(texts, string(x))
		}
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"E1 L", "<b> S", "N1", city.Name, `<script>"x"</script>`, city.Hex.String() + " ",
		"the <key> — key", "river (along hexsides)", "your force: ID and size class", m.Nations[0].Name} {
		if !strings.Contains(all, want) {
			t.Errorf("the image's text lacks %q", want)
		}
	}
	if polygons < m.Cols*m.Rows {
		t.Errorf("%d hexes drawn, want %d", polygons, m.Cols*m.Rows)
	}
}
