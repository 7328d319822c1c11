package narrative

import "github.com/syw-pbem/pbem/internal/english"

// The voice of a story. A nation's story is told in the first person of its
// own side ("our columns went forward", "the enemy brought up his
// reserves"); the referee's in the third person, both sides by name
// ("Eisenmark's columns went forward", "Unterreich brought up its
// reserves"), never "our" — the referee fought on neither side. Every word
// that names a side goes through these functions, so a story cannot mix the
// two voices.

// name is a side's nations by name: "Eisenmark", "Eisenmark and Fromande".
func (t *teller) name(side int) string {
	var ns []string
	for _, n := range t.e.Sides[side].Nations {
		ns = append(ns, NationName(n))
	}
	if len(ns) == 0 {
		return "the army"
	}
	return english.List(ns)
}

// allied reports whether a side is more than one nation (a plural subject).
func (t *teller) allied(side int) bool { return len(t.e.Sides[side].Nations) > 1 }

// mine reports whether side is the teller's own (never in the referee's
// story).
func (t *teller) ours(side int) bool { return !t.full && side == t.mine }

// subject names a side as the subject of a sentence: "we", "the enemy",
// "Eisenmark".
func (t *teller) subject(side int) string {
	switch {
	case t.full:
		return t.name(side)
	case side == t.mine:
		return "we"
	}
	return "the enemy"
}

// object names a side as an object: "us", "the enemy", "Eisenmark".
func (t *teller) object(side int) string {
	if t.ours(side) {
		return "us"
	}
	return t.subject(side)
}

// poss names a side as an owner: "our", "the enemy's", "Eisenmark's".
func (t *teller) poss(side int) string {
	switch {
	case t.full:
		return t.name(side) + "'s"
	case side == t.mine:
		return "our"
	}
	return "the enemy's"
}

// pron is the pronoun for a side named already in the sentence: "we",
// "he" (the enemy, as the period told it), "it" (a nation), "they"
// (allies).
func (t *teller) pron(side int) string {
	switch {
	case t.ours(side):
		return "we"
	case !t.full:
		return "he"
	case t.allied(side):
		return "they"
	}
	return "it"
}

// pronObj is pron as an object: "us", "him", "it", "them".
func (t *teller) pronObj(side int) string {
	switch p := t.pron(side); p {
	case "we":
		return "us"
	case "he":
		return "him"
	case "they":
		return "them"
	}
	return "it"
}

// pronPoss is pron as an owner: "our", "his", "its", "their".
func (t *teller) pronPoss(side int) string {
	switch p := t.pron(side); p {
	case "we":
		return "our"
	case "he":
		return "his"
	case "they":
		return "their"
	}
	return "its"
}
