package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/emersion/go-imap/v2"
)

// Replacement is one message MoveOut takes out of a mailbox.
type Replacement struct {
	// UID is the message's UID in the mailbox it leaves.
	UID uint32
	// Raw, when not nil, is what is stored in the destination in the
	// message's place (pbem's copy with the passwords masked); nil moves
	// the message as it is.
	Raw []byte
}

// MoveOut takes messages out of user's mailbox from (as long as it has
// uidValidity) into the mailbox to, each replaced by its Raw when one is
// given, in one transaction: every copy is stored in to (with the
// message's flags and internal date; its arrival ViaMasked, or ViaMove for
// a message moved as it is) and every original deleted from from, or none
// of it. A UID no longer in from is skipped: it was taken out before (a
// repeat after a crash does nothing more). A message whose delivery key
// (dedupe.go) the destination holds already — the same mail sent again
// after the first was taken out — is deleted without a second copy. It
// reports how many messages it took out. IMAP sessions see the EXPUNGEs and the new messages as after a
// MOVE.
//
// This is how pbem's intake takes handled mail out of the game's INBOX on
// the embedded server (docs/intake.md, "What pbem keeps"): in process, so
// that the copy left in the processed mailbox holds no password in clear,
// and atomically, so that a crash leaves either the original in INBOX or
// the copy in the processed mailbox, never both and never neither.
func (s *Server) MoveOut(ctx context.Context, user, from string, uidValidity uint32, to string, items []Replacement) (int, error) {
	name, err := s.localUser(user)
	if err != nil {
		return 0, err
	}
	moved := 0
	err = s.update(ctx, func(tx *sql.Tx) (func(), error) {
		moved = 0
		a := s.accounts[name]
		if a == nil {
			return nil, fmt.Errorf("mailserver: no account %q", name)
		}
		src, dst := a.mailboxes[canonicalMailboxName(from)], a.mailboxes[canonicalMailboxName(to)]
		switch {
		case src == nil || dst == nil:
			return nil, errTryCreate
		case src.uidValidity != uidValidity:
			return nil, fmt.Errorf("mailserver: %s has UIDVALIDITY %d, not %d", from, src.uidValidity, uidValidity)
		case src == dst:
			return nil, fmt.Errorf("mailserver: moving %s into itself", from)
		}
		var gone []int
		var copies []*message
		next := dst.uidNext
		seen := map[uint32]bool{}
		for _, it := range items {
			i := src.indexOf(imap.UID(it.UID))
			if i < 0 || seen[it.UID] {
				continue
			}
			seen[it.UID] = true
			orig := src.msgs[i]
			// A copy of the same delivery (the same mail sent again, after
			// the first had been taken out) is not kept twice.
			var key string
			if err := tx.QueryRowContext(ctx, "SELECT dedupe FROM messages WHERE mailbox_id = ? AND uid = ?", src.id, int64(orig.uid)).Scan(&key); err != nil {
				return nil, err
			}
			if key != "" {
				dup, err := hasDelivery(ctx, tx, dst.id, key)
				if err != nil {
					return nil, err
				}
				if dup {
					if err := deleteMessage(ctx, tx, src.id, orig.uid); err != nil {
						return nil, err
					}
					gone = append(gone, i)
					continue
				}
			}
			c := *orig
			c.uid = next
			if it.Raw == nil {
				c.arrival = Arrival{Via: ViaMove, User: s.address(name)}.String()
				if err := copyMessage(ctx, tx, src.id, orig.uid, dst.id, next, ParseArrival(c.arrival)); err != nil {
					return nil, err
				}
			} else {
				nm := &newMessage{body: bytesContent(it.Raw), flags: orig.flags, date: orig.date, arrival: Arrival{Via: ViaMasked, User: s.address(name)}, dedupe: key}
				if err := insertMessage(ctx, tx, dst.id, next, nm); err != nil {
					return nil, err
				}
				c.size, c.arrival = int64(len(it.Raw)), nm.arrival.String()
			}
			if err := deleteMessage(ctx, tx, src.id, orig.uid); err != nil {
				return nil, err
			}
			gone = append(gone, i)
			copies = append(copies, &c)
			next++
		}
		moved = len(gone)
		slices.Sort(gone)
		return func() {
			for _, c := range copies {
				dst.msgs = append(dst.msgs, c)
				dst.uidNext = c.uid + 1
				dst.tracker.QueueNumMessages(uint32(len(dst.msgs)))
			}
			src.expunge(gone)
		}, nil
	})
	return moved, err
}

// EnsureMailbox creates user's mailbox name (and missing superiors) if it
// does not exist.
func (s *Server) EnsureMailbox(ctx context.Context, user, name string) error {
	acct, err := s.localUser(user)
	if err != nil {
		return err
	}
	s.mu.RLock()
	a := s.accounts[acct]
	exists := a != nil && a.mailboxes[canonicalMailboxName(name)] != nil
	s.mu.RUnlock()
	switch {
	case a == nil:
		return fmt.Errorf("mailserver: no account %q", acct)
	case exists:
		return nil
	}
	if err := s.createMailbox(ctx, a, name); err != nil && !errors.Is(err, errMailboxExists) {
		return err
	}
	return nil
}
