package mapdraw

import "strings"

// KnownPageSize reports whether Render accepts size as Options.PageSize
// (case-insensitive; "" is the default, A3).
func KnownPageSize(size string) bool {
	if size == "" {
		return true
	}
	_, ok := pageSizes[strings.ToUpper(size)]
	return ok
}

// PageSizes lists the page sizes Render accepts, as a person would write
// them.
func PageSizes() []string {
	return []string{"A2", "A3", "A4", "A5", "Letter", "Legal", "Tabloid"}
}
