package host

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/mailserver"
)

// Routing. Every game on the host has its own address on the host's server
// (orders+NAME@, its mail.address), whose INBOX its daemon reads; mail sent
// there reaches the game and no other. The host's own address (orders@) is
// shared: the server asks the router, for each message sent to it, before
// storing it (mailserver.Options.Route), which game's INBOX it belongs in:
//
//  1. the game named by the sheet's GAME line, when the host has such a
//     game and the sender plays in it (a nation's address, or the
//     referee's) — or plays in no game on the host at all, whose mail the
//     game answers as it answers any stranger;
//  2. with no GAME line (a referee's commands, a note), the one game the
//     sender plays in;
//  3. otherwise the message stays in the host's INBOX (for the host's
//     operator) and the sender, when logged in to the server, is answered
//     at once with the games they play in and each game's address — in the
//     same transaction as the message is stored.
//
// The sender is who the SMTP client logged in as (what the server vouches
// for), else the From address: routing only chooses the INBOX; the game's
// daemon authenticates the mail as it always does. Each game's limits on
// size and rate (Limits) are applied to every message for it, through
// either address, before it is stored: a refused message is refused at
// SMTP, with the limit named.

// routeGame is what the router knows of one game.
type routeGame struct {
	name     string
	address  string   // the game's own address (mail.address), lower case
	referee  string   // lower case
	members  []string // every nation's addresses and the referee's, lower case
	nationOf map[string][]string
	limits   Limits
}

// router decides where mail to the host's addresses goes.
type router struct {
	hostUser string // the host address's account (local part, lower case)
	hostAddr string
	now      func() time.Time

	// observe, when set (benchmarks), sees every request first.
	observe func(mailserver.RouteRequest)

	mu    sync.Mutex
	games map[string]*routeGame // by name
	byAcc map[string]*routeGame // by the game's account (local part)
	sent  map[string][]time.Time
}

func newRouter(hostAddr string, now func() time.Time) *router {
	local, _, _ := strings.Cut(strings.ToLower(hostAddr), "@")
	return &router{hostUser: local, hostAddr: strings.ToLower(hostAddr), now: now,
		games: map[string]*routeGame{}, byAcc: map[string]*routeGame{}, sent: map[string][]time.Time{}}
}

// set replaces what the router knows of the games.
func (r *router) set(games []*routeGame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.games, r.byAcc = map[string]*routeGame{}, map[string]*routeGame{}
	for _, g := range games {
		r.games[g.name] = g
		local, _, _ := strings.Cut(g.address, "@")
		r.byAcc[local] = g
	}
}

// hasAccount reports whether user (a local part) is a game's own address.
func (r *router) hasAccount(user string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byAcc[user] != nil
}

// routeGameOf reads what the router needs from a game's config.
func routeGameOf(name string, cfg *config.Config, l Limits) *routeGame {
	g := &routeGame{name: name, address: strings.ToLower(cfg.Mail.Address), referee: strings.ToLower(cfg.Game.Referee),
		nationOf: map[string][]string{}, limits: l}
	g.members = append(g.members, g.referee)
	for _, id := range cfg.NationIDs() {
		for _, a := range cfg.Game.Nations[id].Addresses {
			a = strings.ToLower(a)
			g.members = append(g.members, a)
			g.nationOf[a] = append(g.nationOf[a], id)
		}
	}
	return g
}

// routeGameOf is what the router knows of a game of the host: with the
// host's address at a provider, every game's config has the shared
// address, and the game's own is its plus-address (orders+NAME@).
func (s *Settings) routeGameOf(name string, cfg *config.Config) *routeGame {
	g := routeGameOf(name, cfg, s.LimitsOf(name))
	if s.Mail.External != nil {
		g.address = gameAddress(s, name)
	}
	return g
}

