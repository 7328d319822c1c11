package inbox

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"

	"github.com/syw-pbem/pbem/store"
)

// Taking handled mail out of the mailbox, with no password left in clear
// (reliability.md, promise 13). The store keeps every mail's bytes for
// mail.keep_raw_days; the mailbox need not. Where Options.Mask gives a copy
// for a handled mail, the copy takes the original's place in the processed
// mailbox:
//
//   - with Options.MoveOut (pbem's embedded server), in one transaction on
//     the server: the copy stored, the original deleted, or neither;
//   - on another server with UIDPLUS: APPEND the copy to the processed
//     mailbox, then — only if every APPEND succeeded — STORE \Deleted and
//     UID EXPUNGE exactly the originals. A crash between the two leaves the
//     original in the mailbox, still handled, and the next poll does both
//     again: the processed mailbox may then hold the copy twice (both
//     masked). Gmail keeps an expunged message in All Mail: there the
//     original stays until someone deletes it;
//   - on a server without UIDPLUS nothing can be deleted safely: the mail
//     is moved or flagged as it is, and the log says so.
//
// The original is taken out only after its bytes are in the store (it is
// handled), so nothing pbem read is lost.

// OutMail is one handled message taken out of the mailbox.
type OutMail struct {
	UID  uint32 // its UID in the mailbox read
	Copy []byte // what the processed mailbox keeps in its place; nil: the message itself
}

// maskHandled makes the masked copies (Options.Mask) of the mails of rows
// that are no longer stored and whose bytes are at hand, for masked: a
// large mail is then not read back from the store to be taken out. A
// failure here only leaves the copy to be made later.
func (in *Intake) maskHandled(ctx context.Context, rows []store.Mail) {
	if in.o.Mask == nil {
		return
	}
	for _, r := range rows {
		if r.Raw == nil {
			continue
		}
		if cur, err := in.db.MailHead(ctx, r.ID); err != nil || cur.Status == store.MailStored {
			continue
		}
		c, err := in.o.Mask(ctx, r)
		if err != nil {
			continue
		}
		if in.copies == nil {
			in.copies = map[int64][]byte{}
		}
		in.copies[r.ID] = c
	}
}

