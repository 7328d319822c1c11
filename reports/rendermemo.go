package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"

	"github.com/syw-pbem/pbem/hexmap"
)

// A PDF depends on its model, its options and the map alone (the same
// inputs give the same bytes), so a test binary that starts many games of
// one scenario — each mailing the same starting reports — may keep each PDF
// it made and write it again. MemoizeRenderForTests turns that on; no
// production path calls it.

// renderMemo is the tests' memo of PDFs, nil unless turned on.
var renderMemo atomic.Pointer[pdfMemo]

// MemoizeRenderForTests makes Render and RenderReferee keep every PDF they
// make, keyed by a digest of the model, the options and the map, for the
// rest of the process, and write the kept bytes when asked again. Only tests
// call it (from TestMain): a PDF takes a tenth of a second or more to build,
// and every game a test starts builds one per nation.
func MemoizeRenderForTests() {
	renderMemo.CompareAndSwap(nil, &pdfMemo{})
}

type pdfMemo struct {
	pdfs sync.Map // [sha256.Size]byte → *memoPDF
	maps sync.Map // *hexmap.Map → [sha256.Size]byte
	kept atomic.Int64
}

// memoLimit bounds the PDFs kept (a few hundred kilobytes each): the
// starting reports come first in every test, and later turns' reports
// seldom repeat.
const memoLimit = 256

type memoPDF struct {
	once sync.Once
	pdf  []byte
	err  error
}

// render writes the PDF of (kind, md, m, opts), made by build the first time.
func (p *pdfMemo) render(w io.Writer, kind string, md any, m *hexmap.Map, opts *Options,
	build func(io.Writer) error) error {
	key, err := p.key(kind, md, m, opts)
	if err != nil {
		return build(w)
	}
	v, ok := p.pdfs.Load(key)
	if !ok {
		if p.kept.Load() >= memoLimit {
			return build(w)
		}
		var loaded bool
		if v, loaded = p.pdfs.LoadOrStore(key, &memoPDF{}); !loaded {
			p.kept.Add(1)
		}
	}
	e := v.(*memoPDF)
	e.once.Do(func() {
		var buf bytes.Buffer
		e.err = build(&buf)
		e.pdf = buf.Bytes()
	})
	if e.err != nil {
		return e.err
	}
	_, err = w.Write(e.pdf)
	return err
}

func (p *pdfMemo) key(kind string, md any, m *hexmap.Map, opts *Options) ([sha256.Size]byte, error) {
	mapKey, ok := p.maps.Load(m)
	if !ok {
		b, err := json.Marshal(m)
		if err != nil {
			return [sha256.Size]byte{}, err
		}
		mapKey, _ = p.maps.LoadOrStore(m, sha256.Sum256(b))
	}
	h := sha256.New()
	mk := mapKey.([sha256.Size]byte)
	h.Write([]byte(kind))
	h.Write(mk[:])
	enc := json.NewEncoder(h)
	if err := enc.Encode(md); err != nil {
		return [sha256.Size]byte{}, err
	}
	if err := enc.Encode(opts); err != nil {
		return [sha256.Size]byte{}, err
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, nil
}