// ownAddress is a game's own order address: its mail.address, or with the
// host's address at a provider (where every game's is the shared one) its
// plus-address.
func (s *Settings) ownAddress(name string, cfg *config.Config) string {
	if s.Mail.External != nil {
		return gameAddress(s, name)
	}
	return cfg.Mail.Address
}

func (g *routeGame) plays(addr string) bool { return slices.Contains(g.members, addr) }

// Route is the mail server's Options.Route.
func (r *router) Route(req mailserver.RouteRequest) mailserver.RouteDecision {
	if r.observe != nil {
		r.observe(req)
	}
	r.mu.Lock()
	g := r.byAcc[req.User]
	r.mu.Unlock()
	if g != nil { // the game's own address
		return r.admit(g, req, r.senderOf(req, nil))
	}
	if req.User != r.hostUser {
		return mailserver.RouteDecision{} // a person's mailbox
	}
	if req.Message == nil {
		return mailserver.RouteDecision{Refuse: &mailserver.Refusal{TooBig: true,
			Message: "Message too big for an order sheet: send the orders as plain text"}}
	}
	ex, _ := inbox.Extract(req.Message, inbox.Limits{})
	sender := r.senderOf(req, ex)
	target, why, mine := r.decide(sender, ex)
	if target != nil {
		return r.admit(target, req, sender)
	}
	d := mailserver.RouteDecision{}
	if req.Sender != "" { // answer only whom the server vouches for
		d.Reply = r.reply(req.Sender, ex, why, mine)
	}
	return d
}

// decide places a mail from sender: the game it is for, or why it has
// none and the games the sender plays in.
func (r *router) decide(sender string, ex *inbox.Extracted) (*routeGame, string, []*routeGame) {
	named, line := gameLine(ex)
	r.mu.Lock()
	target := r.games[strings.ToLower(named)]
	var mine []*routeGame
	for _, name := range slices.Sorted(maps.Keys(r.games)) {
		if r.games[name].plays(sender) {
			mine = append(mine, r.games[name])
		}
	}
	r.mu.Unlock()
	switch {
	case target != nil && (target.plays(sender) || len(mine) == 0):
		return target, "", mine
	case named == "" && len(mine) == 1:
		return mine[0], "", mine
	}
	var why string
	switch {
	case target != nil:
		why = fmt.Sprintf("Your mail names game %s (GAME on line %d), but you (%s) have no nation in it and are not its referee.", target.name, line, sender)
	case named != "":
		why = fmt.Sprintf("Your mail names game %q (GAME on line %d), but this host has no such game.", named, line)
	case len(mine) == 0:
		why = fmt.Sprintf("Your mail has no GAME line, and you (%s) play in no game on this host.", sender)
	default:
		why = "Your mail has no GAME line, and you play in more than one game on this host, so it cannot tell which one the mail is for."
	}
	return nil, why, mine
}

// senderOf is who sent the message: the login, else the From address.
func (r *router) senderOf(req mailserver.RouteRequest, ex *inbox.Extracted) string {
	if req.Sender != "" {
		return strings.ToLower(req.Sender)
	}
	if ex != nil {
		return ex.From
	}
	return ""
}

// admit files the message for g, within g's limits.
func (r *router) admit(g *routeGame, req mailserver.RouteRequest, sender string) mailserver.RouteDecision {
	if max := int64(g.limits.MaxMailKB) << 10; max > 0 && req.Size > max {
		return mailserver.RouteDecision{Refuse: &mailserver.Refusal{TooBig: true,
			Message: fmt.Sprintf("Message too big for game %s: it takes mail up to %d KiB; send the orders as plain text", g.name, g.limits.MaxMailKB)}}
	}
	if n := g.limits.MailsPerHour; n > 0 {
		key := g.name + "\x00" + sender
		now := r.now()
		r.mu.Lock()
		times := r.sent[key]
		keep := times[:0]
		for _, t := range times {
			if now.Sub(t) < time.Hour {
				keep = append(keep, t)
			}
		}
		if len(keep) >= n {
			r.sent[key] = keep
			r.mu.Unlock()
			return mailserver.RouteDecision{Refuse: &mailserver.Refusal{Temporary: true,
				Message: fmt.Sprintf("Too many mails for game %s: it takes %d an hour from one sender; try again later", g.name, n)}}
		}
		r.sent[key] = append(keep, now)
		if len(r.sent) > maxRateKeys {
			r.sweep(now)
		}
		r.mu.Unlock()
	}
	local, _, _ := strings.Cut(g.address, "@")
	return mailserver.RouteDecision{User: local}
}

