package inbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/syw-pbem/pbem/internal/mailconn"
	"github.com/syw-pbem/pbem/store"
)

// watchedConn records when the server last sent a byte, for the watchdog.
type watchedConn struct {
	net.Conn
	lastRead atomic.Int64 // UnixNano
}

// Read reads from the connection and notes the time of any byte received.
func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.lastRead.Store(time.Now().UnixNano())
	}
	return n, err
}

// session is one IMAP connection, logged in, with its watchdog.
//
// go-imap's client has no timeout between replies: a command on a
// connection that died without a FIN or RST (a NAT that forgot it, a server
// that froze) waits for ever. Every command here runs through do, which
// marks the connection busy; the watchdog closes a busy connection that has
// received nothing for CommandTimeout, which makes the waiting command fail
// and the intake reconnect. TCP keep-alive catches a dead peer too, but not a
// peer (or middlebox) that keeps the TCP connection alive and says nothing.
type session struct {
	c       *imapclient.Client
	conn    *watchedConn
	log     *slog.Logger
	timeout time.Duration

	busySince atomic.Int64  // UnixNano when the running command started; 0 when idle
	busyWhat  atomic.Value  // string: the command, for the log
	killed    atomic.Bool   // the watchdog closed the connection
	wake      chan struct{} // new mail announced (buffered, 1)
	done      chan struct{} // closed by close
	closeOnce sync.Once

	// listed is when the last poll on this connection listed the mailbox
	// (this machine's clock); zero before the first. A mail listed later
	// reached the server after it (arrival.go: the clocks compared).
	listed time.Time

	caps       imap.CapSet
	canMove    bool // MOVE
	canUIDPlus bool // UIDPLUS: UID EXPUNGE deletes only the UIDs named
	processed  bool // the processed mailbox exists (or was created)
}

// ErrLoginRefused is wrapped by the error of a connection whose LOGIN the
// server refused (a wrong user name or password, an app password needed):
// trying again will not help until the settings change.
var ErrLoginRefused = errors.New("the server refused the login")

// errWatchdog is the cause of a connection the watchdog closed.
var errWatchdog = errors.New("inbox: the IMAP server stopped answering; connection closed by the watchdog")

// dial connects, reads the greeting and logs in.
func dial(ctx context.Context, o *Options) (*session, error) {
	host, _, _ := net.SplitHostPort(o.Addr)
	d := &net.Dialer{
		Timeout: o.DialTimeout,
		KeepAliveConfig: net.KeepAliveConfig{
			Enable: true, Idle: o.KeepAlive, Interval: max(o.KeepAlive/3, time.Second), Count: 3,
		},
	}
	raw, err := d.DialContext(ctx, "tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("inbox: connecting to %s: %w", o.Addr, err)
	}
	wc := &watchedConn{Conn: raw}
	wc.lastRead.Store(time.Now().UnixNano())
	s := &session{
		conn: wc, log: o.Logger.With("server", o.Addr), timeout: o.CommandTimeout,
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	go s.watchdog(ctx)

	copts := &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// Runs on the client's reader goroutine: never block here.
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case s.wake <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	tlsConfig := &tls.Config{}
	if o.TLSConfig != nil {
		tlsConfig = o.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	copts.TLSConfig = tlsConfig

	err = s.do("connect", func() error {
		switch o.Security {
		case mailconn.SecurityTLS:
			tc := tls.Client(wc, tlsConfig)
			hctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
			defer cancel()
			if err := tc.HandshakeContext(hctx); err != nil {
				return fmt.Errorf("TLS handshake: %w", err)
			}
			s.c = imapclient.New(tc, copts)
		case mailconn.SecuritySTARTTLS:
			c, err := imapclient.NewStartTLS(wc, copts)
			if err != nil {
				return fmt.Errorf("STARTTLS: %w", err)
			}
			s.c = c
		default:
			s.c = imapclient.New(wc, copts)
		}
		return s.c.WaitGreeting()
	})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("inbox: %s: %w", o.Addr, err)
	}
	err = s.do("LOGIN", func() error { return s.c.Login(o.Username, o.Password.Reveal()).Wait() })
	if err != nil {
		s.close()
		var ie *imap.Error
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("inbox: logging in to %s as %s: %w: %w", o.Addr, o.Username, ErrLoginRefused, err)
		}
		return nil, fmt.Errorf("inbox: logging in to %s as %s: %w", o.Addr, o.Username, err)
	}
	err = s.do("CAPABILITY", func() error {
		s.caps = s.c.Caps()
		if s.caps == nil {
			return errors.New("no capability list")
		}
		return nil
	})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("inbox: %s: %w", o.Addr, err)
	}
	s.canMove = s.caps.Has(imap.CapMove)
	s.canUIDPlus = s.caps.Has(imap.CapUIDPlus)
	return s, nil
}

