package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/parser"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// Classifications recorded on each mail row: what the daemon made of it.
const (
	ClassOrders        = "orders"         // an order sheet (treaties, requests, password changes ride on sheets)
	ClassReferee       = "referee"        // commands from the referee
	ClassRefused       = "refused"        // a sheet refused whole (wrong password, turn, game or nation)
	ClassNoSheet       = "no-sheet"       // from a registered sender but no sheet in it: answered with help
	ClassUnknownSender = "unknown-sender" // not registered: answered without game data
	ClassSpoof         = "spoof"          // two From headers, DKIM required and missing, …
	ClassAutomatic     = "automatic"      // auto-reply, bounce, loop: never answered
	ClassUnreadable    = "unreadable"     // too large, too deep, too slow, broken: answered if the sender is known
	ClassDuplicate     = "duplicate"      // the same Message-ID from the same sender was handled already
	ClassLate          = "late"           // a sheet that arrived after the deadline: answered, not counted
	ClassInternal      = "internal-error" // handling it panicked: quarantined, the sender and the referee told
	ClassGameOver      = "game-over"      // a player's mail after the victory ended the game: answered with the result, nothing recorded
)

// Submission kinds written to the store.
const (
	KindOrders  = "orders"  // a nation's accepted order sheet, in canonical form
	KindTreaty  = "treaty"  // a treaty proposed on a sheet
	KindAttest  = "attest"  // an attestation of another nation's treaty
	KindRequest = "request" // a special-action request; ReceiptHash holds its token
	KindRuling  = "ruling"  // the referee's APPROVE, DENY, BREACH or LIFT as engine.Ruling JSON (rulings.go); Nation is the requester ("referee" for BREACH, LIFT), ReceiptHash the token
	KindReferee = "referee" // any other referee command, for the turn runner
)

// Outbox kinds of the mails the daemon sends.
const (
	MailAck       = "ack"         // the answer to an order sheet
	MailHelp      = "help"        // the answer to a mail that holds no sheet or could not be read
	MailNotice    = "notice"      // a warning to a nation's owner (or the referee) about mail in their name
	MailRequest   = "request"     // a player's request, forwarded to the referee
	MailRuling    = "ruling"      // the referee's ruling, told to the player
	MailRefereeOK = "referee-ack" // the answer to the referee's commands
)

// HandleMail is the intake's handler: it reads one stored mail, decides what
// it is and who sent it, checks it, and records the result with the answers
// to send — all in one transaction, which also moves the mail's status on
// (see commit). That transaction is HandleMail's only write, so a crash at
// any instant leaves either nothing done (the intake calls again, and the
// mail is handled as if for the first time) or everything done (the mail is
// no longer stored, and HandleMail leaves it alone). Answers are dated by the
// mail's arrival and their Message-IDs made from it, so the same mail gives
// the same answers.
//
// A panic while handling is recovered: the mail is quarantined, its
// registered sender told that nothing on it was done, and the referee told
// which mail it was.
func (g *Game) HandleMail(ctx context.Context, m store.Mail) (err error) {
	// The row passed in may be stale (a retry after a crash): go by the
	// store's current status.
	cur, err := g.DB.MailHead(ctx, m.ID)
	if err != nil {
		return err
	}
	if cur.Status != store.MailStored {
		return nil
	}
	// A mail's bytes never change: keep the ones passed in rather than
	// reading a large mail again.
	if raw := m.Raw; len(raw) > 0 {
		m = cur
		m.Raw = raw
	} else if m, err = g.DB.Mail(ctx, m.ID); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			g.Log.Error("panic while handling a mail; it is quarantined and its sender told", "mail", m.ID, "from", m.From,
				"panic", p, "stack", string(debug.Stack()))
			err = g.commit(ctx, m, g.internalError(m, p))
		}
	}()
	out, err := g.decide(ctx, m)
	if err != nil {
		return err
	}
	err = g.commit(ctx, m, out)
	if errors.Is(err, errTurnMoved) {
		// The turn runner resolved the turn while the mail was being
		// checked against it: check it again against the turn now open.
		if out, err = g.decide(ctx, m); err != nil {
			return err
		}
		err = g.commit(ctx, m, out)
	}
	return err
}

