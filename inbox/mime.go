package inbox

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
	"sync/atomic"

	"github.com/emersion/go-message/charset"

	"github.com/syw-pbem/pbem/internal/english"
)

// This file slices a message into its MIME entities in one pass over the
// bytes, without decoding anything. go-message's multipart reader stacks one
// reader per nesting level and touches every byte once per level above it
// (20,000 levels took 43 s); here each level is a slice of its parent, the
// depth is checked before a level is entered, and the part count before a part
// is kept, so the work is at most MaxDepth passes over a message of at most
// MaxRawBytes. go-message is used on what this file finds: header values
// (addresses, encoded words, dates, Message-IDs) and charsets.

// field is one header field: its name as written and its unfolded value.
type field struct {
	key, value string
}

// header is a header block in order, topmost field first.
type header []field

// get returns the first (topmost) value of key, or "".
func (h header) get(key string) string {
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			return f.value
		}
	}
	return ""
}

// values returns every value of key, topmost first.
func (h header) values(key string) []string {
	var out []string
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			out = append(out, f.value)
		}
	}
	return out
}

// has reports whether key is present at all.
func (h header) has(key string) bool {
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			return true
		}
	}
	return false
}

// wordDecoder decodes RFC 2047 encoded words in any charset go-message knows.
var wordDecoder = &mime.WordDecoder{CharsetReader: charset.Reader}

// decodeWords decodes encoded words; on failure (an unknown charset) it
// returns the value as written and false.
func decodeWords(s string) (string, bool) {
	if !strings.Contains(s, "=?") {
		return s, true
	}
	d, err := wordDecoder.DecodeHeader(s)
	if err != nil {
		return s, false
	}
	return d, true
}

// mediaType parses a Content-Type or Content-Disposition value. A value
// mime.ParseMediaType rejects keeps its first word (lower case) and loses
// its parameters, with ok false.
func mediaType(v string) (typ string, params map[string]string, ok bool) {
	if strings.TrimSpace(v) == "" {
		return "", nil, true
	}
	t, p, err := mime.ParseMediaType(v)
	if err == nil {
		return t, p, true
	}
	first, _, _ := strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(first)), nil, false
}

