package mailserver

import (
	"context"
	"net"
	"strings"

	"github.com/emersion/go-imap/v2"
)

// Ways a message comes into a mailbox (Arrival.Via).
const (
	// ViaSMTP: delivered by this server's SMTP, to the recipient's INBOX.
	ViaSMTP = "smtp"
	// ViaAppend: IMAP APPEND by the account's owner.
	ViaAppend = "imap-append"
	// ViaCopy and ViaMove: IMAP COPY or MOVE from another of the account's
	// mailboxes. The copy is not the original: whatever the original was,
	// the copy is what a client made of it.
	ViaCopy = "imap-copy"
	ViaMove = "imap-move"
	// ViaLocal: Server.Deliver, a program beside the server (tests, tools).
	ViaLocal = "local"
	// ViaMasked: Server.ReplaceMasked, pbem's copy of a handled mail with
	// its passwords masked.
	ViaMasked = "masked"
)

// Arrival is how a message came into its mailbox, as the server itself saw
// it: recorded with the message when it is stored (the messages table's
// arrival column) and never read from the message's bytes. A client can
// write any header — an Authentication-Results of this server's own id
// included — into a message it APPENDs, but it cannot write this. pbem's
// daemon believes a mail was sent by an account only when its Arrival says
// so (Via ViaSMTP, User the account), and reads it with ArrivalOf.
type Arrival struct {
	// Via is how: one of the Via constants; "" for a message stored before
	// the server kept the record.
	Via string
	// User is the account's address: for ViaSMTP the one the client logged
	// in as with SMTP AUTH ("" when it did not log in); for the IMAP ways
	// the session's account.
	User string
	// Remote is the client's IP address ("" for ViaLocal).
	Remote string
}

// String is the record as stored, and as pbem's intake keeps it: the way,
// then "auth=ADDRESS" or "auth=none" for SMTP and "user=ADDRESS" for the
// IMAP ways, then "remote=IP": "smtp auth=referee@example.org
// remote=127.0.0.1". "" for no record.
func (a Arrival) String() string {
	if a.Via == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(a.Via)
	switch {
	case a.Via == ViaSMTP && a.User == "":
		b.WriteString(" auth=none")
	case a.Via == ViaSMTP:
		b.WriteString(" auth=" + a.User)
	case a.User != "":
		b.WriteString(" user=" + a.User)
	}
	if a.Remote != "" {
		b.WriteString(" remote=" + a.Remote)
	}
	return b.String()
}

// ParseArrival reads String's form back; anything else gives the zero
// Arrival (no record).
func ParseArrival(s string) Arrival {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Arrival{}
	}
	a := Arrival{Via: f[0]}
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "auth" && v != "none", k == "user":
			a.User = v
		case k == "remote":
			a.Remote = v
		}
	}
	return a
}

// ArrivalOf returns the record of how the message uid of user's mailbox
// (as long as it has uidValidity) arrived. ok is false when there is no
// such message (expunged, or another UIDVALIDITY). The store must be open.
func (s *Server) ArrivalOf(ctx context.Context, user, mailbox string, uidValidity, uid uint32) (a Arrival, ok bool, err error) {
	name, err := s.localUser(user)
	if err != nil {
		return Arrival{}, false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.db == nil {
		return Arrival{}, false, errClosed
	}
	acct := s.accounts[name]
	if acct == nil {
		return Arrival{}, false, nil
	}
	m := acct.mailboxes[canonicalMailboxName(mailbox)]
	if m == nil || m.uidValidity != uidValidity {
		return Arrival{}, false, nil
	}
	i := m.indexOf(imap.UID(uid))
	if i < 0 {
		return Arrival{}, false, nil
	}
	return ParseArrival(m.msgs[i].arrival), true, nil
}

// remoteIP is the IP address of a connection's peer, without the port.
func remoteIP(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}
