package parser

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/internal/english"
)

// replyWidth is where the reply's prose is wrapped; the orders themselves are
// never wrapped.
const replyWidth = 76

// Text is the reply the player receives: what was received, the deadline,
// the errors, warnings and notes by line, the accepted orders in canonical
// form (which read back as the same orders if mailed again with the password
// added), and the receipt.
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
		wrap(&b, "YOUR SHEET WAS REFUSED: nothing on it was read, and none of it will be carried out.", "")
		b.WriteByte('\n')
		writeDiags(&b, r.Diagnostics)
		return b.String()
	}
	if r.Replaces {
		wrap(&b, "This sheet replaces the one you sent before: only the orders below count.", "")
		b.WriteByte('\n')
	}
	b.WriteString(r.carryText())
	errs, warns, notes := r.Count(Error), r.Count(Warning), r.Count(Note)
	summary := fmt.Sprintf("%s accepted; %s, %s, %s.", english.Count(len(r.Accepted), "order"), english.Count(errs, "error"),
		english.Count(warns, "warning"), english.Count(notes, "note"))
	wrap(&b, summary, "")
	if errs > 0 {
		wrap(&b, "The orders with errors will not be carried out. Correct them and send the whole sheet again before the deadline: the last sheet received is the one that counts.", "")
	}
	if len(r.Diagnostics) > 0 {
		b.WriteString("\n== Errors, warnings and notes ==\n\n")
		writeDiags(&b, r.Diagnostics)
	}
	if len(r.Diagnostics) == 0 {
		b.WriteByte('\n')
	}
	b.WriteString("== Your orders as understood ==\n\n")
	b.WriteString(r.canonical(true))
	fmt.Fprintf(&b, "\nReceipt: %s\n", r.Receipt)
	wrap(&b, "(The receipt is the start of the SHA-256 of the orders above, without the comments. Quote it if you write to the referee about these orders. To send the orders again, add your PASSWORD line after NATION.)", "")
	return b.String()
}

// MaxListedProblems is how many errors, warnings and notes an answer lists;
// it says how many more there are. A real sheet has far fewer: a sheet with
// thousands is a mistake (a file sent instead of the orders) or an attack,
// and listing each would make an answer of megabytes.
const MaxListedProblems = 500

// writeDiags prints the diagnostics, at most MaxListedProblems of them, and
// then, if there are more, how many and of which severity.
func writeDiags(b *strings.Builder, ds []Diagnostic) {
	for i, d := range ds {
		if i == MaxListedProblems {
			writeUnlisted(b, ds[i:])
			return
		}
		writeDiag(b, d)
	}
}

// writeUnlisted says how many problems were left out, and which lines they
// are on.
func writeUnlisted(b *strings.Builder, rest []Diagnostic) {
	counts := map[Severity]int{}
	first, last := 0, 0
	for _, d := range rest {
		counts[d.Severity]++
		if d.Line > 0 && (first == 0 || d.Line < first) {
			first = d.Line
		}
		last = max(last, d.Line, d.EndLine)
	}
	var kinds []string
	for _, s := range []Severity{Error, Warning, Note} {
		if counts[s] > 0 {
			kinds = append(kinds, english.Count(counts[s], s.String()))
		}
	}
	where := ""
	if first > 0 {
		where = fmt.Sprintf(", on lines %d-%d", first, last)
	}
	wrap(b, fmt.Sprintf("... and %d more %s not listed here (%s%s): an answer lists the first %d. Correct the sheet and send it again to see the rest.",
		len(rest), english.Agree(len(rest), "problem", "problems"), joinList(kinds, "and"), where, MaxListedProblems), "")
	b.WriteByte('\n')
}

// writeDiag prints one diagnostic: where, severity and message; the
// statement as read; what to do.
func writeDiag(b *strings.Builder, d Diagnostic) {
	where := ""
	switch {
	case d.EndLine > d.Line && d.Line > 0:
		where = fmt.Sprintf("lines %d-%d: ", d.Line, d.EndLine)
	case d.Line > 0:
		where = fmt.Sprintf("line %d: ", d.Line)
	}
	wrap(b, where+d.Severity.String()+": "+d.Message, "    ")
	if d.Source != "" {
		b.WriteString("    | " + d.Source + "\n")
	}
	if d.Hint != "" {
		for _, para := range strings.Split(d.Hint, "\n") {
			if strings.HasPrefix(para, "  ") {
				b.WriteString("    " + para + "\n")
				continue
			}
			wrap(b, "    "+para, "    ")
		}
	}
	b.WriteByte('\n')
}

// wrap writes s wrapped at replyWidth, continuation lines indented by indent.
func wrap(b *strings.Builder, s, indent string) {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	words := strings.Fields(s)
	line := s[:lead]
	n := len(line)
	for i, w := range words {
		if i > 0 && n+1+len([]rune(w)) > replyWidth {
			b.WriteString(line + "\n")
			line, n = indent+w, len(indent)+len([]rune(w))
			continue
		}
		if i > 0 {
			line += " "
			n++
		}
		line += w
		n += len([]rune(w))
	}
	b.WriteString(line + "\n")
}
