package inbox

import (
	"html"
	"strings"
)

// blockTags start and end a line: the text of an HTML-only mail keeps the
// line structure a player saw in their editor (Gmail writes a line as a
// <div>, Outlook as a <p>).
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "body": true, "center": true,
	"dd": true, "div": true, "dl": true, "dt": true, "fieldset": true, "figcaption": true, "figure": true,
	"footer": true, "form": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"header": true, "hr": true, "html": true, "li": true, "main": true, "nav": true, "ol": true, "p": true,
	"pre": true, "section": true, "table": true, "tbody": true, "td": false, "tfoot": true, "thead": true,
	"tr": true, "ul": true,
}

// skipTags have content that is not text.
var skipTags = map[string]bool{"script": true, "style": true, "head": true, "title": true, "template": true}

// htmlToText turns HTML into plain text: tags are dropped, block elements
// and <br> end lines, white space outside <pre> collapses as a browser
// collapses it, entities are decoded, and non-breaking spaces become spaces.
// It is a small tokenizer (golang.org/x/net/html is not a dependency of this
// module); it runs in one pass and never backtracks more than a tag.
func htmlToText(s string) string {
	var out strings.Builder
	out.Grow(len(s) / 2)
	pre := 0
	newline := func() {
		str := out.String()
		if len(str) > 0 && str[len(str)-1] != '\n' {
			out.WriteByte('\n')
		}
	}
	lastIsSpace := func() bool {
		str := out.String()
		return len(str) == 0 || str[len(str)-1] == ' ' || str[len(str)-1] == '\n'
	}
	i := 0
	for i < len(s) {
		if s[i] != '<' {
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				j = len(s) - i
			}
			text := html.UnescapeString(s[i : i+j])
			text = strings.ReplaceAll(text, "\u00a0", " ")
			if pre > 0 {
				out.WriteString(normalise(text))
			} else {
				for _, f := range strings.Fields(text) {
					if !lastIsSpace() {
						out.WriteByte(' ')
					}
					out.WriteString(f)
				}
				if len(text) > 0 && isSpaceByte(text[len(text)-1]) && !lastIsSpace() {
					out.WriteByte(' ')
				}
			}
			i += j
			continue
		}
		// A comment, a declaration or a processing instruction.
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		if i+1 < len(s) && (s[i+1] == '!' || s[i+1] == '?') {
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				break
			}
			i += end + 1
			continue
		}
		// A tag, or a lone "<" in text.
		j := i + 1
		closing := j < len(s) && s[j] == '/'
		if closing {
			j++
		}
		k := j
		for k < len(s) && isTagNameByte(s[k]) {
			k++
		}
		if k == j {
			// "<" that starts no tag is text, as a browser reads it.
			out.WriteByte('<')
			i++
			continue
		}
		name := strings.ToLower(s[j:k])
		end := tagEnd(s, k)
		if end < 0 {
			break // an unterminated tag: the rest is not text
		}
		i = end + 1
		switch {
		case name == "br":
			out.WriteByte('\n')
		case skipTags[name] && !closing && !strings.HasSuffix(s[k:end], "/"):
			close := indexFold(s[i:], "</"+name)
			if close < 0 {
				i = len(s)
				break
			}
			ce := strings.IndexByte(s[i+close:], '>')
			if ce < 0 {
				i = len(s)
				break
			}
			i += close + ce + 1
		case name == "pre":
			newline()
			if closing {
				if pre > 0 {
					pre--
				}
			} else {
				pre++
			}
		case name == "td" || name == "th":
			if !closing && !lastIsSpace() {
				out.WriteByte(' ')
			}
		case blockTags[name]:
			newline()
		}
	}
	text := out.String()
	// Trim spaces at line ends that collapsing left behind.
	lines := strings.Split(text, "\n")
	for n, l := range lines {
		lines[n] = strings.TrimRight(l, " ")
	}
	return strings.TrimLeft(strings.Join(lines, "\n"), "\n")
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isTagNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == ':'
}

// tagEnd returns the index of the ">" closing the tag whose name ends at k,
// skipping quoted attribute values; -1 if there is none.
func tagEnd(s string, k int) int {
	var quote byte
	for i := k; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

// indexFold is strings.Index ignoring ASCII case in s.
func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}
