package parser

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// orderKeywords are the words that may begin a statement, in the order the
// reference lists them. Every one is matched case-insensitively and by unique
// prefix (minPrefix letters at least).
var orderKeywords = []string{
	"MOVE", "STANCE", "RETREAT", "PURSUE", "NO", "ON", "SLOW", "SPLIT", "MERGE", "ASSIGN", "DETACH",
	"GARRISON", "FIELDWORKS", "BESIEGE", "MASK", "ASSAULT", "BOMBARD", "EMBARK", "SAIL", "DEBARK",
	"FLEET", "SUPPLY", "WITHDRAW", "REPAIR", "SPECIAL",
	"BUY", "FIELD", "DISBAND", "TRANSFER", "TREASURY", "TEMPORARY",
	"TREATY", "ATTEST", "LIFT", "REQUEST", "PASSWORD", "FINAL", "FORECAST",
}

// minPrefix is the shortest abbreviation accepted for a keyword longer than
// it: "MOV" for MOVE, "GAR" for GARRISON. Shorter words must be exact.
const minPrefix = 3

// match finds word among options, ignoring case: an exact match first, else
// the one option it is a prefix of (at least minPrefix letters). It returns
// the option matched, or the options the prefix is ambiguous between.
func match(word string, options []string) (string, []string) {
	w := fold(word)
	for _, o := range options {
		if foldedIs(o, w, false) {
			return o, nil
		}
	}
	if utf8.RuneCountInString(w) < minPrefix {
		return "", nil
	}
	var hits []string
	for _, o := range options {
		if foldedIs(o, w, true) {
			hits = append(hits, o)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

// foldedIs reports whether fold(o) is w (prefix false) or starts with w
// (prefix true), without building fold(o): match runs for every line of
// every mail read, against every keyword.
func foldedIs(o, w string, prefix bool) bool {
	i := 0
	var buf [utf8.UTFMax]byte
	for _, r := range o {
		if prefix && i == len(w) {
			return true
		}
		n := utf8.EncodeRune(buf[:], unicode.ToLower(r))
		if i+n > len(w) || w[i:i+n] != string(buf[:n]) {
			return false
		}
		i += n
	}
	return i == len(w)
}

// startsWithKeyword reports whether a line begins with a word that starts a
// statement (an order keyword, a header keyword, END or ENDTREATY): such a
// line is never joined to the one before.
func startsWithKeyword(s string) bool {
	w := strings.Trim(firstWord(s), ".")
	if w == "" {
		return false
	}
	if w == "end" || w == "endtreaty" {
		return true
	}
	if kw, _ := match(w, orderKeywords); kw != "" {
		return true
	}
	kw, _ := match(w, headerKeywords)
	return kw != ""
}

// suggest returns the candidates nearest to word by edit distance, if any is
// near enough to be a likely misspelling: within 1 edit for words of up to 4
// letters, 2 up to 8, else 3. Ties are all returned, in candidate order.
func suggest(word string, candidates []string) []string {
	w := fold(word)
	n := utf8.RuneCountInString(w)
	limit := 1
	switch {
	case n > 8:
		limit = 3
	case n > 4:
		limit = 2
	}
	best := limit + 1
	var out []string
	for _, c := range candidates {
		fc := fold(c)
		d := distance(w, fc)
		if d == 0 {
			continue
		}
		// A candidate that starts with the word is a likely abbreviation.
		if strings.HasPrefix(fc, w) && n >= 2 {
			d = min(d, 1)
		}
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best && !slices.Contains(out, c):
			out = append(out, c)
		}
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// distance is the optimal-string-alignment edit distance (insertions,
// deletions, substitutions and transpositions of adjacent letters) between a
// and b, by runes. Words of more than maxDistanceRunes runes are 99 apart
// unless equal. It allocates nothing, however long a or b (a mail's first
// word can be a megabyte of broken base64).
func distance(a, b string) int { return editDistance(a, b, false) }

// editDistance is distance, between fold(a) and fold(b) if lower.
func editDistance(a, b string, lower bool) int {
	var ra, rb [maxDistanceRunes]rune
	na, okA := toRunes(a, &ra, lower)
	nb, okB := toRunes(b, &rb, lower)
	if !okA || !okB {
		if a == b || lower && foldEqual(a, b) {
			return 0
		}
		return 99
	}
	var rows [3][maxDistanceRunes + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= nb; j++ {
		prev[j] = j
	}
	for i := 1; i <= na; i++ {
		cur[0] = i
		for j := 1; j <= nb; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[nb]
}

// foldEqual reports whether fold(a) == fold(b), without building either.
func foldEqual(a, b string) bool {
	for _, r := range a {
		if b == "" {
			return false
		}
		q, n := utf8.DecodeRuneInString(b)
		if unicode.ToLower(r) != unicode.ToLower(q) {
			return false
		}
		b = b[n:]
	}
	return b == ""
}

// maxDistanceRunes is the longest word distance measures.
const maxDistanceRunes = 64

// toRunes decodes s into buf, lower-cased (as fold does) if lower; false
// when s has more runes than buf holds.
func toRunes(s string, buf *[maxDistanceRunes]rune, lower bool) (int, bool) {
	n := 0
	for _, r := range s {
		if n == len(buf) {
			return 0, false
		}
		if lower {
			r = unicode.ToLower(r)
		}
		buf[n] = r
		n++
	}
	return n, true
}

// orList joins words as "A", "A or B", "A, B or C".
func orList(words []string) string { return joinList(words, "or") }

// andList joins words as "A", "A and B", "A, B and C".
func andList(words []string) string { return joinList(words, "and") }

func joinList(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// didYouMean formats a suggestion: "; did you mean E2?" or "".
func didYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return "; did you mean " + orList(s) + "?"
}

func itoa(n int) string { return strconv.Itoa(n) }
