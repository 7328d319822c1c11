package parser

import (
	"fmt"
	"strings"
)

// orderSynonyms are the words players write for an order keyword, by
// their folded spelling: MARCH E1 TO Leipsk means MOVE. They are never
// accepted as orders (a sheet says what it means in one language); they
// only make the error suggest the right keyword and show the line
// corrected.
var orderSynonyms = map[string]string{
	"march": "MOVE", "go": "MOVE", "advance": "MOVE", "travel": "MOVE",
	"siege": "BESIEGE", "invest": "BESIEGE",
	"storm": "ASSAULT",
	"board": "EMBARK", "land": "DEBARK", "disembark": "DEBARK", "unload": "DEBARK",
	"divide": "SPLIT", "join": "MERGE", "combine": "MERGE",
}

// stanceWords are the stances: written as the first word ("ATTACK E2"),
// they are a STANCE order the wrong way round.
var stanceWords = map[string]string{"attack": "ATTACK", "defend": "DEFEND"}

// forceFirstKeywords are the orders whose first argument is a force: "E1
// STANCE DEFEND" is STANCE E1 DEFEND written force first.
var forceFirstKeywords = map[string]bool{
	"MOVE": true, "STANCE": true, "RETREAT": true, "PURSUE": true, "SPLIT": true, "MERGE": true,
	"GARRISON": true, "FIELDWORKS": true, "BESIEGE": true, "MASK": true, "ASSAULT": true, "BOMBARD": true,
	"EMBARK": true, "SAIL": true, "DEBARK": true, "FLEET": true, "REPAIR": true, "DISBAND": true,
}

// keywordCorrection recognises a line that starts with a word players use
// for an order but is not its keyword — a synonym (MARCH E1 TO Leipsk), a
// stance (ATTACK E2), or the force before the keyword (E1 STANCE DEFEND) —
// and returns the error's message and a hint showing the corrected line.
func keywordCorrection(text string, items []item) (msg, hint string, ok bool) {
	if len(items) == 0 || items[0].typ != itemWord {
		return "", "", false
	}
	first := items[0]
	rest := func(i int) string { // the line after item i, as written
		if i+1 >= len(items) || items[i+1].typ == itemEOL {
			return ""
		}
		return " " + strings.TrimSpace(text[items[i].end:])
	}
	w := fold(first.val)
	if kw, ok := orderSynonyms[w]; ok {
		line := kw + rest(0)
		return fmt.Sprintf("%s is not an order keyword; did you mean %s?", first.quoted(), kw),
			fmt.Sprintf("Write the order with its keyword: %s", line), true
	}
	if stance, ok := stanceWords[w]; ok {
		force := "E2"
		if len(items) > 1 && items[1].typ == itemWord && forceIDPattern.MatchString(items[1].val) {
			force = strings.ToUpper(items[1].val)
		}
		return fmt.Sprintf("%s is a stance, not an order keyword; did you mean STANCE %s %s?", first.quoted(), force, stance),
			fmt.Sprintf("A force's stance is set with STANCE, the force, then ATTACK or DEFEND: STANCE %s %s", force, stance), true
	}
	if forceIDPattern.MatchString(first.val) && len(items) > 1 && items[1].typ == itemWord {
		kw, _ := match(items[1].val, orderKeywords)
		if kw == "" {
			if s, ok := orderSynonyms[fold(items[1].val)]; ok {
				kw = s
			}
		}
		if forceFirstKeywords[kw] {
			force := strings.ToUpper(first.val)
			line := kw + " " + force + rest(1)
			return fmt.Sprintf("an order starts with its keyword, read the force %s first; did you mean %s?", first.quoted(), line),
				fmt.Sprintf("Write the keyword first, then the force: %s", line), true
		}
	}
	return "", "", false
}
