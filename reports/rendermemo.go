package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/syw-pbem/pbem/engine"
)

// A PDF depends on its model, its options and the map alone (the same
// inputs give the same bytes), so a test binary that starts many games of
// one scenario — each mailing the same starting reports — may keep each PDF
// it made and write it again. MemoizeRenderForTests turns that on; no
// production path calls it.

// renderMemo is the tests' memo of PDFs, nil unless turned on.
var renderMemo atomic.Pointer[pdfMemo]

// MemoizeRenderForTests makes Render, RenderReferee and Area (a Trossian
// game's reports) keep every PDF they make, keyed by a digest of the model
// (an area report's input), the options and the map, for the
// rest of the process, and write the kept bytes when asked again. Only tests
// call it (from TestMain): a PDF takes a tenth of a second or more to build,
// and every game a test starts builds one per nation.
func MemoizeRenderForTests() {
	renderMemo.CompareAndSwap(nil, &pdfMemo{})
}

// ShareRenderMemoForTests turns the memo on (as MemoizeRenderForTests)
// and keeps every PDF it makes in the folder dir as well, where it looks
// first for one it has not made: the crash tests' child processes (each a
// new process, resolving the same turn of the same game) write each PDF
// once between them. The folder is the caller's to make and remove. Only
// tests call it.
func ShareRenderMemoForTests(dir string) {
	renderMemo.CompareAndSwap(nil, &pdfMemo{dir: dir})
}

type pdfMemo struct {
	pdfs sync.Map // [sha256.Size]byte → *memoPDF
	maps sync.Map // *hexmap.Map or *areamap.Map → [sha256.Size]byte
	kept atomic.Int64
	dir  string // the folder shared with other processes, or ""
}

// memoLimit bounds the PDFs kept (a few hundred kilobytes each): the
// starting reports come first in every test, and later turns' reports
// seldom repeat (the daemon's tests make about 240).
const memoLimit = 512

type memoPDF struct {
	once sync.Once
	pdf  []byte
	err  error
}

// render writes the PDF of (kind, md, m, opts), made by build the first time.
func (p *pdfMemo) render(w io.Writer, kind string, md any, m any, opts *Options,
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
		e.pdf, e.err = p.build(key, build)
	})
	if e.err != nil {
		return e.err
	}
	_, err = w.Write(e.pdf)
	return err
}

// build makes the PDF of key with build, or reads it from the shared
// folder, where it writes what it made (a temporary file renamed, so that
// another process reads a whole PDF or none).
func (p *pdfMemo) build(key [sha256.Size]byte, build func(io.Writer) error) ([]byte, error) {
	var path string
	if p.dir != "" {
		path = filepath.Join(p.dir, hex.EncodeToString(key[:])+".pdf")
		if b, err := os.ReadFile(path); err == nil {
			return b, nil
		}
	}
	var buf bytes.Buffer
	if err := build(&buf); err != nil {
		return nil, err
	}
	if path != "" {
		if f, err := os.CreateTemp(p.dir, "pdf-*"); err == nil {
			_, werr := f.Write(buf.Bytes())
			if cerr := f.Close(); werr == nil && cerr == nil {
				os.Rename(f.Name(), path)
			}
			os.Remove(f.Name())
		}
	}
	return buf.Bytes(), nil
}

func (p *pdfMemo) key(kind string, md any, m any, opts *Options) ([sha256.Size]byte, error) {
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

// areaMemoInput is what an area-map report's PDF is made of besides its
// map and options (keyed apart): the input, its events named by their
// types as well as their fields, its zone by name.
type areaMemoInput struct {
	In     AreaInput
	Events []areaMemoEvent
	Zone   string
}

type areaMemoEvent struct {
	Type  string
	Event engine.Event
}

// renderArea writes the area-map report's PDF of in, made by build, through
// the tests' memo when it is on.
func renderArea(w io.Writer, in AreaInput, build func(io.Writer) error) error {
	memo := renderMemo.Load()
	if memo == nil || in.Map == nil {
		return build(w)
	}
	k := areaMemoInput{In: in}
	k.In.Map, k.In.Events, k.In.Zone, k.In.Options = nil, nil, nil, nil
	for _, e := range in.Events {
		k.Events = append(k.Events, areaMemoEvent{Type: fmt.Sprintf("%T", e), Event: e})
	}
	if in.Zone != nil {
		k.Zone = in.Zone.String()
	}
	return memo.render(w, "area", k, in.Map, in.Options, build)
}
