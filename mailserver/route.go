package mailserver

import (
	"fmt"
	"time"

	"github.com/emersion/go-smtp"
)

// Routing at delivery (Options.Route). A server that serves several games
// from one address — pbem's host (package host) — decides at SMTP time,
// for each recipient of a message, which account's INBOX the message
// belongs in: the game named in the sheet, say, rather than the host's
// shared address. Deciding before the message is stored keeps the
// message's arrival record (who sent it, logged in as whom) as the SMTP
// session made it — the game's daemon authenticates it exactly as it would
// a message sent to its own address — and leaves no window in which a
// message is stored in one mailbox and not yet in the other. A reply the
// router writes (to a sender it cannot place) is stored in the sender's
// INBOX in the same transaction as the message.

// RouteRequest is what Options.Route is asked about: one recipient of one
// message taken by SMTP.
type RouteRequest struct {
	// User is the recipient's account (the local part, lower case), as
	// the client addressed it.
	User string
	// Sender is the address the client logged in as ("" when it did not
	// log in): the only sender identity the server vouches for.
	Sender string
	// Size is the message's size in bytes.
	Size int64
	// Message is the whole message (CRLF line ends) when it is at most
	// 1 MiB; nil for a larger one, which is only ever delivered as
	// addressed or refused.
	Message []byte
}

// RouteDecision is Options.Route's answer.
type RouteDecision struct {
	// User, when not "", is the account the message is stored for instead
	// of RouteRequest.User. An account the server does not have leaves
	// the message where it was addressed.
	User string
	// Reply, when not nil, is a message stored in the sender's own INBOX
	// (RouteRequest.Sender must be an account of this server; else it is
	// dropped), in the same transaction as the message, as a local
	// delivery.
	Reply []byte
	// Refuse, when not nil, refuses the message for every recipient with
	// this SMTP reply; nothing is stored.
	Refuse *Refusal
}

// Refusal is an SMTP refusal a router gives.
type Refusal struct {
	// Temporary makes it a 450 (try later: a rate limit) rather than a 552
	// or 550 (do not try again).
	Temporary bool
	// TooBig makes a permanent refusal a 552 (message too big) rather than
	// a 550.
	TooBig bool
	// Message is the text the sender's mail program shows.
	Message string
}

func (r *Refusal) smtpError() *smtp.SMTPError {
	switch {
	case r.Temporary:
		return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: r.Message}
	case r.TooBig:
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4}, Message: r.Message}
	}
	return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: r.Message}
}

// routeReply is the local delivery of a router's reply to sender's INBOX;
// ok is false when sender has no account here.
func (s *Server) routeReply(sender string, raw []byte, now time.Time) (newMessage, bool) {
	name, err := s.localUser(sender)
	if err != nil {
		return newMessage{}, false
	}
	a := s.accounts[name]
	if a == nil || a.mailboxes[inboxName] == nil {
		return newMessage{}, false
	}
	received := fmt.Sprintf("Received: by %s (pbem mailserver) with local id %s\r\n\tfor <%s@%s>; %s\r\n",
		s.opts.Domain, newID(), name, s.opts.Domain, now.Format(time.RFC1123Z))
	msg := append([]byte(received), toCRLF(raw)...)
	return newMessage{mailbox: a.mailboxes[inboxName], body: bytesContent(msg), date: now, arrival: Arrival{Via: ViaLocal}}, true
}

// route asks Options.Route about every recipient of the message: the
// recipients it is stored for (each account once), the replies to store
// for the sender, or the refusal of the whole message.
func (s *smtpSession) route(sender string, sp *spooled) ([]smtpRecipient, [][]byte, *Refusal) {
	route := s.srv.opts.Route
	if route == nil {
		return s.rcpts, nil, nil
	}
	var rcpts []smtpRecipient
	var replies [][]byte
	for _, rc := range s.rcpts {
		d := route(RouteRequest{User: rc.user, Sender: sender, Size: sp.size, Message: sp.mem})
		if d.Refuse != nil {
			return nil, nil, d.Refuse
		}
		if d.User != "" {
			if name, err := s.srv.localUser(d.User); err == nil {
				s.srv.mu.RLock()
				known := s.srv.accounts[name] != nil
				s.srv.mu.RUnlock()
				if known {
					rc.user = name
				}
			}
		}
		if d.Reply != nil {
			replies = append(replies, d.Reply)
		}
		dup := false
		for _, r := range rcpts {
			dup = dup || r.user == rc.user
		}
		if !dup {
			rcpts = append(rcpts, rc)
		}
	}
	return rcpts, replies, nil
}