// outcome is what handling a mail decided: the mail's new status and
// classification, the mails to send, the submissions to save, and the
// Message-ID it claims; commit writes it all in one transaction.
type outcome struct {
	status store.MailStatus
	class  string
	note   string // the mail row's error text: why it was refused or ignored
	msgs   []outbox.Message
	save   func(ctx context.Context, tx *store.Tx) error // submissions and the like; nil for none
	claim  *store.MailClaim                              // the mail's sender, Message-ID and text, marked as handled; nil for none
	opened turnKey                                       // the turn record the decision read; commit checks it is still the latest (zero: no check)
	close  *closeCheck                                   // closing.go: the turn's early close the decision saw; commit checks it still holds (nil: no check)
}

// dkimRetryWindow is how long a mail whose DKIM check met a DNS failure is
// retried before it is refused like any mail that fails the check.
const dkimRetryWindow = 30 * time.Minute

// decide reads the mail and works out its outcome. It writes nothing.
func (g *Game) decide(ctx context.Context, m store.Mail) (outcome, error) {
	ex, xerr := g.read(m) // masking.go: read once, for the masked copy too
	if size, limit, ok := inbox.NotFetched(m.Raw); ok && xerr == nil {
		// Only the header of a mail over the size limit was fetched.
		if auto, _ := ex.IsAutomatic(); !auto {
			xerr = fmt.Errorf("your mail was %d bytes, over the limit of %d bytes, so only its header was read", size, limit)
		}
	}
	if xerr != nil {
		g.Log.Warn("mail refused by extraction", "mail", m.ID, "from", m.From, "err", xerr)
		return g.answerUnreadable(m, ex, xerr), nil
	}
	if auto, why := ex.IsAutomatic(); auto {
		g.Log.Info("automatic mail not answered", "mail", m.ID, "from", m.From, "why", why)
		return outcome{status: store.MailIgnored, class: ClassAutomatic, note: why}, nil
	}
	auth := inbox.Authenticate(ex, m.Raw, m.Arrival, PolicyFor(g.Config))
	switch {
	case auth.Verdict == inbox.DKIMTempError && g.Now().Sub(mailDate(m)) < dkimRetryWindow:
		// A DNS failure says nothing about the mail: try again later (the
		// intake keeps later mail waiting behind it, in arrival order).
		return outcome{}, fmt.Errorf("DKIM check of mail %d could not reach DNS; will retry: %s", m.ID, auth.Reason)
	case auth.Verdict == inbox.UnknownSender:
		return g.answerUnknownSender(ctx, m, ex)
	case !auth.OK():
		g.Log.Warn("mail refused by sender authentication", "mail", m.ID, "verdict", auth.Verdict, "reason", auth.Reason)
		return g.answerSpoof(m, ex, auth), nil
	}
	// Only mail that passed authentication claims its Message-ID: a forged
	// mail carrying the Message-ID of a real one must not get the real one
	// dropped as a duplicate.
	claim := mailClaim(ex)
	if claim != nil {
		v, ok, err := g.DB.ClaimedBy(ctx, *claim)
		if err != nil {
			return outcome{}, err
		}
		if ok && v != m.ID {
			out := outcome{status: store.MailIgnored, class: ClassDuplicate,
				note: fmt.Sprintf("same Message-ID and text from the same sender as mail %d, handled before", v)}
			if auth.Referee && len(auth.Nations) == 0 {
				// A replayed mail of commands: the referee hears of it.
				out.msgs = append(out.msgs, g.reply(m, ex, []string{g.Config.Game.Referee}, MailNotice, "referee", -1,
					fmt.Sprintf("[%s] A repeated mail was ignored", g.ID()),
					templates.Must("replay-notice", map[string]any{"MessageID": "<" + ex.MessageID + ">"})))
			}
			return out, nil
		}
	}
	var out outcome
	var err error
	if auth.Referee && len(auth.Nations) == 0 {
		out, err = g.handleReferee(ctx, m, ex)
	} else {
		out, err = g.handleSheet(ctx, m, ex, auth)
		if err == nil && (out.class == ClassNoSheet || out.class == ClassRefused) {
			// A player's mail that is no sheet but holds referee commands
			// (a player trying to rule): the referee hears of it.
			if notice := g.refereeNotice(m, ex); notice != nil {
				out.msgs = append(out.msgs, *notice)
			}
		}
	}
	out.claim = claim
	return out, err
}

