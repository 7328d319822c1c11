package mailserver

import (
	"context"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// imapSession is one IMAP connection. The library calls its methods from
// the connection's goroutine, except Idle, which runs beside it while the
// connection waits for DONE.
type imapSession struct {
	srv  *Server
	conn *imapserver.Conn
	acct *account   // nil until LOGIN
	sel  *selection // nil unless a mailbox is selected

	// closeMu orders Close against an IDLE still running: go-imap does not
	// wait for Idle to return when the client drops the connection, so
	// Close (on another goroutine) must not clear sel under Idle's feet.
	closeMu sync.Mutex
}

// selection is the state of the selected mailbox.
type selection struct {
	mbox      *mailbox
	tracker   *imapserver.SessionTracker
	readOnly  bool
	searchRes imap.UIDSet // saved by SEARCH RETURN (SAVE), used as "$"
}

var (
	_ imapserver.SessionIMAP4rev2   = (*imapSession)(nil)
	_ imapserver.SessionAppendLimit = (*imapSession)(nil)
)

func (s *imapSession) Close() error {
	s.closeMu.Lock()
	sel := s.sel
	s.sel = nil
	s.closeMu.Unlock()
	if sel != nil {
		sel.tracker.Close()
	}
	return nil
}

func (s *imapSession) Login(username, password string) error {
	if !s.srv.clearTextAllowed(s.conn.NetConn().RemoteAddr()) {
		return &imap.Error{
			Type: imap.StatusResponseTypeNo,
			Code: imap.ResponseCodePrivacyRequired,
			Text: "Clear-text login is accepted from loopback only",
		}
	}
	remote := s.conn.NetConn().RemoteAddr()
	name, ok, err := s.srv.login(username, password, remote)
	if err != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable, Text: err.Error()}
	}
	if !ok {
		s.srv.log.Info("IMAP login failed", "user", name, "remote", remote.String())
		return imapserver.ErrAuthFailed
	}
	s.srv.mu.RLock()
	s.acct = s.srv.accounts[name]
	s.srv.mu.RUnlock()
	if s.acct == nil { // deleted meanwhile: cannot happen, accounts are never deleted
		return imapserver.ErrAuthFailed
	}
	return nil
}

// mailbox finds a mailbox of the logged-in account. Caller holds srv.mu.
func (s *imapSession) mailbox(name string) *mailbox {
	return s.acct.mailboxes[canonicalMailboxName(name)]
}

func (s *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	s.srv.mu.RLock()
	defer s.srv.mu.RUnlock()
	m := s.mailbox(name)
	if m == nil {
		return nil, errNoMailbox
	}
	if s.sel != nil { // the library unselects first; be safe anyway
		s.sel.tracker.Close()
	}
	s.sel = &selection{mbox: m, tracker: m.tracker.NewSession(), readOnly: options.ReadOnly}
	flags := mailboxFlags(m.msgs)
	var permanent []imap.Flag
	if !options.ReadOnly {
		permanent = append(append(permanent, flags...), imap.FlagWildcard)
	}
	data := &imap.SelectData{
		Flags:          flags,
		PermanentFlags: permanent,
		NumMessages:    uint32(len(m.msgs)),
		UIDNext:        m.uidNext,
		UIDValidity:    m.uidValidity,
	}
	for i, msg := range m.msgs {
		if !hasFlag(msg.flags, imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i) + 1
			break
		}
	}
	return data, nil
}

func (s *imapSession) Unselect() error {
	if s.sel != nil {
		s.sel.tracker.Close()
		s.sel = nil
	}
	return nil
}

func (s *imapSession) Create(name string, options *imap.CreateOptions) error {
	return s.srv.createMailbox(context.Background(), s.acct, name)
}

func (s *imapSession) Delete(name string) error {
	return s.srv.deleteMailbox(context.Background(), s.acct, name)
}

func (s *imapSession) Rename(oldName, newName string, options *imap.RenameOptions) error {
	return s.srv.renameMailbox(context.Background(), s.acct, oldName, newName)
}

