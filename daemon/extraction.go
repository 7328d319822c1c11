package daemon

import (
	"math"
	"slices"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/parser"
)

// noteExtraction adds to a sheet's report what reading the mail found out
// about the text the sheet was read from: each extraction warning (a
// charset guessed, broken base64 or quoted-printable, the text cut) as a
// warning under the line it concerns, and a note when the sheet came from a
// forwarded mail (a message/rfc822 attachment). text is the text the sheet
// was checked from (findSheet).
func noteExtraction(r *parser.Report, ex *inbox.Extracted, text string) {
	if r == nil || ex == nil {
		return
	}
	i := slices.IndexFunc(ex.Texts, func(t inbox.Text) bool { return t.Text == text })
	if i < 0 {
		return
	}
	t := ex.Texts[i]
	if t.Forwarded > 0 {
		r.Diagnostics = append(r.Diagnostics, parser.Diagnostic{Severity: parser.Note,
			Message: "this sheet was found in a forwarded mail (a mail attached to yours) and read from there; " +
				"the line numbers are those of the forwarded mail's text"})
	}
	for _, w := range t.Warnings {
		hint := "Check that this line reads as you wrote it; plain text in UTF-8 avoids this."
		if w.Line == 0 {
			hint = "Check that your orders below read as you wrote them; plain text in UTF-8 avoids this."
		}
		r.Diagnostics = append(r.Diagnostics, parser.Diagnostic{Line: w.Line, Severity: parser.Warning,
			Message: "reading your mail: " + w.Message, Hint: hint})
	}
	// By line, the sheet as a whole (line 0) last, as the checker orders
	// them; the checker's own order stays within a line.
	key := func(d parser.Diagnostic) int {
		if d.Line == 0 {
			return math.MaxInt
		}
		return d.Line
	}
	slices.SortStableFunc(r.Diagnostics, func(a, b parser.Diagnostic) int { return key(a) - key(b) })
}