// mailClaim is what the first mail with a given sender, Message-ID and text
// is recorded under (store.Claim): a resend rewritten by a relay has new
// bytes (other headers, another transfer encoding) but the same Message-ID
// and the same text, and is the same mail; a different text under a reused
// Message-ID (a client that reuses ids, an edited draft sent again) is a new
// mail. nil for a mail without a Message-ID.
func mailClaim(ex *inbox.Extracted) *store.MailClaim {
	if ex.MessageID == "" || ex.From == "" {
		return nil
	}
	h := sha256.New()
	for _, t := range ex.Texts {
		h.Write([]byte(t.Name + "\x00" + t.Text + "\x00"))
	}
	return &store.MailClaim{Sender: ex.From, MessageID: ex.MessageID, TextSHA: hex.EncodeToString(h.Sum(nil)[:12])}
}

// errAlreadyHandled aborts a commit for a mail that is no longer stored.
var errAlreadyHandled = errors.New("the mail was handled already")

// commit records an outcome in one transaction: the submissions, the
// outbox rows, the Message-ID claim and the mail's new status. A mail that
// is no longer stored when the transaction starts is left as it is, so two
// handlers racing on one mail cannot both record it.
func (g *Game) commit(ctx context.Context, m store.Mail, out outcome) error {
	err := g.DB.Update(ctx, func(tx *store.Tx) error { return g.record(ctx, tx, m, out) })
	if errors.Is(err, errAlreadyHandled) {
		return nil
	}
	return err
}

// record is commit's work inside a transaction; errAlreadyHandled for a
// mail no longer stored.
func (g *Game) record(ctx context.Context, tx *store.Tx, m store.Mail, out outcome) error {
	cur, err := tx.MailHead(ctx, m.ID)
	if err != nil {
		return err
	}
	if cur.Status != store.MailStored {
		return errAlreadyHandled
	}
	if err := g.checkOpened(ctx, tx, out.opened); err != nil {
		return err
	}
	if err := checkClose(ctx, tx, g.ID(), out.close); err != nil {
		return err
	}
	if out.save != nil {
		if err := out.save(ctx, tx); err != nil {
			return err
		}
	}
	for _, msg := range out.msgs {
		if err := g.enqueue(ctx, tx, msg); err != nil {
			return err
		}
	}
	if out.claim != nil {
		if err := tx.Claim(ctx, *out.claim, m.ID); err != nil {
			return err
		}
	}
	if g.beforeCommit != nil {
		if err := g.beforeCommit(m); err != nil {
			return err
		}
	}
	return tx.SetMailStatus(ctx, m.ID, out.status, out.class, out.note)
}

// enqueue stores an outbox row. A row already queued under the same
// Message-ID is left as it is: with the same bytes that is a repeat after a
// crash; with other bytes it is a mail meant to go once (a request forwarded
// again from a corrected sheet, the answer to an unknown address).
func (g *Game) enqueue(ctx context.Context, tx *store.Tx, msg outbox.Message) error {
	row, err := outbox.Row(msg)
	if err != nil {
		return err
	}
	if _, err := tx.Enqueue(ctx, row); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		g.Log.Info("a mail with this Message-ID was queued before; the first one stands", "message_id", row.MessageID, "kind", row.Kind)
	}
	return nil
}

// mailDate is the date of pbem's mails about a received mail: when pbem
// fetched it (this machine's clock, stored with it, so a retry builds the
// same bytes), or for a row older than that column its arrival. Never the
// server's stamp: a server clock running ahead would date an answer in the
// future, and the outbox would hold it until then.
func mailDate(m store.Mail) time.Time {
	if !m.FetchedAt.IsZero() {
		return m.FetchedAt
	}
	return m.ReceivedAt
}

// reply builds an answer to mail m, threaded to it and dated by its arrival
// so that a repeat builds the same bytes.
func (g *Game) reply(m store.Mail, ex *inbox.Extracted, to []string, kind, nation string, turn int, subject, text string) outbox.Message {
	msg := g.message(kind, nation, turn, store.SHA256Hex(m.Raw), to, subject, text, mailDate(m))
	if ex != nil && ex.MessageID != "" {
		msg.InReplyTo = ex.MessageID
		msg.References = append(append([]string(nil), ex.References...), ex.MessageID)
	}
	return msg
}

