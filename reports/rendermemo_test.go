package reports

import (
	"bytes"
	"io"
	"testing"

	"github.com/syw-pbem/pbem/hexmap"
)

// TestRenderMemo: the tests' memo builds a PDF once per model, options and
// map, writes the kept bytes after, and builds again for anything else.
func TestRenderMemo(t *testing.T) {
	t.Parallel()
	p := &pdfMemo{}
	m := &hexmap.Map{Name: "The Continent", Cols: 2, Rows: 1}
	builds := 0
	build := func(w io.Writer) error {
		builds++
		_, err := w.Write([]byte{byte('0' + builds)})
		return err
	}
	render := func(md *Model, m *hexmap.Map, opts *Options) string {
		var b bytes.Buffer
		if err := p.render(&b, "nation", md, m, opts, build); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a := &Model{Nation: "eisenmark", Turn: 1}
	if got := render(a, m, nil); got != "1" || builds != 1 {
		t.Fatalf("first rendering %q after %d builds", got, builds)
	}
	if got := render(&Model{Nation: "eisenmark", Turn: 1}, m, nil); got != "1" || builds != 1 {
		t.Errorf("the same model again: %q after %d builds, want the kept PDF", got, builds)
	}
	if got := render(&Model{Nation: "eisenmark", Turn: 2}, m, nil); got != "2" || builds != 2 {
		t.Errorf("another model: %q after %d builds, want a new PDF", got, builds)
	}
	if got := render(a, m, &Options{NoZoom: true}); got != "3" || builds != 3 {
		t.Errorf("other options: %q after %d builds, want a new PDF", got, builds)
	}
	other := &hexmap.Map{Name: "The Continent", Cols: 3, Rows: 1}
	if got := render(a, other, nil); got != "4" || builds != 4 {
		t.Errorf("another map: %q after %d builds, want a new PDF", got, builds)
	}
}
