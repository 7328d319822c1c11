package inbox

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
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

// htmlToText turns HTML into plain text with golang.org/x/net/html's
// tokenizer (linear in the input, whatever tag soup it is given): tags are
// dropped, block elements and <br> end lines, white space outside <pre>
// collapses as a browser collapses it, entities are decoded, and
// non-breaking spaces become spaces.
//
// Blank lines are kept where a browser shows one: a paragraph or div that
// holds nothing but non-breaking spaces (Outlook writes an empty line as
// <p class=MsoNormal><o:p>&nbsp;</o:p></p>), and a <br> at the start of a
// line (Gmail writes one as <div><br></div>). So line numbers in the reply
// match the lines the player typed.
func htmlToText(s string) string {
	var out strings.Builder
	out.Grow(len(s) / 2)
	var (
		pre       int // depth of <pre>
		skip      int // depth of elements whose content is not text
		lineStart = true
		blank     bool // the current block showed only non-breaking spaces
		space     bool // a collapsed space is pending before the next word
	)
	endLine := func() {
		if !lineStart {
			out.WriteByte('\n')
			lineStart = true
		}
		space = false
	}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return finishText(out.String())
		case html.TextToken:
			if skip > 0 {
				continue
			}
			text := z.Text()
			if pre > 0 {
				t := strings.ReplaceAll(normalise(string(text)), "\u00a0", " ")
				out.WriteString(t)
				lineStart = strings.HasSuffix(t, "\n") || (lineStart && t == "")
				continue
			}
			// Words are separated by white space and non-breaking spaces;
			// a text of nothing but non-breaking spaces at the start of a
			// line is a blank line in the making.
			words, sawNBSP := 0, false
			for i := 0; i < len(text); {
				r, n := rune(text[i]), 1
				if r >= utf8.RuneSelf {
					r, n = utf8.DecodeRune(text[i:])
				}
				if r == '\u00a0' || r < utf8.RuneSelf && isSpaceByte(byte(r)) {
					sawNBSP = sawNBSP || r == '\u00a0'
					space = space || !lineStart
					i += n
					continue
				}
				j := i
				for j < len(text) {
					r, n := rune(text[j]), 1
					if r >= utf8.RuneSelf {
						r, n = utf8.DecodeRune(text[j:])
					}
					if r == '\u00a0' || r < utf8.RuneSelf && isSpaceByte(byte(r)) {
						break
					}
					j += n
				}
				if space && !lineStart {
					out.WriteByte(' ')
				}
				out.Write(text[i:j])
				lineStart, space, blank = false, false, false
				words++
				i = j
			}
			if words == 0 && sawNBSP && lineStart {
				blank = true
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			nameBytes, _ := z.TagName()
			name := string(nameBytes)
			closing := tt == html.EndTagToken
			switch {
			case skipTags[name]:
				if tt == html.StartTagToken {
					skip++
				} else if closing && skip > 0 {
					skip--
				}
			case skip > 0:
			case name == "br":
				// Ends the line; at the start of a line, an empty line.
				out.WriteByte('\n')
				lineStart, space, blank = true, false, false
			case name == "pre":
				endLine()
				if closing {
					pre = max(pre-1, 0)
				} else if tt == html.StartTagToken {
					pre++
				}
			case name == "td" || name == "th":
				if !closing && !lineStart {
					space = true
				}
			case blockTags[name]:
				if closing && blank && lineStart {
					out.WriteByte('\n') // a paragraph of &nbsp;: an empty line
				}
				endLine()
				blank = false
			}
		}
	}
}

// finishText trims the spaces collapsing left at line ends and the empty
// lines before the first text.
func finishText(text string) string {
	lines := strings.Split(text, "\n")
	for n, l := range lines {
		lines[n] = strings.TrimRight(l, " ")
	}
	return strings.TrimLeft(strings.Join(lines, "\n"), "\n")
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}