// do runs one command (or a few in a row) under the watchdog.
func (s *session) do(what string, fn func() error) error {
	s.busyWhat.Store(what)
	s.busySince.Store(time.Now().UnixNano())
	err := fn()
	s.busySince.Store(0)
	if s.killed.Load() {
		return fmt.Errorf("%s: %w (%v)", what, errWatchdog, err)
	}
	return err
}

// watchdog closes the connection when a command has seen no byte from the
// server for the timeout, or when ctx ends.
func (s *session) watchdog(ctx context.Context) {
	tick := max(s.timeout/8, 5*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-ctx.Done():
			s.conn.Close()
			return
		case <-t.C:
			since := s.busySince.Load()
			if since == 0 {
				continue
			}
			last := max(since, s.conn.lastRead.Load())
			if silent := time.Since(time.Unix(0, last)); silent > s.timeout {
				what, _ := s.busyWhat.Load().(string)
				s.log.Warn("IMAP server silent; closing the connection", "command", what, "silent", silent.Round(time.Millisecond))
				s.killed.Store(true)
				s.conn.Close()
				return
			}
		}
	}
}

// close ends the connection without a word (the caller logs out first when
// it can).
func (s *session) close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.conn.Close()
		if s.c != nil {
			s.c.Close()
		}
	})
}

// logout says goodbye politely, briefly, then closes.
func (s *session) logout() {
	if s.c != nil && !s.killed.Load() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.c.Logout().Wait()
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	s.close()
}

// ensureProcessed creates the processed mailbox if it is missing. It
// reports false when it cannot be made: then mail is flagged, not moved.
func (s *session) ensureProcessed(name string) bool {
	err := s.do("CREATE", func() error { return s.c.Create(name, nil).Wait() })
	if err == nil {
		s.log.Info("created the processed mailbox", "mailbox", name)
		return true
	}
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists {
		return true
	}
	// Not every server says ALREADYEXISTS: ask for it.
	if serr := s.do("STATUS", func() error {
		_, err := s.c.Status(name, &imap.StatusOptions{NumMessages: true}).Wait()
		return err
	}); serr == nil {
		return true
	}
	s.log.Warn("cannot create the processed mailbox; handled mail will be flagged, not moved",
		"mailbox", name, "err", err)
	return false
}

// selectMailbox selects the mailbox and returns its state.
func (s *session) selectMailbox(name string) (*imap.SelectData, error) {
	var data *imap.SelectData
	err := s.do("SELECT", func() error {
		var err error
		data, err = s.c.Select(name, nil).Wait()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("inbox: SELECT %s: %w", name, err)
	}
	return data, nil
}

// newMessage is a UID above the watermark, its size and the server's
// INTERNALDATE (zero if it gave none).
type newMessage struct {
	uid      imap.UID
	size     int64
	internal time.Time
}

// newMessages lists the messages with a UID above last, oldest first. "UID
// n:*" also returns the highest message when its UID is below n (RFC 3501
// 6.4.8): the filter drops it.
func (s *session) newMessages(last imap.UID) ([]newMessage, error) {
	var set imap.UIDSet
	set.AddRange(last+1, 0) // 0 is "*"
	var out []newMessage
	err := s.do("FETCH sizes", func() error {
		msgs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true, InternalDate: true}).Collect()
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if m.UID > last {
				out = append(out, newMessage{uid: m.UID, size: m.RFC822Size, internal: m.InternalDate})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("inbox: listing new mail: %w", err)
	}
	slices.SortFunc(out, func(a, b newMessage) int { return int(a.uid) - int(b.uid) })
	return slices.CompactFunc(out, func(a, b newMessage) bool { return a.uid == b.uid }), nil
}

// fetch reads one message with BODY.PEEK[] (so \Seen is not set), at most
// max bytes of it (more is reported as too large, never read whole), or with
// header set only its header, BODY.PEEK[HEADER]<0.max>. gone is true when
// the server returned nothing: the message was expunged meanwhile.
func (s *session) fetch(uid imap.UID, headerOnly bool, max int64) (raw []byte, tooLarge, gone bool, err error) {
	section := &imap.FetchItemBodySection{Peek: true}
	if headerOnly {
		section.Specifier = imap.PartSpecifierHeader
		section.Partial = &imap.SectionPartial{Offset: 0, Size: max}
	}
	err = s.do("FETCH body", func() error {
		cmd := s.c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
		defer cmd.Close()
		got := false
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch it := item.(type) {
				case imapclient.FetchItemDataUID:
					if it.UID != uid {
						return fmt.Errorf("asked for UID %d, got %d", uid, it.UID)
					}
				case imapclient.FetchItemDataBodySection:
					if it.Literal == nil {
						continue
					}
					got = true
					b, err := readLiteral(it.Literal, max)
					if err != nil {
						return err
					}
					if int64(len(b)) > max {
						tooLarge = true
						b = b[:max]
						io.Copy(io.Discard, it.Literal)
					}
					raw = b
				}
			}
		}
		gone = !got
		return cmd.Close()
	})
	if err != nil {
		return nil, false, false, fmt.Errorf("inbox: fetching UID %d: %w", uid, err)
	}
	return raw, tooLarge, gone, nil
}