// isHeaderLine reports whether line looks like "Name: value".
func isHeaderLine(line []byte) bool {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return false
	}
	key := bytes.TrimRight(line[:i], " \t")
	if len(key) == 0 {
		return false
	}
	for _, c := range key {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// nextLine returns the line starting at pos (without its LF or CRLF) and the
// position after it.
func nextLine(b []byte, pos int) (line []byte, next int) {
	i := bytes.IndexByte(b[pos:], '\n')
	if i < 0 {
		return trimCR(b[pos:]), len(b)
	}
	return trimCR(b[pos : pos+i]), pos + i + 1
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// splitHeader finds the header block at the start of data and returns it
// and the body after the blank line. An entity whose first line is not a
// header field has no header (its body is all of data), as a lenient reader
// would treat it. A header block longer than max is refused.
func splitHeader(data []byte, max int) (hdr, body []byte, err error) {
	if len(data) == 0 {
		return nil, nil, nil
	}
	first, _ := nextLine(data, 0)
	if len(first) == 0 {
		_, next := nextLine(data, 0)
		return nil, data[next:], nil
	}
	if !isHeaderLine(first) {
		return nil, data, nil
	}
	pos := 0
	for pos < len(data) {
		line, next := nextLine(data, pos)
		if len(line) == 0 {
			return data[:pos], data[next:], nil
		}
		if next > max {
			return nil, nil, limitErr(ErrHeaderTooLarge, fmt.Sprintf("more than %d bytes", max), fmt.Sprintf("%d bytes", max))
		}
		pos = next
	}
	return data, nil, nil
}

// parseHeader unfolds a header block into fields. Lines that are neither a
// field nor a continuation are skipped and counted. A field folded over many
// lines is joined once, at its end, so the cost stays linear in the block.
func parseHeader(b []byte, stop *atomic.Bool) (h header, skipped int) {
	var value []byte // the current field's value, being unfolded
	open := false
	finish := func() {
		if open {
			h[len(h)-1].value = string(bytes.TrimSpace(value))
			open = false
		}
	}
	pos := 0
	for pos < len(b) {
		if stop != nil && stop.Load() {
			break
		}
		line, next := nextLine(b, pos)
		pos = next
		if len(line) == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if open {
				value = append(value, ' ')
				value = append(value, bytes.TrimSpace(line)...)
			} else {
				skipped++
			}
			continue
		}
		finish()
		if !isHeaderLine(line) {
			skipped++
			continue
		}
		i := bytes.IndexByte(line, ':')
		h = append(h, field{key: string(bytes.TrimRight(line[:i], " \t"))})
		value = append(value[:0], bytes.TrimSpace(line[i+1:])...)
		open = true
	}
	finish()
	return h, skipped
}

// splitMultipart cuts a multipart body into its parts (each a header and a
// body), following RFC 2046: a delimiter is a line "--boundary", optionally
// followed by "--" (the close delimiter) and white space; the line end before
// it belongs to the delimiter. budget is how many more parts may be counted;
// a body with more is refused early. closed reports whether the close
// delimiter was found.
func splitMultipart(body []byte, boundary string, budget int, stop *atomic.Bool) (parts [][]byte, closed bool, err error) {
	dash := []byte("--" + boundary)
	pos, start, inPart := 0, 0, false
	for pos < len(body) {
		if stop != nil && stop.Load() {
			return nil, false, ErrDeadline
		}
		line, next := nextLine(body, pos)
		if bytes.HasPrefix(line, dash) {
			rest := line[len(dash):]
			final := bytes.HasPrefix(rest, []byte("--"))
			if final {
				rest = rest[2:]
			}
			if len(bytes.Trim(rest, " \t")) == 0 {
				if inPart {
					end := pos
					if end > start && body[end-1] == '\n' {
						end--
						if end > start && body[end-1] == '\r' {
							end--
						}
					}
					parts = append(parts, body[start:end])
				}
				if final {
					return parts, true, nil
				}
				if len(parts) >= budget {
					return nil, false, errTooManyParts(budget)
				}
				inPart, start = true, next
			}
		}
		pos = next
	}
	if inPart {
		parts = append(parts, body[start:])
	}
	return parts, false, nil
}

func errTooManyParts(limit int) error {
	return limitErr(ErrTooManyParts, fmt.Sprintf("more than %d parts", limit), fmt.Sprintf("%d parts", limit))
}

// leaf is a MIME entity that is not a multipart container.
type leaf struct {
	h         header
	path      string // IMAP-style part number: "" for the message itself, "1", "2.1", …
	mediaType string
	params    map[string]string
	body      []byte // still transfer-encoded
	forwarded int    // how many message/rfc822 parts it is inside
}

// walker visits a message's entities depth first, counting parts and depth.
type walker struct {
	lim      Limits
	parts    int
	maxDepth int
	stop     *atomic.Bool
	warn     func(format string, args ...any)
	visit    func(l leaf)
	// forwarded is how many message/rfc822 parts the walk is inside.
	forwarded int
}

// entity reads one entity (header and body) at the given depth (0 for the
// message; the number of multipart containers around it).
func (w *walker) entity(depth int, path string, h header, body []byte) error {
	if w.stop.Load() {
		return ErrDeadline
	}
	if depth > w.maxDepth {
		w.maxDepth = depth
	}
	typ, params, ok := mediaType(h.get("Content-Type"))
	if !ok {
		w.warn("part %s: Content-Type %q could not be read; treated as %q", partName(path), clip(h.get("Content-Type"), 80), typ)
	}
	if typ == "" {
		typ = "text/plain"
	}
	if typ == "message/rfc822" || typ == "message/global" {
		return w.forwardedMessage(depth, path, h, body)
	}
	if !strings.HasPrefix(typ, "multipart/") {
		w.visit(leaf{h: h, path: path, mediaType: typ, params: params, body: body, forwarded: w.forwarded})
		return nil
	}
	boundary := params["boundary"]
	if boundary == "" {
		w.warn("part %s: %s without a boundary; its body is not read", partName(path), typ)
		return nil
	}
	if depth+1 > w.lim.MaxDepth {
		return limitErr(ErrTooDeep, fmt.Sprintf("more than %d levels", w.lim.MaxDepth), fmt.Sprintf("%d levels", w.lim.MaxDepth))
	}
	parts, closed, err := splitMultipart(body, boundary, w.lim.MaxParts-w.parts, w.stop)
	if err != nil {
		return err
	}
	if !closed {
		w.warn("part %s: %s has no closing boundary; read up to the end of the mail", partName(path), typ)
	}
	if len(parts) == 0 {
		w.warn("part %s: %s has no parts", partName(path), typ)
	}
	for i, p := range parts {
		w.parts++
		if w.parts > w.lim.MaxParts {
			return errTooManyParts(w.lim.MaxParts)
		}
		hb, pb, err := splitHeader(p, w.lim.MaxHeaderBytes)
		if err != nil {
			return err
		}
		ph, skipped := parseHeader(hb, w.stop)
		if skipped > 0 {
			w.warn("part %s: %s skipped", partName(joinPath(path, i+1)), english.Count(skipped, "malformed header line"))
		}
		if err := w.entity(depth+1, joinPath(path, i+1), ph, pb); err != nil {
			return err
		}
	}
	return nil
}

// forwardedMessage reads a message/rfc822 part (a mail forwarded as an
// attachment) as a message of its own, one level deeper: it counts against
// MaxDepth like a multipart level, and its texts are marked forwarded.
// RFC 2046 allows only 7bit, 8bit or binary here, but some clients encode
// it anyway; that is undone first.
func (w *walker) forwardedMessage(depth int, path string, h header, body []byte) error {
	if depth+1 > w.lim.MaxDepth {
		return limitErr(ErrTooDeep, fmt.Sprintf("more than %d levels", w.lim.MaxDepth), fmt.Sprintf("%d levels", w.lim.MaxDepth))
	}
	if enc := strings.ToLower(strings.TrimSpace(h.get("Content-Transfer-Encoding"))); enc == "base64" || enc == "quoted-printable" {
		body, _ = decodeTransfer(enc, body, w.warn)
	}
	hb, ib, err := splitHeader(body, w.lim.MaxHeaderBytes)
	if err != nil {
		return err
	}
	ih, skipped := parseHeader(hb, w.stop)
	if skipped > 0 {
		w.warn("forwarded message %s: %s skipped", partName(path), english.Count(skipped, "malformed header line"))
	}
	w.forwarded++
	defer func() { w.forwarded-- }()
	return w.entity(depth+1, path, ih, ib)
}

func joinPath(path string, n int) string {
	if path == "" {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%s.%d", path, n)
}

func partName(path string) string {
	if path == "" {
		return "message"
	}
	return path
}

// clip shortens s to at most n bytes (at a rune start) for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
