package imaptest

import (
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Mailbox reads a mailbox again and again for a test that waits on mail,
// as Messages does, but over one login: each Messages call selects the
// mailbox anew and fetches only the messages it has not fetched before
// (known by UID), so a poll costs a SELECT and a list of UIDs, not a
// login and every message again (a mailbox holding a game's PDF reports
// is megabytes, and each login is a new process on Dovecot). A Mailbox is
// for one goroutine; Close it when done.
type Mailbox struct {
	addr, user, pass, name string

	c        *imapclient.Client
	validity uint32
	bodies   map[imap.UID][]byte
}

// OpenMailbox returns a Mailbox of user's mailbox on the server at addr. It
// connects at the first Messages call, and again after a failure (a server
// that is starting or was restarted).
func OpenMailbox(addr, user, pass, mailbox string) *Mailbox {
	return &Mailbox{addr: addr, user: user, pass: pass, name: mailbox, bodies: map[imap.UID][]byte{}}
}

// Messages returns the raw messages of the mailbox, oldest first, fetched
// with BODY.PEEK[] so that nothing is marked seen; an empty mailbox gives
// nil. The error is the dial, login, select or fetch failure, after which
// the next call connects again.
func (m *Mailbox) Messages() ([][]byte, error) {
	out, err := m.messages()
	if err != nil {
		m.Close()
	}
	return out, err
}

func (m *Mailbox) messages() ([][]byte, error) {
	if m.c == nil {
		c, err := imapclient.DialInsecure(m.addr, nil)
		if err != nil {
			return nil, err
		}
		m.c = c
		if err := c.Login(m.user, m.pass).Wait(); err != nil {
			return nil, err
		}
	}
	sel, err := m.c.Select(m.name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, err
	}
	if sel.UIDValidity != m.validity {
		m.validity, m.bodies = sel.UIDValidity, map[imap.UID][]byte{}
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	var all imap.SeqSet
	all.AddRange(1, sel.NumMessages)
	listed, err := m.c.Fetch(all, &imap.FetchOptions{UID: true}).Collect()
	if err != nil {
		return nil, err
	}
	var missing imap.UIDSet
	for _, l := range listed {
		if _, ok := m.bodies[l.UID]; !ok {
			missing.AddNum(l.UID)
		}
	}
	if len(missing) > 0 {
		got, err := m.c.Fetch(missing, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil {
			return nil, err
		}
		for _, g := range got {
			for _, b := range g.BodySection {
				m.bodies[g.UID] = b.Bytes
			}
		}
	}
	var out [][]byte
	for _, l := range listed {
		if b, ok := m.bodies[l.UID]; ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// Close logs out, if logged in.
func (m *Mailbox) Close() {
	if m.c != nil {
		m.c.Close()
		m.c = nil
	}
}
