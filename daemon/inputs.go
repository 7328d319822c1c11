package daemon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// The turn's inputs as stored data. A sheet in force is kept three ways: the
// text as received (its passwords masked), the canonical text the
// acknowledgment printed, and the accepted orders as engine data — a JSON
// array of order envelopes (engine.MarshalOrder) — with the edition and a
// hash of its rule tables. The turn runner reads the engine data only
// (SheetsInForce): the sheet is never parsed again, so a pbem upgraded in
// mid-turn cannot change orders a player was told were accepted.

// rulesVersion identifies the exact rule tables of an edition: the first 16
// hex digits of the SHA-256 of the ruleset value as JSON. Two builds whose
// tables differ in any number give different versions.
func rulesVersion(r *ruleset.Ruleset) string {
	b, err := json.Marshal(r)
	if err != nil {
		// A table that cannot be written as JSON still has an identity:
		// its Go syntax.
		b = fmt.Appendf(nil, "%#v", *r)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// encodeOrders writes orders as the stored JSON: an array of envelopes, in
// sheet order.
func encodeOrders(list []engine.Order) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, o := range list {
		env, err := engine.MarshalOrder(o)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(env)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// decodeOrders reads what encodeOrders wrote.
func decodeOrders(data []byte) ([]engine.Order, error) {
	var envs []json.RawMessage
	if err := json.Unmarshal(data, &envs); err != nil {
		return nil, err
	}
	out := make([]engine.Order, 0, len(envs))
	for i, e := range envs {
		o, err := engine.UnmarshalOrder(e)
		if err != nil {
			return nil, fmt.Errorf("order %d: %w", i+1, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// SheetsInForce returns the orders of every nation's sheet in force for a
// turn, ordered by nation, decoded from the engine data stored when each
// sheet was checked; nations without a sheet in force are left out. A sheet
// stored under another edition, or before pbem kept orders as engine data,
// is an error naming the nation: it is never parsed again. A sheet checked
// under other rule tables of the same edition (pbem upgraded in mid-turn)
// counts as the player was told, and is logged.
func (g *Game) SheetsInForce(ctx context.Context, turn int) ([]engine.Orders, error) {
	if g.seamOnly != nil {
		return g.campaignSheetsInForce(ctx, turn) // seam_turn.go
	}
	subs, err := g.DB.SubmissionsInForce(ctx, g.ID(), turn, KindOrders)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Orders, 0, len(subs))
	for _, s := range subs {
		if s.Orders == nil {
			return nil, fmt.Errorf("the sheet in force for %s, turn %d (receipt %s), was stored before pbem kept orders as engine data: "+
				"ask %s to send it again", s.Nation, turn, s.ReceiptHash, g.nationName(game.NationID(s.Nation)))
		}
		if s.Ruleset != "" && s.Ruleset != g.Rules.ID {
			return nil, fmt.Errorf("the sheet in force for %s, turn %d, was checked under ruleset %s, but the game plays %s",
				s.Nation, turn, s.Ruleset, g.Rules.ID)
		}
		if s.RulesVersion != "" && s.RulesVersion != g.rulesVersion() {
			g.Log.Warn("a sheet in force was checked under other rule tables; it counts as acknowledged",
				"nation", s.Nation, "turn", turn, "receipt", s.ReceiptHash, "checked_under", s.RulesVersion, "now", g.rulesVersion())
		}
		list, err := decodeOrders(s.Orders)
		if err != nil {
			return nil, fmt.Errorf("the stored orders of %s, turn %d (receipt %s), are damaged: %w", s.Nation, turn, s.ReceiptHash, err)
		}
		out = append(out, engine.Orders{Nation: game.NationID(s.Nation), Turn: turn, List: list})
	}
	return out, nil
}

// rulesVersion is rulesVersion of the game's edition, worked out once.
func (g *Game) rulesVersion() string {
	g.rulesOnce.Do(func() { g.rulesVer = rulesVersion(g.Rules) })
	return g.rulesVer
}

// passwordWord matches a word PASSWORD (or PASSWORD: with the password run
// on) as a sheet writes it, whatever its case.
var passwordWord = regexp.MustCompile(`(?i)^password:?`)

// maskPasswords returns a sheet's text with every password replaced by
// ****: the word after PASSWORD (or PASSWORD:) on any line, the word after
// PASSWORD CHANGE, and anywhere else each of the given passwords stands as
// a word of its own. The text kept for the record never holds a password.
func maskPasswords(text string, passwords ...string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = maskLine(line, passwords)
	}
	return strings.Join(lines, "\n")
}

func maskLine(line string, passwords []string) string {
	type span struct{ start, end int }
	var words []span
	in := false
	for i, r := range line {
		sp := r == ' ' || r == '\t' || r == '\r'
		switch {
		case !sp && !in:
			words = append(words, span{start: i})
			in = true
		case sp && in:
			words[len(words)-1].end = i
			in = false
		}
	}
	if in {
		words[len(words)-1].end = len(line)
	}
	mask := make([]bool, len(words))
	colon := make([]int, len(words)) // PASSWORD:secret — where the secret starts
	for i, w := range words {
		word := line[w.start:w.end]
		// A quoted line ("> PASSWORD x") keeps its marker apart.
		bare := strings.TrimLeft(word, ">")
		if loc := passwordWord.FindStringIndex(bare); loc != nil && (loc[1] == len(bare) || bare[loc[1]-1] == ':') {
			if loc[1] < len(bare) {
				colon[i] = len(word) - len(bare) + loc[1]
				mask[i] = true
				continue
			}
			j := i + 1
			if j < len(words) && strings.EqualFold(strings.TrimSuffix(line[words[j].start:words[j].end], ":"), "CHANGE") {
				j++
			}
			if j < len(words) {
				mask[j] = true
			}
			continue
		}
		for _, p := range passwords {
			if p != "" && word == p {
				mask[i] = true
			}
		}
	}
	var b strings.Builder
	last := 0
	for i, w := range words {
		if !mask[i] {
			continue
		}
		start := w.start + colon[i]
		b.WriteString(line[last:start])
		b.WriteString("****")
		last = w.end
	}
	b.WriteString(line[last:])
	out := b.String()
	// A password of some length written anywhere else (PASSWORD=secret,
	// inside quotation marks) goes too.
	for _, p := range passwords {
		if len(p) >= 4 {
			out = strings.ReplaceAll(out, p, "****")
		}
	}
	return out
}

// ordersSubmission is the stored form of a sheet's accepted orders.
func (g *Game) ordersSubmission(base store.Submission, orders []engine.Order) (store.Submission, error) {
	js, err := encodeOrders(orders)
	if err != nil {
		return store.Submission{}, err
	}
	base.Orders, base.Ruleset, base.RulesVersion = js, g.Rules.ID, g.rulesVersion()
	return base, nil
}
