package inbox

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/syw-pbem/pbem/store"
)

// MaskedCopy builds the copy of a handled mail that pbem leaves in the
// processed mailbox in the mail's place, so that whoever can read the game's
// mailbox finds no password in it (reliability.md, promise 13; the store
// keeps the mail as received for mail.keep_raw_days). The copy is a plain
// text mail:
//
//   - the original's header fields, except the MIME fields (the copy has
//     its own) and signatures (DKIM-Signature, ARC-*: they would no longer
//     verify); a field whose decoded value mask changes is written masked;
//   - X-Pbem-Masked, naming the SHA-256 of the mail as received (the key of
//     the store's row);
//   - a first line in brackets: note, and the attachments that are not in
//     the copy. Only what pbem read is: a password in an attachment it did
//     not read, or in the HTML of a mail that also has plain text, would
//     otherwise stay in clear;
//   - every text pbem read (ex.Texts), passed through mask, each under a
//     line naming it when there are several.
//
// ex is the mail as Extract read it; nil when it could not be read: then
// the copy keeps the header and the note, and no text at all.
func MaskedCopy(raw []byte, ex *Extracted, mask func(string) string, note string) []byte {
	var b bytes.Buffer
	hdr, _, err := splitHeader(raw, DefaultMaxHeaderBytes)
	if err != nil {
		hdr = nil
	}
	for _, f := range headerFieldsOf(hdr) {
		name, value, ok := strings.Cut(f, ":")
		key := strings.ToLower(strings.TrimSpace(name))
		if !ok || key == "" || strings.ContainsAny(key, " \t\r\n") || strings.HasPrefix(key, "content-") || key == "mime-version" ||
			key == "dkim-signature" || strings.HasPrefix(key, "arc-") || key == "x-pbem-masked" || mask(name) != name {
			continue // not a field (a broken header), one the copy does not keep, or a name with a secret in it
		}
		plain := strings.TrimSpace(unfold(value))
		decoded := decodeHeaderWords(plain)
		if masked := mask(decoded); masked != decoded || mask(plain) != plain {
			b.WriteString(strings.TrimSpace(name) + ": " + encodeHeaderValue(masked) + "\r\n")
			continue
		}
		b.WriteString(f)
	}
	fmt.Fprintf(&b, "X-Pbem-Masked: sha256=%s; the passwords in this mail were masked by pbem\r\n", store.SHA256Hex(raw))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")

	// The texts are written straight into the quoted-printable encoder, one
	// at a time, into a buffer of about the copy's size: no copy of the
	// whole text, and no buffer grown by doubling (a mail's text can be a
	// megabyte).
	size := b.Len() + len(note) + 256
	if ex != nil {
		for _, t := range ex.Texts {
			size += len(t.Text) + len(t.Text)/8 + 64 // CRLF line ends, soft line breaks
		}
	}
	b.Grow(size)
	w := quotedprintable.NewWriter(&crlfBuffer{&b})
	io.WriteString(w, "[pbem: "+note)
	if left := notInCopy(ex); len(left) > 0 {
		io.WriteString(w, " Not in this copy: "+strings.Join(left, ", ")+".")
	}
	io.WriteString(w, "]\n")
	if ex != nil {
		for i, t := range ex.Texts {
			io.WriteString(w, "\n")
			if len(ex.Texts) > 1 {
				fmt.Fprintf(w, "----- %s -----\n", textLabel(t, i))
			}
			io.WriteString(w, mask(t.Text))
			if !strings.HasSuffix(t.Text, "\n") {
				io.WriteString(w, "\n")
			}
		}
	}
	w.Close()
	return b.Bytes()
}

// notInCopy names the parts of a mail that are not among its texts.
func notInCopy(ex *Extracted) []string {
	if ex == nil {
		return []string{"the mail's text (pbem could not read it)"}
	}
	var out []string
	for _, a := range ex.Attachments {
		if !slices.ContainsFunc(ex.Texts, func(t Text) bool { return t.Name != "" && t.Name == a }) {
			if a == "" {
				a = "an unnamed attachment"
			}
			out = append(out, a)
		}
	}
	return out
}

// textLabel names a text of a mail in the copy.
func textLabel(t Text, i int) string {
	switch {
	case t.Name != "":
		return "attachment " + t.Name
	case t.Forwarded > 0:
		return "text of the forwarded mail"
	case i == 0:
		return "text"
	}
	return fmt.Sprintf("text %d", i+1)
}

// headerFieldsOf splits a header block into its fields, each with its
// continuation lines and line ends, as written.
func headerFieldsOf(hdr []byte) []string {
	var out []string
	for _, line := range strings.SplitAfter(string(hdr), "\n") {
		switch {
		case strings.TrimRight(line, "\r\n") == "":
		case (line[0] == ' ' || line[0] == '\t') && len(out) > 0:
			out[len(out)-1] += line
		default:
			out = append(out, line)
		}
	}
	for i, f := range out {
		if !strings.HasSuffix(f, "\r\n") {
			out[i] = strings.TrimSuffix(f, "\n") + "\r\n"
		}
	}
	return out
}

// unfold joins a folded field value's lines.
func unfold(v string) string {
	return strings.NewReplacer("\r\n", "", "\n", "").Replace(v)
}

// decodeHeaderWords decodes the RFC 2047 words of a value, as far as it can.
func decodeHeaderWords(v string) string {
	if d, ok := decodeWords(v); ok {
		return d
	}
	return v
}

// encodeHeaderValue writes a value as a header may hold it: as it is when
// it is printable ASCII, else in encoded words.
func encodeHeaderValue(v string) string {
	for _, r := range v {
		if r >= utf8.RuneSelf || r < ' ' {
			return mime.QEncoding.Encode("utf-8", v)
		}
	}
	return v
}

// crlfBuffer writes to a buffer with every line end CRLF.
type crlfBuffer struct{ b *bytes.Buffer }

func (c *crlfBuffer) Write(p []byte) (int, error) {
	for _, x := range p {
		if x == '\n' && (c.b.Len() == 0 || c.b.Bytes()[c.b.Len()-1] != '\r') {
			c.b.WriteByte('\r')
		}
		c.b.WriteByte(x)
	}
	return len(p), nil
}
