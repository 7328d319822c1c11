// Package fonts ships the typefaces every pbem report is set in, so that a
// report prints the same on every machine and any Unicode name (an em dash, a
// "Königsau") comes out right. fpdf's built-in core fonts only know cp1252.
//
// The files are DejaVu Sans (regular, bold, oblique) and DejaVu Sans
// Condensed (regular, bold) from Debian's fonts-dejavu-core 2.37, embedded in
// the binary with go:embed under the Bitstream Vera licence in
// LICENSE-DejaVu.txt. Register adds them to an fpdf document; fpdf then embeds
// a subset of each registered face with the glyphs the document uses (about
// 10–15 KB a face, not the 600–750 KB file). Parsing and subsetting a face
// costs a few milliseconds per document, so a report registers only the faces
// it sets text in.
package fonts

import (
	_ "embed"

	"codeberg.org/go-pdf/fpdf"
)

// The family names Register adds. Use them with Fpdf.SetFont: Sans with the
// styles "", "B" and "I"; Condensed with "" and "B".
const (
	Sans      = "DejaVuSans"
	Condensed = "DejaVuSansCondensed"
)

var (
	//go:embed DejaVuSans.ttf
	sansRegular []byte
	//go:embed DejaVuSans-Bold.ttf
	sansBold []byte
	//go:embed DejaVuSans-Oblique.ttf
	sansOblique []byte
	//go:embed DejaVuSansCondensed.ttf
	condensedRegular []byte
	//go:embed DejaVuSansCondensed-Bold.ttf
	condensedBold []byte
)

// Face is one embedded font file: a family in one style.
type Face int

// The embedded faces.
const (
	SansRegular      Face = iota // Sans, style ""
	SansBold                     // Sans, style "B"
	SansOblique                  // Sans, style "I"
	CondensedRegular             // Condensed, style ""
	CondensedBold                // Condensed, style "B"
)

// Faces lists every embedded face.
var Faces = []Face{SansRegular, SansBold, SansOblique, CondensedRegular, CondensedBold}

var faceFiles = map[Face]struct {
	family, style string
	data          *[]byte
}{
	SansRegular:      {Sans, "", &sansRegular},
	SansBold:         {Sans, "B", &sansBold},
	SansOblique:      {Sans, "I", &sansOblique},
	CondensedRegular: {Condensed, "", &condensedRegular},
	CondensedBold:    {Condensed, "B", &condensedBold},
}

// Register adds the given faces to pdf, or every face when none is given.
// Registering a face twice on the same document is harmless. Each registered
// face costs the document about 8 KB and the program a few milliseconds even
// if no text uses it, so a report that needs only some may name them. A face
// that fails to load leaves pdf in its error state (fpdf errors are sticky:
// check pdf.Error() before Output).
func Register(pdf *fpdf.Fpdf, faces ...Face) {
	if len(faces) == 0 {
		faces = Faces
	}
	for _, f := range faces {
		if ff, ok := faceFiles[f]; ok {
			pdf.AddUTF8FontFromBytes(ff.family, ff.style, *ff.data)
		}
	}
}
