package reports

import (
	"fmt"
	"sync"

	"codeberg.org/go-pdf/fpdf"

	"github.com/syw-pbem/pbem/reports/fonts"
)

// A report's PDF starts with its fonts: fpdf parses each embedded face
// (fonts.Register), about 3 ms of CPU a face and 12 ms for the four a
// report sets text in — as much as a year of stored turns takes to decode.
// Nothing in that work depends on the game, so a caller that knows it will
// render one report (pbem report, the console's download) can have it done
// on another core while it opens the store and builds the model:
//
//	opts := &reports.Options{PageSize: "A4"}
//	opts.Prepare()          // the fonts are parsed in the background
//	md, _ := reports.Build(…)   // meanwhile
//	reports.Render(w, md, m, opts) // takes the prepared document
//
// The document comes out byte for byte as newDoc would have made it; only
// the time it was made in moves.

// preparedDoc is a document being started in the background for one
// render with the options it was prepared for.
type preparedDoc struct {
	once sync.Once // taken by the first newDoc with these options
	done chan struct{}
	o    Options // the options it was started with (withDefaults)
	pdf  *fpdf.Fpdf
	size fpdf.SizeType
	err  error
}

// Prepare starts, on another goroutine, the PDF document the next Render,
// RenderReferee, RenderMap or area report with these options will write:
// the page set-up and the report's fonts. The first of those renders takes
// it (waiting for it if needed); a later one, or one whose page size, date
// or compression was changed after Prepare, starts its own document as if
// Prepare had not been called. Calling Prepare is never needed: it only
// moves work off the caller's path.
func (o *Options) Prepare() {
	p := &preparedDoc{done: make(chan struct{}), o: o.withDefaults()}
	o.prepared = p
	go func() {
		defer close(p.done)
		p.pdf, p.size, p.err = startPDF(&p.o)
	}()
}

// take returns the prepared document when it was prepared for options
// like o and has not been taken; ok is false otherwise.
func (p *preparedDoc) take(o *Options) (pdf *fpdf.Fpdf, size fpdf.SizeType, ok bool, err error) {
	if p == nil || p.o.PageSize != o.PageSize || !p.o.CreationDate.Equal(o.CreationDate) ||
		p.o.Uncompressed != o.Uncompressed {
		return nil, fpdf.SizeType{}, false, nil
	}
	p.once.Do(func() { ok = true })
	if !ok {
		return nil, fpdf.SizeType{}, false, nil
	}
	<-p.done
	return p.pdf, p.size, true, p.err
}

// startPDF makes a report's empty document: page size, fixed dates,
// compression, margins and the faces a report sets text in.
func startPDF(o *Options) (*fpdf.Fpdf, fpdf.SizeType, error) {
	pdf := fpdf.New("P", "mm", o.PageSize, "")
	size := pdf.GetPageSizeStr(o.PageSize)
	if size.Wd == 0 {
		return nil, size, fmt.Errorf("report: unknown page size %q: expected A4 or A3", o.PageSize)
	}
	pdf.SetCreationDate(o.CreationDate)
	pdf.SetModificationDate(o.CreationDate)
	pdf.SetCatalogSort(true)
	if o.Uncompressed {
		pdf.SetCompression(false)
	}
	pdf.SetCreator("pbem", true)
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin+4)
	fonts.Register(pdf, usedFaces...)
	return pdf, size, nil
}
