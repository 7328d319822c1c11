package areamap

import (
	"fmt"
	"io"
	"strings"
)

// Format writes a map in the text format, canonically: the header,
// kingdoms, lanes, provinces, then borders and links grouped by their first
// place and roads one pair a line, every list sorted. Parse reads it back to
// the same map.
func Format(w io.Writer, m *Map) error {
	var b strings.Builder
	fmt.Fprintf(&b, "map %s\n\n", quote(m.Name))
	for _, k := range m.Kingdoms {
		fmt.Fprintf(&b, "kingdom %s name=%s letter=%s capital=%s\n", k.ID, quote(k.Name), k.Letter, k.Capital)
	}
	b.WriteByte('\n')
	for _, l := range m.Lanes {
		fmt.Fprintf(&b, "lane %s %s", l.ID, quote(l.Name))
		if l.Frozen {
			b.WriteString(" frozen")
		}
		writeAt(&b, l.At)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	for _, p := range m.Provinces {
		fmt.Fprintf(&b, "province %s %s", p.ID, p.Kind)
		if p.Kingdom != "" {
			fmt.Fprintf(&b, " kingdom=%s", p.Kingdom)
		}
		if len(p.Coast) > 0 {
			fmt.Fprintf(&b, " coast=%s", strings.Join(p.Coast, ","))
		}
		writeAt(&b, p.At)
		b.WriteByte('\n')
	}
	writeFans(&b, "border", m.Borders)
	writeFans(&b, "link", m.Links)
	if len(m.Roads) > 0 {
		b.WriteByte('\n')
	}
	for _, r := range m.Roads {
		fmt.Fprintf(&b, "road %s %s\n", r.A, r.B)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeAt(b *strings.Builder, p Point) {
	if !p.IsZero() {
		fmt.Fprintf(b, " at=%d,%d", p.X, p.Y)
	}
}

// writeFans writes pairs grouped by their first place: "border A B C".
func writeFans(b *strings.Builder, head string, list []Pair) {
	if len(list) > 0 {
		b.WriteByte('\n')
	}
	for i := 0; i < len(list); {
		j := i
		var rest []string
		for j < len(list) && list[j].A == list[i].A {
			rest = append(rest, list[j].B)
			j++
		}
		fmt.Fprintf(b, "%s %s %s\n", head, list[i].A, strings.Join(rest, " "))
		i = j
	}
}

// quote writes a name in double quotes (names never hold one: Parse ends a
// quoted word at the next quote).
func quote(s string) string { return `"` + s + `"` }
