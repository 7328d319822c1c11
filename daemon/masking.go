package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/store"
)

// No master key in the mailbox (reliability.md, promise 13). Whoever can
// read the game's mailbox — the game account's IMAP password is the one
// key to it — must not find the nations' and the referee's passwords in the
// mail pbem has handled. The store keeps each mail as received for
// mail.keep_raw_days; the intake leaves in the processed mailbox, in the
// mail's place, the copy maskedCopy builds (inbox.MaskedCopy): the header,
// and the text pbem read with every password masked.

// maskedCopy is the intake's Options.Mask: the copy of a handled mail to
// keep in the processed mailbox; nil for a mail whose bytes the store does
// not hold (cleared by mail.keep_raw_days, or over the size limit and never
// fetched): pbem leaves alone what it has not read.
func (g *Game) maskedCopy(_ context.Context, m store.Mail) ([]byte, error) {
	if len(m.Raw) == 0 {
		return nil, nil
	}
	if _, _, tooLarge := inbox.NotFetched(m.Raw); tooLarge {
		return nil, nil
	}
	ex, _ := g.read(m)
	g.lastRead.forget()
	var texts []string
	if ex != nil {
		texts = append(texts, ex.Subject)
		for _, t := range ex.Texts {
			texts = append(texts, t.Text)
		}
	}
	secrets := g.secretsIn(texts...)
	mask := func(s string) string { return maskCopyText(s, secrets) }
	return inbox.MaskedCopy(m.Raw, ex, mask, g.maskNote(m)), nil
}

// readCache holds the last mail the handler read (inbox.Extract), so that
// its masked copy, made by the intake right after, does not read it again:
// for a hostile mail that is as costly as handling it. The copy forgets it.
type readCache struct {
	sync.Mutex
	id   int64
	size int
	ex   *inbox.Extracted
	err  error
}

// read is inbox.Extract of m's bytes, or what it gave for the same mail
// last time.
func (g *Game) read(m store.Mail) (*inbox.Extracted, error) {
	c := &g.lastRead
	c.Lock()
	defer c.Unlock()
	if c.ex != nil && c.id == m.ID && c.size == len(m.Raw) {
		return c.ex, c.err
	}
	ex, err := inbox.Extract(m.Raw, inbox.Limits{OwnAddresses: []string{g.Config.Mail.Address}})
	if ex != nil {
		c.id, c.size, c.ex, c.err = m.ID, len(m.Raw), ex, err
	}
	return ex, err
}

// forget drops the mail read last.
func (c *readCache) forget() {
	c.Lock()
	defer c.Unlock()
	c.ex, c.err = nil, nil
}

// maskNote is the first line of a masked copy.
func (g *Game) maskNote(m store.Mail) string {
	kept := fmt.Sprintf("for %d days after its turn is resolved (mail.keep_raw_days)", g.Config.Mail.KeepRawDays)
	switch {
	case g.Config.Mail.KeepRawDays < 0:
		kept = "for good (mail.keep_raw_days: -1)"
	case g.Config.Mail.KeepRawDays == 0:
		kept = "until its turn is resolved (mail.keep_raw_days: 0)"
	}
	return fmt.Sprintf("this is pbem's copy of a mail it has handled (mail %d), with every password masked (****). "+
		"The mail as received is kept in pbem's store %s.", m.ID, kept)
}

// secretsIn returns the words that follow a PASSWORD keyword on any line of
// texts (PASSWORD x, PASSWORD: x, PASSWORD CHANGE x, RESET PASSWORD nation
// x) — every one, not only the right ones: a wrong password may be one
// letter off a right one. CHANGE and the nations' ids are not secrets.
func (g *Game) secretsIn(texts ...string) []string {
	var out []string
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			_, rest, ok := afterPasswordWord(line)
			if !ok {
				continue
			}
			for _, w := range strings.Fields(rest) {
				w = strings.TrimSuffix(w, ":")
				if w == "" || strings.EqualFold(w, "CHANGE") || slices.Contains(g.Config.NationIDs(), strings.ToLower(w)) {
					continue
				}
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// afterPasswordWord finds the first PASSWORD keyword of a line (a word
// PASSWORD or PASSWORD:, as maskPasswords reads it, or "PASSWORD:secret"
// run together) and splits the line after it.
func afterPasswordWord(line string) (head, rest string, ok bool) {
	pos := 0
	for _, w := range strings.Fields(line) {
		i := strings.Index(line[pos:], w) + pos
		pos = i + len(w)
		bare := strings.TrimLeft(w, ">")
		loc := passwordWord.FindStringIndex(bare)
		if loc == nil || loc[1] != len(bare) && bare[loc[1]-1] != ':' {
			continue
		}
		cut := i + len(w) - len(bare) + loc[1]
		return line[:cut], line[cut:], true
	}
	return line, "", false
}

// maskCopyText masks a text for the copy in the processed mailbox: the rest
// of every line after a PASSWORD keyword, and each secret wherever else it
// stands (maskPasswords).
func maskCopyText(text string, secrets []string) string {
	lines := strings.Split(maskPasswords(text, secrets...), "\n")
	for i, line := range lines {
		head, rest, ok := afterPasswordWord(line)
		if !ok || strings.TrimSpace(rest) == "" {
			continue
		}
		cr := ""
		if strings.HasSuffix(rest, "\r") {
			cr = "\r"
		}
		if !strings.HasSuffix(head, ":") || strings.HasPrefix(rest, " ") {
			head += " "
		}
		lines[i] = head + "****" + cr
	}
	return strings.Join(lines, "\n")
}
