package inbox

import (
	"context"
	"fmt"

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
