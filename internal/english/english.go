// Package english is pbem's one place for the grammar of counts: a number
// and a noun that agree ("1 gun", "2 guns", "1 city", "3 cities"), a verb
// that agrees with its count ("was", "were"), a scouting estimate ("a few
// guns", "about 40 infantry") and a list of words ("A, B and C").
//
// Every sentence pbem writes with a count in it — reports, battle
// narratives, the checker's replies, the daemon's answers, status, the
// demo's summary — goes through Count (or Noun, when the number is printed
// apart from its noun), so that "1 guns" cannot be written by one caller and
// not another.
//
// The plural of a noun is made from its last word by the ordinary rules
// (city → cities, breach → breaches, hex → hexes, gun → guns), with a short
// table of the exceptions pbem's words need: irregular plurals (man → men,
// die → dice) and words that do not change (the mass nouns infantry and
// cavalry — "12 infantry" counts figures of infantry — and abbreviations
// such as MP).
package english

import (
	"strconv"
	"strings"
)

// irregular are the plurals that do not follow the rules.
var irregular = map[string]string{
	"man": "men",
	"die": "dice",
}

// unchanged are words whose plural is the word itself: mass nouns (a count
// of figures of infantry is "12 infantry") and abbreviations.
var unchanged = map[string]bool{
	"infantry": true, "cavalry": true, "artillery": true,
	"mp": true, "sp": true, "pv": true, "kib": true, "mib": true,
}

// Plural returns the plural of noun. A noun of several words ("sea battle",
// "light-cavalry") changes its last word; capitals are kept ("Grenzer" →
// "Grenzers").
func Plural(noun string) string {
	if noun == "" {
		return ""
	}
	cut := max(strings.LastIndexAny(noun, " -"), -1) + 1
	head, last := noun[:cut], noun[cut:]
	lower := strings.ToLower(last)
	if p, ok := irregular[lower]; ok {
		return head + last[:1] + p[1:]
	}
	if unchanged[lower] {
		return noun
	}
	switch {
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return noun + "es"
	case strings.HasSuffix(lower, "y") && len(lower) > 1 && !strings.ContainsRune("aeiou", rune(lower[len(lower)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Noun returns noun as a count of n needs it: the noun itself for 1 (and
// -1), its plural for any other count ("0 guns", "2 guns").
func Noun(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	return Plural(noun)
}

// Count writes n and the noun in agreement: "1 gun", "0 guns", "3 cities",
// "1 sea battle", "12 infantry".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Agree returns one when n is 1 and many otherwise: the verb or pronoun of
// a count ("1 figure was lost", "3 figures were lost").
func Agree(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}

// Few is what About writes for an estimate below the smallest unit of the
// scouting scale: the scouts saw some, too few to put a number on.
const Few = "a few"

// About writes a scouting estimate of a noun: "about 40 infantry", "about
// 5 guns", and "a few guns" for a count of 0, which an estimate uses for
// "fewer than the smallest unit it counts in" (ruleset.Approximate). Only
// pass it counts of things the scouts saw at all.
func About(n int, noun string) string {
	if n <= 0 {
		return Few + " " + Plural(noun)
	}
	return "about " + Count(n, noun)
}

// List joins words as prose: "A", "A and B", "A, B and C"; "" for none.
func List(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Ordinal writes a small ordinal in words ("first" … "twentieth"), and
// larger ones in figures ("21st", "22nd", "23rd", "24th").
func Ordinal(n int) string {
	if n >= 1 && n < len(ordinals) {
		return ordinals[n]
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

var ordinals = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
	"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
	"nineteenth", "twentieth"}

// InWords writes a small count of a noun in words, for prose that must not
// carry a figure the reader could take for a measured number: "a general",
// "an officer", "two generals"; from thirteen on in figures, as Count.
func InWords(n int, noun string) string {
	switch {
	case n == 1:
		if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
			return "an " + noun
		}
		return "a " + noun
	case n >= 2 && n < len(cardinals):
		return cardinals[n] + " " + Plural(noun)
	}
	return Count(n, noun)
}

var cardinals = []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
