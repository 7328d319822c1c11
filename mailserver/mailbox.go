package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// delim is the hierarchy delimiter of mailbox names.
const delim = '/'

// inboxName is the one mailbox every account has; its name is
// case-insensitive.
const inboxName = "INBOX"

// account is one user's mailboxes, as indexed in memory. Guarded by
// Server.mu.
type account struct {
	id                 int64
	user               string
	passSalt, passHash []byte
	mailboxes          map[string]*mailbox // by name
}

// mailbox is the in-memory index of one mailbox. Guarded by Server.mu,
// except tracker, which has its own lock.
type mailbox struct {
	id          int64
	account     *account
	name        string
	uidValidity uint32
	uidNext     imap.UID
	subscribed  bool
	msgs        []*message // ascending UID; index+1 is the sequence number
	deleted     bool       // set when DELETE removed it under a session that has it selected
	tracker     *imapserver.MailboxTracker
}

// message is what the index knows of a message; the body stays in SQLite.
// flags is replaced, never modified in place, so a copy of the struct is a
// consistent snapshot.
type message struct {
	uid     imap.UID
	date    time.Time
	size    int64
	flags   []imap.Flag
	arrival string // Arrival.String(): how it came into the mailbox
}

func (m *mailbox) newTracker() {
	m.tracker = imapserver.NewMailboxTracker(uint32(len(m.msgs)))
}

// indexOf returns the position of uid in m.msgs, or -1.
func (m *mailbox) indexOf(uid imap.UID) int {
	i := sort.Search(len(m.msgs), func(i int) bool { return m.msgs[i].uid >= uid })
	if i < len(m.msgs) && m.msgs[i].uid == uid {
		return i
	}
	return -1
}

// lastUID is the value of "*" in a UID set: the highest UID in use, or
// UIDNEXT-1 in an empty mailbox.
func (m *mailbox) lastUID() imap.UID {
	if n := len(m.msgs); n > 0 {
		return m.msgs[n-1].uid
	}
	return m.uidNext - 1
}

func (m *mailbox) countFlag(f imap.Flag) uint32 {
	var n uint32
	for _, msg := range m.msgs {
		if hasFlag(msg.flags, f) {
			n++
		}
	}
	return n
}

func (m *mailbox) status(options *imap.StatusOptions, appendLimit uint32) *imap.StatusData {
	data := &imap.StatusData{Mailbox: m.name}
	count := uint32(len(m.msgs))
	if options.NumMessages {
		data.NumMessages = &count
	}
	if options.NumRecent {
		zero := uint32(0)
		data.NumRecent = &zero
	}
	if options.UIDNext {
		data.UIDNext = m.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = m.uidValidity
	}
	if options.NumUnseen {
		n := count - m.countFlag(imap.FlagSeen)
		data.NumUnseen = &n
	}
	if options.NumDeleted {
		n := m.countFlag(imap.FlagDeleted)
		data.NumDeleted = &n
	}
	if options.Size {
		var size int64
		for _, msg := range m.msgs {
			size += msg.size
		}
		data.Size = &size
	}
	if options.AppendLimit {
		data.AppendLimit = &appendLimit
	}
	return data
}

// errNoMailbox and friends are the answers a client sees.
var (
	errNoMailbox = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeNonExistent,
		Text: "No such mailbox",
	}
	errTryCreate = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeTryCreate,
		Text: "No such mailbox; create it first",
	}
	errMailboxExists = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeAlreadyExists,
		Text: "Mailbox already exists",
	}
	errMailboxGone = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeNonExistent,
		Text: "The selected mailbox has been deleted",
	}
	errReadOnly = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeCannot,
		Text: "Mailbox is read-only (EXAMINE); SELECT it to make changes",
	}
	errClosed = errors.New("mailserver: server is closed or not open")
)

func mailboxNameError(name, why string) error {
	return &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeCannot,
		Text: fmt.Sprintf("Invalid mailbox name %q: %s", name, why),
	}
}

// canonicalMailboxName spells INBOX (and INBOX/...) in upper case and
// strips a trailing delimiter.
func canonicalMailboxName(name string) string {
	name = strings.TrimRight(name, string(delim))
	first, rest, hasRest := strings.Cut(name, string(delim))
	if strings.EqualFold(first, inboxName) {
		if hasRest {
			return inboxName + string(delim) + rest
		}
		return inboxName
	}
	return name
}

