package daemon

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// The referee is authenticated like a player, by two factors: the mail must
// come from the referee's address and pass sender authentication (in the
// embedded mode, sent logged in to pbem's own server as that address; with
// game.require_dkim, signed by its domain), and it must carry the referee's
// own password (game.referee_password) on a PASSWORD line. A mail of
// commands that fails either is refused whole: nothing recorded, no player
// told, the referee told why.

// PolicyFor is the sender-authentication policy of a game: the config's
// (policyFromConfig) and, in the embedded mode, a submission
// required: pbem's own mail server must have recorded that the mail came by
// SMTP from a client logged in as its From address (store.Mail.Arrival,
// read from the server by the intake: see Start).
func PolicyFor(c *config.Config) inbox.AuthPolicy {
	p := policyFromConfig(c)
	p.RequireSubmission = c.Mail.Mode == config.ModeEmbedded
	return p
}

// embeddedAuthServID is the authserv-id the embedded server writes: its
// mail domain.
func embeddedAuthServID(c *config.Config) string {
	return strings.ToLower(strings.TrimSuffix(c.Mail.Embedded.Domain, "."))
}

// refereeHash returns the bcrypt hash of the referee's password, computed
// once: the configured value itself when it is a bcrypt hash already. ""
// when none is configured.
func (g *Game) refereeHash() (string, error) {
	g.referee.once.Do(func() {
		s := g.Config.Game.RefereePassword
		if !s.IsSet() {
			return
		}
		pw, err := s.Value()
		if err != nil {
			g.referee.err = err
			return
		}
		if isBcryptHash(pw.Reveal()) {
			g.referee.hash = pw.Reveal()
			return
		}
		g.referee.hash, g.referee.err = password.Hash(pw.Reveal())
	})
	return g.referee.hash, g.referee.err
}

// isBcryptHash reports a bcrypt hash ("$2a$10$" and 53 characters more).
func isBcryptHash(s string) bool {
	return len(s) == 60 && (strings.HasPrefix(s, "$2a$") || strings.HasPrefix(s, "$2b$") || strings.HasPrefix(s, "$2y$"))
}

// verifyReferee reports whether pw is the referee's password (bcrypt once
// per password, as for the nations).
func (g *Game) verifyReferee(hash, pw string) bool {
	key := sha256.Sum256([]byte("referee\x00" + hash + "\x00" + password.Normalize(pw)))
	g.cache.Lock()
	ok := g.cache.verified[key]
	g.cache.Unlock()
	if ok {
		return true
	}
	if password.Verify(hash, pw) != nil {
		return false
	}
	g.cache.Lock()
	if g.cache.verified == nil {
		g.cache.verified = map[[32]byte]bool{}
	}
	g.cache.verified[key] = true
	g.cache.Unlock()
	return true
}

// refereeRefusal checks the referee's password on a mail of commands. When
// it fails, refused is true and out refuses the whole mail, telling the
// referee (at the registered address) why.
func (g *Game) refereeRefusal(m store.Mail, ex *inbox.Extracted, rs *refcmd.Sheet, st *engine.State) (out outcome, refused bool) {
	var why string
	hash, err := g.refereeHash()
	switch {
	case err != nil:
		why = fmt.Sprintf("the referee password in the config (game.referee_password) cannot be read: %v", err)
	case hash == "":
		why = "no referee password is configured (game.referee_password), and pbem takes referee commands only with one; set it in the config and restart pbem"
	case rs.Password == "":
		why = "the mail has no PASSWORD line"
	case !g.verifyReferee(hash, rs.Password):
		why = fmt.Sprintf("the PASSWORD on line %d is not the referee password", rs.PasswordLine)
	default:
		return outcome{}, false
	}
	g.Log.Warn("referee commands refused", "mail", m.ID, "from", ex.From, "why", why)
	msg := g.reply(m, ex, []string{g.Config.Game.Referee}, MailRefereeOK, "referee", st.Turn,
		fmt.Sprintf("[%s] Referee commands REFUSED", g.ID()),
		templates.Must("referee-refused", map[string]any{"Why": why, "Game": g.ID()}))
	return outcome{status: store.MailAcknowledged, class: ClassRefused, note: "referee: " + why, msgs: []outbox.Message{msg}}, true
}

// refereeNotice tells the referee that a mail that is not the referee's
// held referee commands (a player or a stranger trying to rule): nothing
// was done, and the referee learns whether it carried the referee password.
// nil when the mail holds no referee command or there is no referee. Only
// the text's first maxCommandsBytes are read (commandsPart): every line of
// a text is read as a command, with a diagnostic for each that is not one,
// and half a megabyte of order lines cost some 75 MB of garbage and a
// diagnostic a line held at once.
func (g *Game) refereeNotice(m store.Mail, ex *inbox.Extracted) *outbox.Message {
	ref := g.Config.Game.Referee
	if ref == "" || ex == nil {
		return nil
	}
	rs := refcmd.Parse(commandsPart(ex.Text), nil, g.Zone)
	if len(rs.Commands) == 0 {
		return nil
	}
	carried := false
	if hash, err := g.refereeHash(); err == nil && hash != "" && rs.Password != "" {
		carried = g.verifyReferee(hash, rs.Password)
	}
	msg := g.message(MailNotice, "referee", -1, "referee-commands."+store.SHA256Hex(m.Raw), []string{ref},
		fmt.Sprintf("[%s] Referee commands from %s refused", g.ID(), ex.From),
		templates.Must("referee-commands-notice", map[string]any{"From": ex.From, "Password": carried}), mailDate(m))
	return &msg
}

// maxCommandsBytes is how much of a text refereeNotice reads for referee
// commands: some 2,000 lines, far more than a referee's mail of commands
// ever holds. Nothing in a mail that is not the referee's is carried out
// whatever it holds; the notice only tells the referee of the attempt.
const maxCommandsBytes = 64 << 10

// commandsPart is the part of a text refereeNotice reads for commands: all
// of it, or for a text over maxCommandsBytes its lines up to that size.
func commandsPart(text string) string {
	if len(text) <= maxCommandsBytes {
		return text
	}
	text = text[:maxCommandsBytes]
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[:i+1]
	}
	return text
}
