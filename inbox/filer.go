package inbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/syw-pbem/pbem/internal/backoff"
	"github.com/syw-pbem/pbem/store"
)

// Filing mail into folders (Filer). A host whose games share one mailbox
// at an external provider (package host) reads that mailbox with a Filer:
// for each message, oldest first, it asks File which folder of the same
// account the message belongs in, and moves it there with IMAP MOVE. Each
// game's Intake then reads its own folder (Options.Mailbox) as it reads an
// INBOX.
//
// MOVE is atomic on the server (RFC 6851): the message is in the mailbox
// read or in its folder, never in both and never in neither, whatever
// happens to the process or the connection meanwhile. A Filer killed
// before a MOVE finds the message still in the mailbox and files it again
// when it runs next — File is asked again, and must give the same answer
// (or one as good) and be safe to repeat: that is the whole of its crash
// safety. A server without MOVE is refused (COPY then EXPUNGE can leave a
// copy in both places after a crash, and the game would read the mail
// twice): every large provider offers MOVE.
//
// The Filer changes nothing in a message: the bytes the game's intake
// reads — the provider's Authentication-Results stamp included — are the
// bytes the provider delivered.

// FileFunc decides where one message goes: the folder to move it to (on
// the same account; created if missing). raw is the message, or only its
// header when tooLarge (its size is over Options.Limits.MaxRawBytes). An
// error leaves the message, and every message after it, in the mailbox
// until the next pass (try again later); File must then have done nothing
// it cannot do again.
type FileFunc func(ctx context.Context, raw []byte, tooLarge bool) (folder string, err error)

// Filer reads one mailbox and files every message in it into the folder
// File names. Build it with NewFiler; Run it until the context ends.
type Filer struct {
	o    Options
	file FileFunc

	// made are the folders known to exist (on this connection or an
	// earlier one: a folder is not removed under a running host).
	made map[string]bool
}

// NewFiler returns a Filer reading opts.Mailbox (default INBOX) on the
// server opts names, with opts' connection settings, poll interval, IDLE,
// timeouts, backoff, Limits.MaxRawBytes and Logger; the other fields
// (Handler, ProcessedMailbox and the rest) are not used. It does no I/O.
func NewFiler(opts *Options, file FileFunc) *Filer {
	o := opts.withDefaults()
	return &Filer{o: o, file: file, made: map[string]bool{}}
}

// ErrNoMove is wrapped by the error of a server that does not offer IMAP
// MOVE, which a Filer needs.
var ErrNoMove = errors.New("the IMAP server does not offer MOVE (RFC 6851)")

// Run files mail until ctx ends: a pass at once, then one whenever the
// server announces new mail (IDLE) or the poll interval passes. A failed
// connection is made again after a backoff. It returns nil when ctx ends,
// and an error only for options that cannot work or a server without
// MOVE.
func (f *Filer) Run(ctx context.Context) error {
	if err := f.check(); err != nil {
		return err
	}
	failures := 0
	for ctx.Err() == nil {
		err := f.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrNoMove) {
			return err
		}
		failures++
		wait := backoff.Delay("filer "+f.o.Addr, failures, f.o.BackoffInitial, f.o.BackoffMax)
		f.o.Logger.Warn("filing the shared mailbox failed; trying again", "err", err, "in", wait.Round(time.Millisecond))
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
	return nil
}

// PollOnce connects, files every message in the mailbox once, and logs
// out.
func (f *Filer) PollOnce(ctx context.Context) error {
	if err := f.check(); err != nil {
		return err
	}
	s, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer s.logout()
	return f.pass(ctx, s)
}

// Check connects, logs in, checks that the server offers MOVE and that
// the mailbox can be selected, and logs out, filing nothing: what a host
// does at start, so that a wrong password or a server without MOVE is
// loud at once.
func (f *Filer) Check(ctx context.Context) error {
	if err := f.check(); err != nil {
		return err
	}
	s, err := f.open(ctx)
	if err != nil {
		return err
	}
	s.logout()
	return nil
}

func (f *Filer) check() error {
	o := f.o
	if o.Handler == nil {
		o.Handler = func(context.Context, store.Mail) error { return nil } // not used
	}
	if f.file == nil {
		return errors.New("inbox: bad options: no FileFunc for the Filer")
	}
	return o.check()
}

// open connects, logs in, checks for MOVE and selects the mailbox.
func (f *Filer) open(ctx context.Context) (*session, error) {
	s, err := dial(ctx, &f.o)
	if err != nil {
		return nil, err
	}
	if !s.canMove {
		s.logout()
		return nil, fmt.Errorf("inbox: %s: %w; the host cannot file a shared mailbox there: give each game its own mailbox", f.o.Addr, ErrNoMove)
	}
	if _, err := s.selectMailbox(f.o.Mailbox); err != nil {
		s.logout()
		return nil, err
	}
	return s, nil
}

// session is one connection: passes until it fails or ctx ends.
func (f *Filer) session(ctx context.Context) error {
	s, err := f.open(ctx)
	if err != nil {
		return err
	}
	defer s.logout()
	for {
		if err := f.pass(ctx, s); err != nil {
			return err
		}
		if f.o.DisableIDLE || !s.caps.Has(imap.CapIdle) {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(f.o.PollInterval):
			}
			continue
		}
		if err := s.idle(ctx, f.o.PollInterval, nil); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// pass files every message in the selected mailbox, oldest first.
func (f *Filer) pass(ctx context.Context, s *session) error {
	msgs, err := s.newMessages(0)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if ctx.Err() != nil {
			return nil
		}
		tooLarge := m.size > f.o.Limits.MaxRawBytes
		limit := f.o.Limits.MaxRawBytes
		if tooLarge {
			limit = int64(f.o.Limits.MaxHeaderBytes)
		}
		raw, cut, gone, err := s.fetch(m.uid, tooLarge, limit)
		if err != nil {
			return err
		}
		if gone {
			continue // filed meanwhile by another Filer: nothing to do
		}
		folder, err := f.file(ctx, raw, tooLarge || cut)
		if err != nil {
			return fmt.Errorf("inbox: filing UID %d: %w", m.uid, err)
		}
		if folder == "" || folder == f.o.Mailbox {
			return fmt.Errorf("inbox: filing UID %d: no folder given (or the mailbox read, %s)", m.uid, f.o.Mailbox)
		}
		if !f.made[folder] {
			if !s.ensureProcessed(folder) {
				return fmt.Errorf("inbox: the folder %s cannot be created", folder)
			}
			f.made[folder] = true
		}
		if err := s.do("MOVE", func() error {
			_, err := s.c.Move(imap.UIDSetNum(m.uid), folder).Wait()
			return err
		}); err != nil {
			return fmt.Errorf("inbox: moving UID %d to %s: %w", m.uid, folder, err)
		}
		f.o.Logger.Debug("filed", "uid", m.uid, "folder", folder)
	}
	return nil
}