// checkMailboxName rejects names a client could not list or select back.
func checkMailboxName(name string) error {
	if name == "" {
		return mailboxNameError(name, "empty")
	}
	for _, seg := range strings.Split(name, string(delim)) {
		if seg == "" {
			return mailboxNameError(name, "empty level between delimiters")
		}
	}
	for _, r := range name {
		if r == '*' || r == '%' || unicode.IsControl(r) {
			return mailboxNameError(name, "contains *, % or a control character")
		}
	}
	return nil
}

// parents lists the superior names of name: "a/b/c" → "a", "a/b".
func parents(name string) []string {
	var out []string
	for i, r := range name {
		if r == delim {
			out = append(out, name[:i])
		}
	}
	return out
}

// hasChildren reports whether a has a mailbox below name.
func (a *account) hasChildren(name string) bool {
	prefix := name + string(delim)
	for n := range a.mailboxes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// hasSubscribedChild reports whether a has a subscribed mailbox below name.
func (a *account) hasSubscribedChild(name string) bool {
	prefix := name + string(delim)
	for n, m := range a.mailboxes {
		if m.subscribed && strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

// update runs fn in one SQLite transaction while holding the write lock.
// fn reads the index and changes only the database; the function it returns
// applies the same change to the index, and runs only once the transaction
// has committed, so memory never shows what the disk does not have.
func (s *Server) update(ctx context.Context, fn func(tx *sql.Tx) (apply func(), err error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return errClosed
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mail store: %w", err)
	}
	apply, err := fn(tx)
	if err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("mail store: commit: %w", err)
	}
	if apply != nil {
		apply()
	}
	s.announce()
	return nil
}

// insertMailbox creates a mailbox row with a fresh UIDVALIDITY and returns
// the index entry to add once committed.
func (s *Server) insertMailbox(ctx context.Context, tx *sql.Tx, a *account, name string, subscribed bool) (*mailbox, error) {
	uidValidity, err := nextUIDValidity(ctx, tx, s.now())
	if err != nil {
		return nil, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO mailboxes (account_id, name, uidvalidity, uidnext, subscribed)
		VALUES (?, ?, ?, 1, ?)`, a.id, name, uidValidity, subscribed)
	if err != nil {
		return nil, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, err
	}
	m := &mailbox{id: id, account: a, name: name, uidValidity: uidValidity, uidNext: 1, subscribed: subscribed}
	m.newTracker()
	return m, nil
}

// createMailbox creates name and any missing superior names.
func (s *Server) createMailbox(ctx context.Context, a *account, name string) error {
	name = canonicalMailboxName(name)
	if err := checkMailboxName(name); err != nil {
		return err
	}
	return s.update(ctx, func(tx *sql.Tx) (func(), error) {
		if a.mailboxes[name] != nil {
			return nil, errMailboxExists
		}
		var created []*mailbox
		for _, n := range append(parents(name), name) {
			if a.mailboxes[n] != nil {
				continue
			}
			m, err := s.insertMailbox(ctx, tx, a, n, false)
			if err != nil {
				return nil, err
			}
			created = append(created, m)
		}
		return func() {
			for _, m := range created {
				a.mailboxes[m.name] = m
			}
		}, nil
	})
}

// deleteMailbox removes a mailbox and its messages. INBOX and mailboxes
// with inferiors cannot be deleted.
func (s *Server) deleteMailbox(ctx context.Context, a *account, name string) error {
	name = canonicalMailboxName(name)
	if name == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	return s.update(ctx, func(tx *sql.Tx) (func(), error) {
		m := a.mailboxes[name]
		if m == nil {
			return nil, errNoMailbox
		}
		if a.hasChildren(name) {
			return nil, &imap.Error{
				Type: imap.StatusResponseTypeNo,
				Code: imap.ResponseCodeHasChildren,
				Text: "Mailbox has inferior mailboxes; delete them first",
			}
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE mailbox_id = ?", m.id); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM mailboxes WHERE id = ?", m.id); err != nil {
			return nil, err
		}
		return func() {
			delete(a.mailboxes, name)
			m.deleted = true
		}, nil
	})
}

// renameMailbox renames a mailbox and its inferiors, creating missing
// superiors of the new name. Messages keep their UIDs and the mailbox its
// UIDVALIDITY. Renaming INBOX (which RFC 3501 defines as moving its
// messages) is not supported.
func (s *Server) renameMailbox(ctx context.Context, a *account, oldName, newName string) error {
	oldName, newName = canonicalMailboxName(oldName), canonicalMailboxName(newName)
	if err := checkMailboxName(newName); err != nil {
		return err
	}
	if oldName == inboxName || newName == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot,
			Text: "Renaming INBOX, or to INBOX, is not supported by this server"}
	}
	if newName == oldName || strings.HasPrefix(newName, oldName+string(delim)) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot,
			Text: "A mailbox cannot be renamed to itself or below itself"}
	}
	return s.update(ctx, func(tx *sql.Tx) (func(), error) {
		m := a.mailboxes[oldName]
		if m == nil {
			return nil, errNoMailbox
		}
		// The mailbox and its inferiors, each with its new name.
		renames := map[*mailbox]string{m: newName}
		prefix := oldName + string(delim)
		for n, child := range a.mailboxes {
			if strings.HasPrefix(n, prefix) {
				renames[child] = newName + string(delim) + strings.TrimPrefix(n, prefix)
			}
		}
		for _, to := range renames {
			if a.mailboxes[to] != nil {
				return nil, errMailboxExists
			}
		}
		for mb, to := range renames {
			if _, err := tx.ExecContext(ctx, "UPDATE mailboxes SET name = ? WHERE id = ?", to, mb.id); err != nil {
				return nil, err
			}
		}
		var created []*mailbox
		for _, p := range parents(newName) {
			if a.mailboxes[p] != nil {
				continue
			}
			pm, err := s.insertMailbox(ctx, tx, a, p, false)
			if err != nil {
				return nil, err
			}
			created = append(created, pm)
		}
		return func() {
			for mb := range renames {
				delete(a.mailboxes, mb.name)
			}
			for mb, to := range renames {
				mb.name = to
				a.mailboxes[to] = mb
			}
			for _, pm := range created {
				a.mailboxes[pm.name] = pm
			}
		}, nil
	})
}

func (s *Server) setSubscribed(ctx context.Context, a *account, name string, subscribed bool) error {
	name = canonicalMailboxName(name)
	return s.update(ctx, func(tx *sql.Tx) (func(), error) {
		m := a.mailboxes[name]
		if m == nil {
			return nil, errNoMailbox
		}
		if _, err := tx.ExecContext(ctx, "UPDATE mailboxes SET subscribed = ? WHERE id = ?", subscribed, m.id); err != nil {
			return nil, err
		}
		return func() { m.subscribed = subscribed }, nil
	})
}

// newMessage is a message to be stored by appendMessages.
type newMessage struct {
	mailbox *mailbox
	body    content // the bytes, read a chunk at a time
	flags   []imap.Flag
	date    time.Time
	arrival Arrival
	// dedupe, when not "", is the delivery's key (dedupe.go): a message
	// whose mailbox holds one with the same key already is not stored
	// again.
	dedupe string
}

// appendMessages stores messages, in one transaction, each under the next
// UID of its mailbox, and wakes the sessions watching those mailboxes. A
// message with a delivery key its mailbox holds already is not stored; its
// UID is given as 0.
func (s *Server) appendMessages(ctx context.Context, msgs []newMessage) ([]imap.UID, error) {
	uids := make([]imap.UID, len(msgs))
	err := s.update(ctx, func(tx *sql.Tx) (func(), error) {
		next := make(map[*mailbox]imap.UID)
		for i := range msgs {
			nm := &msgs[i]
			uids[i] = 0
			// Internal dates have second precision, in memory as on disk.
			nm.date = nm.date.Truncate(time.Second)
			if nm.mailbox.deleted {
				return nil, errTryCreate
			}
			if nm.dedupe != "" {
				// Earlier messages of this transaction count too: the
				// transaction sees its own rows.
				dup, err := hasDelivery(ctx, tx, nm.mailbox.id, nm.dedupe)
				if err != nil {
					return nil, fmt.Errorf("mail store: %w", err)
				}
				if dup {
					continue
				}
			}
			uid, ok := next[nm.mailbox]
			if !ok {
				uid = nm.mailbox.uidNext
			}
			if err := insertMessage(ctx, tx, nm.mailbox.id, uid, nm); err != nil {
				return nil, fmt.Errorf("mail store: storing message: %w", err)
			}
			uids[i] = uid
			next[nm.mailbox] = uid + 1
		}
		return func() {
			for i, nm := range msgs {
				if uids[i] == 0 {
					s.log.Info("a message delivered again was not stored a second time", "mailbox", nm.mailbox.name,
						"user", nm.mailbox.account.user, "arrival", nm.arrival.String())
					continue
				}
				m := nm.mailbox
				m.msgs = append(m.msgs, &message{uid: uids[i], date: nm.date, size: nm.body.Len(), flags: nm.flags,
					arrival: nm.arrival.String()})
				m.uidNext = uids[i] + 1
				m.tracker.QueueNumMessages(uint32(len(m.msgs)))
			}
		}, nil
	})
	if err != nil {
		return nil, err
	}
	return uids, nil
}