func (s *imapSession) Subscribe(name string) error {
	return s.srv.setSubscribed(context.Background(), s.acct, name, true)
}

func (s *imapSession) Unsubscribe(name string) error {
	return s.srv.setSubscribed(context.Background(), s.acct, name, false)
}

func (s *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: delim}}}, nil
}

func (s *imapSession) AppendLimit() uint32 { return s.srv.appendLimit() }

func (s *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		// LIST "" "": the hierarchy delimiter and root.
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: delim})
	}
	s.srv.mu.RLock()
	var list []imap.ListData
	for name, m := range s.acct.mailboxes {
		match := false
		for _, p := range patterns {
			// INBOX matches case-insensitively.
			if imapserver.MatchList(name, delim, ref, p) ||
				name == inboxName && imapserver.MatchList(name, delim, strings.ToUpper(ref), strings.ToUpper(p)) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		data := imap.ListData{Mailbox: name, Delim: delim}
		if options.SelectSubscribed && !m.subscribed {
			// LIST (SUBSCRIBED RECURSIVEMATCH) also names a mailbox that
			// is not subscribed but has a subscribed inferior (RFC 5258).
			if !options.SelectRecursiveMatch || !s.acct.hasSubscribedChild(name) {
				continue
			}
			data.ChildInfo = &imap.ListDataChildInfo{Subscribed: true}
		}
		if s.acct.hasChildren(name) {
			data.Attrs = append(data.Attrs, imap.MailboxAttrHasChildren)
		} else {
			data.Attrs = append(data.Attrs, imap.MailboxAttrHasNoChildren)
		}
		if m.subscribed && (options.ReturnSubscribed || options.SelectSubscribed) {
			data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
		}
		if options.ReturnStatus != nil {
			data.Status = m.status(options.ReturnStatus, s.srv.appendLimit())
		}
		list = append(list, data)
	}
	s.srv.mu.RUnlock()
	sort.Slice(list, func(i, j int) bool { return list[i].Mailbox < list[j].Mailbox })
	for i := range list {
		if err := w.WriteList(&list[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	s.srv.mu.RLock()
	defer s.srv.mu.RUnlock()
	m := s.mailbox(name)
	if m == nil {
		return nil, errNoMailbox
	}
	return m.status(options, s.srv.appendLimit()), nil
}

func (s *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	limit := s.srv.opts.MaxMessageBytes
	if r.Size() > limit {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: "Message too large"}
	}
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	s.srv.mu.RLock()
	m := s.mailbox(name)
	s.srv.mu.RUnlock()
	if m == nil {
		return nil, errTryCreate
	}
	date := options.Time
	if date.IsZero() {
		date = s.srv.now()
	}
	uids, err := s.srv.appendMessages(context.Background(), []newMessage{{
		mailbox: m, body: bytesContent(raw), flags: addFlags(nil, options.Flags), date: date,
		arrival: Arrival{Via: ViaAppend, User: s.srv.address(s.acct.user), Remote: remoteIP(s.conn.NetConn().RemoteAddr())},
	}})
	if err != nil {
		return nil, err
	}
	return &imap.AppendData{UIDValidity: m.uidValidity, UID: uids[0]}, nil
}

func (s *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.tracker.Poll(w, allowExpunge)
}

// Idle sends the mailbox's news as it happens until stop is closed. It
// does not use SessionTracker.Idle, which sends only what is queued after
// it starts: a delivery committed between the client's last command and its
// IDLE would wait for the client's next command, and a client that polls
// and then idles (the intake) would not hear of it until its next poll.
// Here the news already queued goes out first, and every committed change
// (Server.announce) makes the session look again; the channel is taken
// before looking, so no change can fall between the two.
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	s.closeMu.Lock()
	sel := s.sel
	s.closeMu.Unlock()
	if sel == nil {
		<-stop
		return nil
	}
	for {
		changed := s.srv.changes()
		if err := sel.tracker.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-changed:
		case <-stop:
			return nil
		}
	}
}
