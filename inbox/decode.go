package inbox

import (
	"bytes"
	"encoding/base64"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"

	"github.com/syw-pbem/pbem/internal/english"
)

// decodeTransfer undoes a Content-Transfer-Encoding. It never fails: broken
// base64 keeps every decodable group, broken quoted-printable keeps the
// undecodable "=" as written, and an unknown encoding is read as it is; each
// of these adds a warning. badAt is the offset in the decoded bytes of the
// first problem (-1 for none, 0 for the whole part), so that the warning
// can name the line.
func decodeTransfer(enc string, body []byte, warn func(string, ...any)) (out []byte, badAt int) {
	badAt = -1
	switch e := strings.ToLower(strings.TrimSpace(enc)); e {
	case "", "7bit", "8bit", "binary":
		return body, -1
	case "base64":
		return decodeBase64(body, warn, &badAt), badAt
	case "quoted-printable":
		return decodeQP(body, warn, &badAt), badAt
	default:
		warn("unknown Content-Transfer-Encoding %q; read as it is", clip(enc, 40))
		return body, 0
	}
}

// decodeBase64 decodes base64 leniently: white space is skipped, other bytes
// outside the alphabet are dropped (with a warning), and "=" ends a group, so
// concatenated encoded blocks decode too.
func decodeBase64(b []byte, warn func(string, ...any), badAt *int) []byte {
	out := make([]byte, 0, len(b)*3/4+3)
	group := make([]byte, 0, 1024)
	bad := 0
	mark := func() {
		if *badAt < 0 {
			*badAt = len(out) + len(group)*3/4
		}
	}
	flush := func() {
		if n := len(group) % 4; n == 1 {
			mark()
			group = group[:len(group)-1]
			bad++
		}
		dst := make([]byte, base64.RawStdEncoding.DecodedLen(len(group)))
		n, err := base64.RawStdEncoding.Decode(dst, group)
		if err != nil {
			mark()
			bad++
		}
		out = append(out, dst[:n]...)
		group = group[:0]
	}
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			group = append(group, c)
			if len(group) == cap(group) {
				// cap is a multiple of 4: decode as we go.
				flush()
			}
		case c == '=':
			if len(group) > 0 {
				flush()
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			mark()
			bad++
		}
	}
	if len(group) > 0 {
		flush()
	}
	if bad > 0 {
		warn("broken base64 (%d %s skipped)", bad, english.Agree(bad, "bad byte or group", "bad bytes or groups"))
	}
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// decodeQP decodes quoted-printable leniently: "=XX" (either case) is a byte,
// "=" before a line end (after optional white space) is a soft line break,
// and any other "=" is kept as written, with a warning.
func decodeQP(b []byte, warn func(string, ...any), badAt *int) []byte {
	out := make([]byte, 0, len(b))
	bad := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		if i+2 < len(b) {
			if h, ok := unhex(b[i+1]); ok {
				if l, ok := unhex(b[i+2]); ok {
					out = append(out, h<<4|l)
					i += 2
					continue
				}
			}
		}
		j := i + 1
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		switch {
		case j == len(b):
			i = j - 1 // "=" at the very end: a soft break before nothing
		case b[j] == '\n':
			i = j
		case b[j] == '\r' && j+1 < len(b) && b[j+1] == '\n':
			i = j + 1
		default:
			if *badAt < 0 {
				*badAt = len(out)
			}
			out = append(out, '=')
			bad++
		}
	}
	if bad > 0 {
		warn("broken quoted-printable (%d stray \"=\" kept as written)", bad)
	}
	return out
}

// latin1Labels are read as windows-1252, as browsers do (WHATWG Encoding):
// mail labelled ISO-8859-1 very often carries windows-1252 quotes and dashes.
var latin1Labels = map[string]bool{
	"iso-8859-1": true, "iso8859-1": true, "latin1": true, "l1": true, "iso_8859-1": true,
	"cp819": true, "ibm819": true, "iso-ir-100": true, "csisolatin1": true, "us-ascii": true, "ascii": true,
}

// decodeCharset turns text in the named charset into UTF-8. UTF-8 and
// US-ASCII text that is not valid UTF-8, and text in a charset nobody knows,
// is read as UTF-8 if it is valid and as windows-1252 otherwise, with a
// warning; reading goes on either way.
func decodeCharset(label string, b []byte, warn func(string, ...any)) string {
	l := strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	switch {
	case l == "" || l == "utf-8" || l == "utf8":
		if utf8.Valid(b) {
			return string(b)
		}
		if l != "" {
			warn("text marked %s is not valid UTF-8; read as windows-1252", label)
		}
		return windows1252(b)
	case latin1Labels[l]:
		if isASCII(b) {
			return string(b)
		}
		return windows1252(b)
	}
	r, err := charset.Reader(l, bytes.NewReader(b))
	if err != nil {
		if utf8.Valid(b) {
			warn("unknown charset %q; read as UTF-8", clip(label, 40))
			return string(b)
		}
		warn("unknown charset %q; read as windows-1252", clip(label, 40))
		return windows1252(b)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		warn("text in %s could not be fully decoded: %v", clip(label, 40), err)
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// windows1252 decodes windows-1252 with golang.org/x/text's charmap (bytes
// 0x81, 0x8D, 0x8F, 0x90 and 0x9D, undefined there, become the C1 controls
// of the same number, as the WHATWG Encoding standard says).
func windows1252(b []byte) string {
	out, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil { // a single-byte decoder cannot fail; keep the text anyway
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(out)
}

// normalise gives text LF line ends and drops a leading byte order mark.
func normalise(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// unflow undoes format=flowed (RFC 3676) on LF text: a line ending in a
// space joins the next line of the same quote depth; with delsp=yes that
// space is deleted. Space-stuffing is removed, and "-- " (the signature
// separator) never flows. Quoted lines come out as "> " + text.
func unflow(s string, delsp bool) string {
	lines := strings.Split(s, "\n")
	var out strings.Builder
	out.Grow(len(s))
	var para strings.Builder
	open, paraDepth := false, 0
	flush := func() {
		if !open {
			return
		}
		if paraDepth > 0 {
			out.WriteString(strings.Repeat(">", paraDepth))
			if para.Len() > 0 {
				out.WriteByte(' ')
			}
		}
		out.WriteString(para.String())
		out.WriteByte('\n')
		para.Reset()
		open = false
	}
	for i, line := range lines {
		if i == len(lines)-1 && line == "" {
			break // the text's final line end
		}
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := line[depth:]
		content = strings.TrimPrefix(content, " ") // space-stuffing
		if open && depth != paraDepth {
			flush()
		}
		flowed := content != "-- " && strings.HasSuffix(content, " ")
		if flowed && delsp {
			content = content[:len(content)-1]
		}
		para.WriteString(content)
		open, paraDepth = true, depth
		if !flowed {
			flush()
		}
	}
	flush()
	return out.String()
}

// cutText cuts s to at most max bytes, at the last line end before the cut
// when there is one, and reports whether it cut.
func cutText(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	if max <= 0 {
		return "", true
	}
	cut := s[:max]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		return cut[:i+1], true
	}
	return strings.ToValidUTF8(cut, ""), true
}
