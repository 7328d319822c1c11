package sheet

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/parser"
)

// Text is the reply the player receives, laid out as the SYW reply is: what
// was received, the deadline, the errors, warnings and notes by line, the
// orders as understood (which read back as the same orders if mailed again
// with the password added), and the receipt.
func (r *Report) Text() string {
	var b strings.Builder
	head := "Orders received for game " + r.Game
	if r.NationName != "" {
		head += ", " + r.NationName
	}
	if r.TurnLabel != "" {
		head += ", " + r.TurnLabel
	}
	b.WriteString(head + "\n")
	if !r.Deadline.IsZero() {
		zone := r.Zone
		if zone == nil {
			zone = r.Deadline.Location()
		}
		fmt.Fprintf(&b, "Deadline: %s\n", r.Deadline.In(zone).Format("Monday 2 January 2006, 15:04 MST"))
	}
	b.WriteByte('\n')
	if r.Refused {
		parser.WrapText(&b, "YOUR SHEET WAS REFUSED: nothing on it was read, and none of it will be carried out.", "")
		b.WriteByte('\n')
		b.WriteString(parser.FormatDiagnostics(r.Diagnostics))
		return b.String()
	}
	if r.Replaces {
		parser.WrapText(&b, "This sheet replaces the one you sent before: only the orders below count.", "")
		b.WriteByte('\n')
	}
	count := func(s parser.Severity) int {
		n := 0
		for _, d := range r.Diagnostics {
			if d.Severity == s {
				n++
			}
		}
		return n
	}
	errs := count(parser.Error)
	parser.WrapText(&b, fmt.Sprintf("%s accepted; %s, %s, %s.", many(len(r.Accepted), "order"), many(errs, "error"),
		many(count(parser.Warning), "warning"), many(count(parser.Note), "note")), "")
	if errs > 0 {
		parser.WrapText(&b, "The orders with errors will not be carried out. Correct them and send the whole sheet again before the deadline: the last sheet received is the one that counts.", "")
	}
	if len(r.Diagnostics) > 0 {
		b.WriteString("\n== Errors, warnings and notes ==\n\n")
		b.WriteString(parser.FormatDiagnostics(r.Diagnostics)) // at most parser.MaxListedProblems
	} else {
		b.WriteByte('\n')
	}
	b.WriteString("== Your orders as understood ==\n\n")
	b.WriteString(r.canonical(true))
	fmt.Fprintf(&b, "\nReceipt: %s\n", r.Receipt)
	parser.WrapText(&b, "(The receipt is the start of the SHA-256 of the orders above, without the comments. Quote it if you write to the referee about these orders. To send the orders again, add your PASSWORD line after NATION.)", "")
	return b.String()
}

func many(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
