package reports

import (
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

// printable returns a deep copy of v (a *Model or *RefereeModel) whose
// strings fpdf can print: players write treaties, special requests and
// orders that end up in reports, and fpdf fails a whole document on a rune
// outside the Basic Multilingual Plane (an emoji). Such runes and invalid
// UTF-8 become U+FFFD, control characters spaces (newlines stay), and
// zero-width marks go.
func printable[T any](v *T) *T {
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	out := new(T)
	if json.Unmarshal(raw, out) != nil {
		return v
	}
	cleanStrings(reflect.ValueOf(out).Elem())
	return out
}

func cleanStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); needsCleaning(s) && v.CanSet() {
			v.SetString(cleanText(s))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanStrings(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			cleanStrings(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			cleanStrings(v.Index(i))
		}
	}
}

func needsCleaning(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if r > 0xFFFF || (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || r == 0xfeff || r == 0x2028 || r == 0x2029 {
			return true
		}
	}
	return false
}

// cleanText makes s printable by fpdf with the embedded fonts.
func cleanText(s string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
		case r > 0xFFFF:
			b.WriteRune('\uFFFD')
		case r == '\n':
			b.WriteByte('\n')
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case r == '\t' || r < 0x20 || (r >= 0x7f && r < 0xa0):
			b.WriteByte(' ')
		case r == 0xfeff:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
