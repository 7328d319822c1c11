package daemon

import "strings"

// sentence ends s with a full stop unless it ends a sentence already, so
// that a hint written after it reads as a new sentence ("read "STATUS".
// Write one command per line.").
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