// masked gives the copy of each mail of the batch: made when it was
// handled (maskHandled), or now from its bytes in the store, read one mail
// at a time.
func (in *Intake) masked(ctx context.Context, batch []store.Mail) ([]OutMail, error) {
	items := make([]OutMail, len(batch))
	for i, r := range batch {
		items[i].UID = r.UID
		if in.o.Mask == nil {
			continue
		}
		if c, ok := in.copies[r.ID]; ok {
			items[i].Copy = c
			continue
		}
		m, err := in.db.Mail(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		if items[i].Copy, err = in.o.Mask(ctx, m); err != nil {
			return nil, fmt.Errorf("masking mail %d: %w", r.ID, err)
		}
	}
	return items, nil
}

// replaceOut puts each copy into the processed mailbox with APPEND and, if
// every APPEND succeeded, deletes exactly the originals (UIDPLUS).
func (s *session) replaceOut(items []OutMail, processed string) error {
	for _, it := range items {
		err := s.do("APPEND", func() error {
			cmd := s.c.Append(processed, int64(len(it.Copy)), nil)
			if _, err := cmd.Write(it.Copy); err != nil {
				cmd.Close()
				return err
			}
			if err := cmd.Close(); err != nil {
				return err
			}
			_, err := cmd.Wait()
			return err
		})
		if err != nil {
			return err
		}
	}
	uids := make([]imap.UID, len(items))
	for i, it := range items {
		uids[i] = imap.UID(it.UID)
	}
	set := imap.UIDSetNum(uids...)
	err := s.do("STORE \\Deleted", func() error {
		return s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	})
	if err != nil {
		return err
	}
	return s.do("UID EXPUNGE", func() error { return s.c.UIDExpunge(set).Close() })
}

// moveBatch bounds the UIDs named in one MOVE, COPY or STORE.
const moveBatch = 500

// moveHandled takes every handled mail of this mailbox out of it (see
// session.moveOut) and marks it moved. Mail stored under an earlier
// UIDVALIDITY cannot be named any more; its copy under the current one was
// stored as a duplicate by this poll (or the message is gone), so it is
// marked moved with a note.
func (in *Intake) moveHandled(ctx context.Context, s *session, uv uint32, keywordOK bool) error {
	var rows []store.Mail
	for _, st := range []store.MailStatus{store.MailHandled, store.MailIgnored, store.MailQuarantined, store.MailAcknowledged} {
		rs, err := in.db.MailHeadsByStatus(ctx, st)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if r.Mailbox == in.o.Mailbox {
				r.Raw = nil
				rows = append(rows, r)
			}
		}
	}
	slices.SortFunc(rows, func(a, b store.Mail) int { return int(a.ID - b.ID) })
	var current []store.Mail
	for _, r := range rows {
		if r.UIDValidity == uv {
			current = append(current, r)
			continue
		}
		note := fmt.Sprintf("UIDVALIDITY changed from %d to %d before it was moved; the message, if still there, was found again by its SHA-256 and moved as a duplicate", r.UIDValidity, uv)
		if err := in.db.SetMailStatus(ctx, r.ID, store.MailMoved, r.Classification, joinNote(r.Error, note)); err != nil {
			return err
		}
	}
	for len(current) > 0 {
		batch := current[:min(len(current), moveBatch)]
		current = current[len(batch):]
		how, err := in.takeOut(ctx, s, uv, batch, keywordOK)
		if err != nil {
			return fmt.Errorf("inbox: taking %d handled messages out of %s: %w", len(batch), in.o.Mailbox, err)
		}
		for _, r := range batch {
			if err := in.step(stepMoved, r); err != nil {
				return err
			}
		}
		// Marked moved together, in one transaction.
		err = in.db.Update(ctx, func(tx *store.Tx) error {
			for _, r := range batch {
				if err := tx.SetMailStatus(ctx, r.ID, store.MailMoved, r.Classification, r.Error); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range batch {
			delete(in.copies, r.ID)
		}
		in.log.Info("handled mail taken out of the mailbox", "how", how, "count", len(batch), "to", in.o.ProcessedMailbox)
	}
	return nil
}

// takeOut takes a batch of handled mail out of the mailbox (see
// moveout.go) and says how.
func (in *Intake) takeOut(ctx context.Context, s *session, uv uint32, batch []store.Mail, keywordOK bool) (string, error) {
	items, err := in.masked(ctx, batch)
	if err != nil {
		return "", err
	}
	if in.o.MoveOut != nil {
		return "moved by the server", in.o.MoveOut(ctx, in.o.Mailbox, uv, in.o.ProcessedMailbox, items)
	}
	var plain []imap.UID
	var copies []OutMail
	for _, it := range items {
		if it.Copy != nil && s.canUIDPlus && s.processed {
			copies = append(copies, it)
		} else {
			plain = append(plain, imap.UID(it.UID))
		}
	}
	if len(copies) < len(items) && in.o.Mask != nil && !in.warnedMask {
		for _, it := range items {
			if it.Copy != nil && !(s.canUIDPlus && s.processed) {
				in.warnedMask = true
				in.log.Warn("the server offers no UIDPLUS (or the processed mailbox cannot be made): handled mail is moved or flagged "+
					"as it is, passwords and all; delete it from the server by hand, or use a server with UIDPLUS", "mailbox", in.o.Mailbox)
				break
			}
		}
	}
	how := ""
	if len(copies) > 0 {
		// Only those still here: a repeat after a crash that came after
		// the EXPUNGE must not APPEND their copies again.
		uids := make([]imap.UID, len(copies))
		for i, c := range copies {
			uids[i] = imap.UID(c.UID)
		}
		left, err := s.present(uids)
		if err != nil {
			return "", err
		}
		copies = slices.DeleteFunc(copies, func(c OutMail) bool { return !slices.Contains(left, imap.UID(c.UID)) })
		if len(copies) > 0 {
			if err := s.replaceOut(copies, in.o.ProcessedMailbox); err != nil {
				return "", err
			}
		}
		how = "masked copies kept"
	}
	if len(plain) > 0 {
		h, err := in.moveUIDs(s, plain, keywordOK)
		if err != nil {
			return "", err
		}
		how = strings.TrimPrefix(how+", "+h, ", ")
	}
	return how, nil
}

// moveUIDs moves (or flags) messages as they are, coping with a server
// that says NO for UIDs already gone, and with a processed mailbox deleted
// under the intake.
func (in *Intake) moveUIDs(s *session, uids []imap.UID, keywordOK bool) (string, error) {
	how, err := s.moveOut(uids, &in.o, keywordOK)
	var ie *imap.Error
	if err != nil && errors.As(err, &ie) && ie.Code == imap.ResponseCodeTryCreate {
		// The processed mailbox was deleted under us.
		s.processed = s.ensureProcessed(in.o.ProcessedMailbox)
		how, err = s.moveOut(uids, &in.o, keywordOK)
	}
	if err != nil && errors.As(err, &ie) {
		// Some servers answer NO for UIDs no longer there (moved before
		// a crash, or by a person): move what is left.
		left, serr := s.present(uids)
		if serr == nil && len(left) < len(uids) {
			how, err = "already gone", nil
			if len(left) > 0 {
				how, err = s.moveOut(left, &in.o, keywordOK)
			}
		}
	}
	return how, err
}