// message builds a mail from the game's address. key tells apart mails of
// the same kind, nation and turn (see outbox.Message.Key).
func (g *Game) message(kind, nation string, turn int, key string, to []string, subject, text string, date time.Time) outbox.Message {
	addrs := make([]mail.Address, 0, len(to))
	for _, a := range to {
		addrs = append(addrs, mail.Address{Address: a})
	}
	if date.IsZero() {
		date = g.Now()
	}
	return outbox.Message{
		Game: g.ID(), Turn: turn, Nation: nation, Kind: kind, Key: key, Priority: priorityOf(kind),
		From:    mail.Address{Name: g.Config.Game.Name, Address: g.Config.Mail.Address},
		To:      addrs,
		Subject: subject,
		Date:    date.UTC(),
		Text:    text,
	}
}

// priorityOf is a mail's place in the outbox's send order under a
// provider's pace (outbox/doc.go): the answers people wait for — to a
// sheet, to the referee's commands, a preview asked for — first; then the
// reports; then reminders, notices and the rest.
func priorityOf(kind string) outbox.Priority {
	switch kind {
	case MailAck, MailHelp, MailRefereeOK, MailPreview:
		return outbox.PriorityAnswer
	case MailReport, MailRefereeReport, MailStartReport, MailVictory, MailBattleSheet:
		return outbox.PriorityReport
	}
	return outbox.PriorityNotice
}

// registered is the nation's first registered address: where its mail goes.
func (g *Game) registered(n game.NationID) string {
	if c, ok := g.Config.Game.Nations[string(n)]; ok && len(c.Addresses) > 0 {
		return c.Addresses[0]
	}
	return ""
}

// owner is a nation, or the referee, with the address its mail goes to.
type owner struct {
	nation  string // a nation id, or "referee"
	address string // the registered address answers go to
}

// ownersOf returns who any of addrs is registered to: each nation (sorted),
// then the referee, one per address mail goes to. Mail about a mail goes to
// these registered addresses, never to the addresses the mail itself names.
func (g *Game) ownersOf(addrs []string) []owner {
	has := func(reg string) bool {
		return slices.ContainsFunc(addrs, func(a string) bool { return strings.EqualFold(strings.TrimSpace(a), reg) })
	}
	var out []owner
	add := func(o owner) {
		if !slices.ContainsFunc(out, func(p owner) bool { return strings.EqualFold(p.address, o.address) }) {
			out = append(out, o)
		}
	}
	for _, id := range g.Config.NationIDs() {
		if slices.ContainsFunc(g.Config.Game.Nations[id].Addresses, has) {
			add(owner{nation: id, address: g.registered(game.NationID(id))})
		}
	}
	if ref := g.Config.Game.Referee; ref != "" && has(ref) {
		add(owner{nation: "referee", address: ref})
	}
	return out
}

// nationName is the nation's name for people ("Eisenmark").
func (g *Game) nationName(n game.NationID) string {
	if g.Map == nil {
		return g.campaignNationName(n) // seam.go
	}
	if nat, ok := g.Map.Nation(n); ok {
		return nat.Name
	}
	return string(n)
}

// nationNames is nationName for a list, joined with commas.
func (g *Game) nationNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = g.nationName(game.NationID(id))
	}
	return strings.Join(names, ", ")
}

// findSheet returns the first text of the mail that holds an order sheet
// (the body, then .txt attachments, then text from HTML), or the body,
// with the sheet's header only (parser.ParseHeader): the checker reads the
// rest, once, within its own limit.
func findSheet(ex *inbox.Extracted, v *parser.Vocabulary) (string, *parser.Sheet) {
	for _, t := range ex.Texts {
		if sh := parser.ParseHeader(t.Text, v); sh.Header.Found {
			return t.Text, sh
		}
	}
	return ex.Text, parser.ParseHeader(ex.Text, v)
}

// pickNation chooses the nation a sheet is for: the one the sender is
// registered for, or, for an address registered for several, the one the
// sheet names. "" when the sheet names a nation the sender may not write
// for, or names none and the sender writes for several.
func pickNation(registered []string, named game.NationID) game.NationID {
	if named != "" {
		if slices.Contains(registered, string(named)) {
			return named
		}
		return ""
	}
	if len(registered) == 1 {
		return game.NationID(registered[0])
	}
	return ""
}