// maxRateKeys is how many (game, sender) pairs the rate limit remembers
// before it forgets those with no mail in the last hour.
const maxRateKeys = 10000

// sweep forgets the senders with no mail in the hour before now. r.mu is
// held.
func (r *router) sweep(now time.Time) {
	for key, times := range r.sent {
		if len(times) == 0 || now.Sub(times[len(times)-1]) >= time.Hour {
			delete(r.sent, key)
		}
	}
}

// gameLine finds the sheet's GAME line in the mail's texts: the game named
// and its line (0 when there is none). It reads as the order checker's
// header does — the first line whose first word is GAME, in any case, with
// or without a colon — but needs no more of the sheet: a referee's
// commands or a short note name their game the same way. Quoted lines (a
// reply quoting an earlier sheet) are skipped.
func gameLine(ex *inbox.Extracted) (string, int) {
	if ex == nil {
		return "", 0
	}
	texts := []string{ex.Text}
	for _, t := range ex.Texts {
		texts = append(texts, t.Text)
	}
	for _, t := range texts {
		for i, line := range strings.Split(t, "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || strings.HasPrefix(f[0], ">") {
				continue
			}
			word, rest := f[0], f[1:]
			if w, after, ok := strings.Cut(word, ":"); ok && after != "" {
				word, rest = w, append([]string{after}, rest...)
			}
			if strings.EqualFold(strings.TrimSuffix(word, ":"), "GAME") && len(rest) > 0 {
				return strings.ToLower(strings.Trim(rest[0], ".,;:")), i + 1
			}
		}
	}
	return "", 0
}

// reply is the answer to a sender whose mail the router could not place.
func (r *router) reply(to string, ex *inbox.Extracted, why string, mine []*routeGame) []byte {
	var b strings.Builder
	subject, text := r.replyText(to, ex, why, mine)
	now := r.now()
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <route.%d.%s>\r\n",
		r.hostAddr, to, subject, now.Format(time.RFC1123Z), now.UnixNano(), r.hostAddr)
	if ex != nil && ex.MessageID != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", ex.MessageID, ex.MessageID)
	}
	b.WriteString("Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(text, "\n", "\r\n"))
	return []byte(b.String())
}

// replyText is the subject and text (LF line ends) of reply.
func (r *router) replyText(to string, ex *inbox.Extracted, why string, mine []*routeGame) (string, string) {
	var b strings.Builder
	subject := "Which game?"
	if ex != nil && ex.Subject != "" {
		subject = "Re: " + clipLine(ex.Subject) + " (which game?)"
	}
	fmt.Fprintf(&b, "%s\nYour mail has not been passed to any game.\n\n", why)
	if len(mine) == 0 {
		b.WriteString("You play in no game on this host. If you should, ask your referee to register this address.\n")
	} else {
		b.WriteString("The games on this host you play in:\n")
		for _, g := range mine {
			role := strings.Join(g.nationOf[to], ", ")
			if g.referee == to {
				role = strings.TrimPrefix(role+", referee", ", ")
			}
			fmt.Fprintf(&b, "  %-16s %-36s %s\n", g.name, g.address, role)
		}
		fmt.Fprintf(&b, "\nSend the mail again with the game's GAME line (GAME %s), or to the game's own address.\n", mine[0].name)
	}
	return subject, b.String()
}

func clipLine(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}