// readLiteral reads at most max+1 bytes of a literal into one buffer of its
// announced size (io.ReadAll would grow one, twice the size at worst, and
// leave the smaller ones behind: for a mail near the limit, tens of
// megabytes).
func readLiteral(l imap.LiteralReader, max int64) ([]byte, error) {
	n := l.Size()
	if n < 0 || n > max+1 {
		n = max + 1
	}
	b := make([]byte, n)
	got, err := io.ReadFull(l, b)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return b[:got], nil
	}
	return b[:got], err
}

// moveOut takes the messages out of the mailbox read: MOVE where the server
// has it; else COPY, then (only if COPY succeeded) STORE \Deleted and UID
// EXPUNGE of exactly these UIDs where UIDPLUS makes that safe; else (or when
// the processed mailbox is missing) the keyword and \Seen, deleting nothing.
// It reports how it did it.
func (s *session) moveOut(uids []imap.UID, o *Options, keywordOK bool) (how string, err error) {
	set := imap.UIDSetNum(uids...)
	switch {
	case s.canMove && s.processed:
		err = s.do("MOVE", func() error {
			_, err := s.c.Move(set, o.ProcessedMailbox).Wait()
			return err
		})
		return "moved", err
	case s.canUIDPlus && s.processed:
		err = s.do("COPY", func() error {
			_, err := s.c.Copy(set, o.ProcessedMailbox).Wait()
			return err
		})
		if err != nil {
			return "copied", err
		}
		err = s.do("STORE \\Deleted", func() error {
			return s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
		})
		if err != nil {
			return "copied", err
		}
		err = s.do("UID EXPUNGE", func() error { return s.c.UIDExpunge(set).Close() })
		return "moved", err
	default:
		flags := []imap.Flag{imap.FlagSeen}
		if keywordOK {
			flags = append(flags, imap.Flag(o.ProcessedKeyword))
		}
		err = s.do("STORE flags", func() error {
			return s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close()
		})
		return "flagged", err
	}
}

// present returns those of uids still in the selected mailbox.
func (s *session) present(uids []imap.UID) ([]imap.UID, error) {
	var out []imap.UID
	err := s.do("UID SEARCH", func() error {
		data, err := s.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(uids...)}}, nil).Wait()
		if err != nil {
			return err
		}
		out = data.AllUIDs()
		return nil
	})
	return out, err
}

// idle waits for new mail with IDLE, for at most d. It returns early when
// the server announces mail, when the connection drops, or when ctx ends.
//
// An announcement that came while the last poll ran is kept (s.wake holds
// one): the mail it announced may have come after the poll looked, so it
// costs at most one poll too many.
func (s *session) idle(ctx context.Context, d time.Duration, kick <-chan struct{}) error {
	var cmd *imapclient.IdleCommand
	if err := s.do("IDLE", func() error {
		var err error
		cmd, err = s.c.Idle()
		return err
	}); err != nil {
		return fmt.Errorf("inbox: IDLE: %w", err)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-s.wake:
	case <-kick:
	case <-timer.C:
	case <-ctx.Done():
	case <-s.c.Closed():
	}
	// DONE, and the server's OK, under the watchdog: a connection that died
	// during IDLE is found here at the latest.
	err := s.do("DONE", func() error {
		if err := cmd.Close(); err != nil {
			return err
		}
		return cmd.Wait()
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("inbox: ending IDLE: %w", err)
	}
	return nil
}

// CheckLogin connects to the IMAP server, logs in and logs out, reading
// nothing: what "pbem run" does at start, so that a wrong password is loud
// at once.
func CheckLogin(ctx context.Context, opts *Options) error {
	o := opts.withDefaults()
	if o.Handler == nil {
		o.Handler = func(context.Context, store.Mail) error { return nil } // nothing is read
	}
	if err := o.check(); err != nil {
		return err
	}
	s, err := dial(ctx, &o)
	if err != nil {
		return err
	}
	s.logout()
	return nil
}
