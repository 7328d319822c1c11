package mailserver

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"sort"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// target is a message picked by a sequence or UID set: its position in the
// mailbox (index into msgs) and its sequence number as this client knows it.
type target struct {
	index  int
	seqNum uint32
	msg    message // snapshot
}

// resolve returns the messages of numSet in ascending order. Messages the
// client has not yet been told about (no EXISTS sent) are left out. Caller
// holds srv.mu.
func (sel *selection) resolve(numSet imap.NumSet) []target {
	m := sel.mbox
	if len(m.msgs) == 0 {
		return nil
	}
	if imap.IsSearchRes(numSet) {
		numSet = sel.searchRes
	}
	var out []target
	add := func(i int) {
		if seq := sel.tracker.EncodeSeqNum(uint32(i) + 1); seq != 0 {
			out = append(out, target{index: i, seqNum: seq, msg: *m.msgs[i]})
		}
	}
	switch set := numSet.(type) {
	case imap.SeqSet:
		set = staticSeqSet(set, uint32(len(m.msgs)))
		for i := range m.msgs {
			if seq := sel.tracker.EncodeSeqNum(uint32(i) + 1); seq != 0 && set.Contains(seq) {
				out = append(out, target{index: i, seqNum: seq, msg: *m.msgs[i]})
			}
		}
	case imap.UIDSet:
		set = staticUIDSet(set, m.lastUID())
		seen := make(map[int]bool)
		for _, r := range set {
			lo := sort.Search(len(m.msgs), func(i int) bool { return m.msgs[i].uid >= r.Start })
			for i := lo; i < len(m.msgs) && m.msgs[i].uid <= r.Stop; i++ {
				if !seen[i] {
					seen[i] = true
					add(i)
				}
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	}
	return out
}

// staticSeqSet and staticUIDSet replace "*" (0) with the last number and
// order each range, on a copy.
func staticSeqSet(set imap.SeqSet, last uint32) imap.SeqSet {
	out := make(imap.SeqSet, len(set))
	for i, r := range set {
		out[i].Start, out[i].Stop = staticRange(r.Start, r.Stop, last)
	}
	return out
}

func staticUIDSet(set imap.UIDSet, last imap.UID) imap.UIDSet {
	out := make(imap.UIDSet, len(set))
	for i, r := range set {
		start, stop := staticRange(uint32(r.Start), uint32(r.Stop), uint32(last))
		out[i].Start, out[i].Stop = imap.UID(start), imap.UID(stop)
	}
	return out
}

func staticRange(start, stop, last uint32) (uint32, uint32) {
	if start == 0 {
		start = last
	}
	if stop == 0 {
		stop = last
	}
	if start > stop {
		start, stop = stop, start
	}
	return start, stop
}

// check refuses a command on a mailbox another session has deleted, and a
// change (write) under EXAMINE. The commands themselves run under the lock
// and touch no row of a deleted mailbox; this only gives the client a clear
// answer.
func (s *imapSession) check(write bool) error {
	s.srv.mu.RLock()
	gone := s.sel.mbox.deleted
	s.srv.mu.RUnlock()
	if gone {
		return errMailboxGone
	}
	if write && s.sel.readOnly {
		return errReadOnly
	}
	return nil
}

func (s *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	sel := s.sel
	if err := s.check(false); err != nil {
		return err
	}
	markSeen := false
	if !sel.readOnly {
		for _, bs := range options.BodySection {
			markSeen = markSeen || !bs.Peek
		}
		for _, bs := range options.BinarySection {
			markSeen = markSeen || !bs.Peek
		}
	}

	var targets []target
	newlySeen := make(map[imap.UID]bool)
	if markSeen {
		// A non-peek body fetch sets \Seen, durably, before the body is sent.
		err := s.srv.update(context.Background(), func(tx *sql.Tx) (func(), error) {
			targets = sel.resolve(numSet)
			type change struct {
				t     *target
				flags []imap.Flag
			}
			var changes []change
			for i := range targets {
				t := &targets[i]
				if hasFlag(t.msg.flags, imap.FlagSeen) {
					continue
				}
				flags := addFlags(append([]imap.Flag(nil), t.msg.flags...), []imap.Flag{imap.FlagSeen})
				if err := updateFlags(context.Background(), tx, sel.mbox.id, t.msg.uid, flags); err != nil {
					return nil, err
				}
				changes = append(changes, change{t, flags})
			}
			return func() {
				for _, c := range changes {
					sel.mbox.msgs[c.t.index].flags = c.flags
					c.t.msg.flags = c.flags
					newlySeen[c.t.msg.uid] = true
					sel.mbox.tracker.QueueMessageFlags(uint32(c.t.index)+1, c.t.msg.uid, c.flags, sel.tracker)
				}
			}, nil
		})
		if err != nil {
			return err
		}
	} else {
		s.srv.mu.RLock()
		targets = sel.resolve(numSet)
		s.srv.mu.RUnlock()
	}

	needRaw := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	stream := streamable(options)
	for _, t := range targets {
		if stream {
			if err := s.srv.fetchStreamed(w, sel.mbox.id, &t, options, newlySeen[t.msg.uid]); err != nil {
				return err
			}
			continue
		}
		var raw []byte
		if needRaw {
			var ok bool
			var err error
			if headerOnly(options) {
				raw, ok, err = s.srv.loadHeader(sel.mbox.id, t.msg.uid)
			} else {
				raw, ok, err = s.srv.loadRaw(sel.mbox.id, t.msg.uid)
			}
			if err != nil {
				return err
			}
			if !ok {
				continue // expunged since resolve; the EXPUNGE will follow
			}
		}
		if err := writeFetch(w.CreateMessage(t.seqNum), &t.msg, raw, options, newlySeen[t.msg.uid]); err != nil {
			return err
		}
	}
	return nil
}

// loadRaw reads a message body from the store.
func (s *Server) loadRaw(mailboxID int64, uid imap.UID) ([]byte, bool, error) {
	s.mu.RLock()
	db := s.db
	s.mu.RUnlock()
	if db == nil {
		return nil, false, errClosed
	}
	return loadRaw(context.Background(), db, mailboxID, uid)
}

// writeFetchAttrs writes the attributes of a FETCH response that need no
// bytes of the message: UID, FLAGS, INTERNALDATE, RFC822.SIZE.
func writeFetchAttrs(w *imapserver.FetchResponseWriter, msg *message, options *imap.FetchOptions, flagsChanged bool) {
	w.WriteUID(msg.uid)
	if options.Flags || flagsChanged {
		w.WriteFlags(nonNilFlags(msg.flags))
	}
	if options.InternalDate {
		w.WriteInternalDate(msg.date)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(msg.size)
	}
}

// streamable reports a FETCH whose only need of the message's bytes is the
// whole message (BODY[] or BODY.PEEK[]): it is written a chunk at a time
// (chunks.go), never held whole.
func streamable(o *imap.FetchOptions) bool {
	return len(o.BodySection) == 1 && wholeMessage(o.BodySection[0]) && o.BodySection[0].Partial == nil &&
		!o.Envelope && o.BodyStructure == nil && len(o.BinarySection) == 0 && len(o.BinarySectionSize) == 0
}

// fetchStreamed writes one FETCH response of a streamable FETCH; a message
// expunged meanwhile is left out (its EXPUNGE follows).
func (s *Server) fetchStreamed(w *imapserver.FetchWriter, mailboxID int64, t *target, options *imap.FetchOptions, flagsChanged bool) error {
	s.mu.RLock()
	db := s.db
	s.mu.RUnlock()
	if db == nil {
		return errClosed
	}
	var first []byte
	err := db.QueryRowContext(context.Background(), "SELECT raw FROM messages WHERE mailbox_id = ? AND uid = ?",
		mailboxID, int64(t.msg.uid)).Scan(&first)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rw := w.CreateMessage(t.seqNum)
	writeFetchAttrs(rw, &t.msg, options, flagsChanged)
	wc := rw.WriteBodySection(options.BodySection[0], t.msg.size)
	if _, err := wc.Write(first); err != nil {
		return err
	}
	if err := eachChunk(context.Background(), db, mailboxID, t.msg.uid, t.msg.size, func(b []byte) error {
		_, err := wc.Write(b)
		return err
	}); err != nil {
		// The literal promised more than there is: the connection cannot
		// go on.
		return err
	}
	if err := wc.Close(); err != nil {
		return err
	}
	return rw.Close()
}

// writeFetch writes one FETCH response. The UID is always included, and
// FLAGS also when the fetch itself set \Seen.
func writeFetch(w *imapserver.FetchResponseWriter, msg *message, raw []byte, options *imap.FetchOptions, flagsChanged bool) error {
	writeFetchAttrs(w, msg, options, flagsChanged)
	if options.Envelope {
		w.WriteEnvelope(envelope(raw))
	}
	if options.BodyStructure != nil {
		w.WriteBodyStructure(bodyStructure(raw))
	}
	for _, bs := range options.BodySection {
		var b []byte
		if wholeMessage(bs) {
			// The message as stored, not parsed and written again: what
			// BODY[] means, and no copy of a large message (the intake
			// fetches every mail so).
			b = partial(raw, bs.Partial)
		} else {
			b = imapserver.ExtractBodySection(bytes.NewReader(raw), bs)
		}
		if err := writeAndClose(w.WriteBodySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		b := imapserver.ExtractBinarySection(bytes.NewReader(raw), bs)
		wc := w.WriteBinarySection(bs, int64(len(b)))
		if err := writeAndClose(wc, b); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(raw), bss))
	}
	return w.Close()
}

// wholeMessage reports a body section that is the whole message: BODY[] or
// BODY[]<offset.size>.
func wholeMessage(bs *imap.FetchItemBodySection) bool {
	return bs.Specifier == imap.PartSpecifierNone && len(bs.Part) == 0 && len(bs.HeaderFields) == 0 && len(bs.HeaderFieldsNot) == 0
}

// partial is the <offset.size> part of b (all of b without one).
func partial(b []byte, p *imap.SectionPartial) []byte {
	if p == nil {
		return b
	}
	if p.Offset >= int64(len(b)) {
		return nil
	}
	end := int64(len(b))
	if p.Size >= 0 && p.Offset+p.Size < end {
		end = p.Offset + p.Size
	}
	return b[p.Offset:end]
}

// maxMultiparts bounds the MIME nesting bodyStructure hands to the parser:
// go-message's cost grows with the square of the nesting depth, so a crafted
// mail of a megabyte could otherwise keep a FETCH busy for minutes.
const maxMultiparts = 64

// bodyStructure is imapserver.ExtractBodyStructure, except that a message
// declaring more than maxMultiparts multipart entities is described as one
// opaque part (its bytes stay fetchable with BODY[]).
func bodyStructure(raw []byte) imap.BodyStructure {
	if bytes.Count(bytes.ToLower(raw), []byte("multipart/")) > maxMultiparts {
		_, body, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
		return &imap.BodyStructureSinglePart{
			Type: "application", Subtype: "octet-stream", Encoding: "7bit", Size: uint32(len(body)),
		}
	}
	return imapserver.ExtractBodyStructure(bytes.NewReader(raw))
}

func nonNilFlags(f []imap.Flag) []imap.Flag {
	if f == nil {
		return []imap.Flag{}
	}
	return f
}

func envelope(raw []byte) *imap.Envelope {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return &imap.Envelope{}
	}
	return imapserver.ExtractEnvelope(h)
}

func writeAndClose(wc io.WriteCloser, b []byte) error {
	_, werr := wc.Write(b)
	cerr := wc.Close()
	if werr != nil {
		return werr
	}
	return cerr
}

func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	sel := s.sel
	if err := s.check(true); err != nil {
		return err
	}
	var targets []target
	err := s.srv.update(context.Background(), func(tx *sql.Tx) (func(), error) {
		targets = sel.resolve(numSet)
		changed := make([]bool, len(targets))
		newFlags := make([][]imap.Flag, len(targets))
		for i, t := range targets {
			nf, ch := applyStore(t.msg.flags, flags.Op, flags.Flags)
			newFlags[i], changed[i] = nf, ch
			if ch {
				if err := updateFlags(context.Background(), tx, sel.mbox.id, t.msg.uid, nf); err != nil {
					return nil, err
				}
			}
		}
		return func() {
			for i := range targets {
				t := &targets[i]
				t.msg.flags = newFlags[i]
				if changed[i] {
					sel.mbox.msgs[t.index].flags = newFlags[i]
					sel.mbox.tracker.QueueMessageFlags(uint32(t.index)+1, t.msg.uid, newFlags[i], sel.tracker)
				}
			}
		}, nil
	})
	if err != nil {
		return err
	}
	if flags.Silent {
		return nil
	}
	for _, t := range targets {
		if err := writeFetch(w.CreateMessage(t.seqNum), &t.msg, nil, &imap.FetchOptions{Flags: true}, false); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	sel := s.sel
	if sel.readOnly {
		// CLOSE on an EXAMINEd mailbox also lands here and must not expunge.
		return nil
	}
	if err := s.check(true); err != nil {
		return err
	}
	return s.srv.update(context.Background(), func(tx *sql.Tx) (func(), error) {
		m := sel.mbox
		var gone []int
		for i, msg := range m.msgs {
			if hasFlag(msg.flags, imap.FlagDeleted) && (uids == nil || uids.Contains(msg.uid)) {
				if err := deleteMessage(context.Background(), tx, m.id, msg.uid); err != nil {
					return nil, err
				}
				gone = append(gone, i)
			}
		}
		return func() { m.expunge(gone) }, nil
	})
}

// expunge removes the messages at the given ascending indexes and queues an
// EXPUNGE for each, highest first, so each number is right when it is
// applied. The sessions (this one included) send them when they next poll.
// Caller holds srv.mu for writing.
func (m *mailbox) expunge(indexes []int) {
	if len(indexes) == 0 {
		return
	}
	for k := len(indexes) - 1; k >= 0; k-- {
		m.tracker.QueueExpunge(uint32(indexes[k]) + 1)
	}
	drop := make(map[int]bool, len(indexes))
	for _, i := range indexes {
		drop[i] = true
	}
	kept := make([]*message, 0, len(m.msgs)-len(indexes))
	for i, msg := range m.msgs {
		if !drop[i] {
			kept = append(kept, msg)
		}
	}
	m.msgs = kept
}

func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	if err := s.check(false); err != nil {
		return nil, err
	}
	return s.copyOrMove(numSet, dest, false)
}

func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	if err := s.check(true); err != nil {
		return err
	}
	data, err := s.copyOrMove(numSet, dest, true)
	if err != nil {
		return err
	}
	// The EXPUNGEs were queued on the tracker; the library's poll after
	// the command sends them, after this COPYUID as RFC 6851 wants.
	return w.WriteCopyData(data)
}

// copyOrMove copies (and for MOVE, removes) messages in one transaction.
// Flags and internal dates travel with the message; each copy gets the next
// UID of the destination.
func (s *imapSession) copyOrMove(numSet imap.NumSet, destName string, move bool) (*imap.CopyData, error) {
	sel := s.sel
	data := &imap.CopyData{}
	err := s.srv.update(context.Background(), func(tx *sql.Tx) (func(), error) {
		if sel.mbox.deleted {
			return nil, errMailboxGone
		}
		dest := s.mailbox(destName)
		if dest == nil {
			return nil, errTryCreate
		}
		if move && dest == sel.mbox {
			return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot,
				Text: "Source and destination mailboxes are the same"}
		}
		targets := sel.resolve(numSet)
		next := dest.uidNext
		var gone []int
		var copies []*message
		arrival := Arrival{Via: ViaCopy, User: s.srv.address(s.acct.user), Remote: remoteIP(s.conn.NetConn().RemoteAddr())}
		if move {
			arrival.Via = ViaMove
		}
		for _, t := range targets {
			if err := copyMessage(context.Background(), tx, sel.mbox.id, t.msg.uid, dest.id, next, arrival); err != nil {
				return nil, err
			}
			if move {
				if err := deleteMessage(context.Background(), tx, sel.mbox.id, t.msg.uid); err != nil {
					return nil, err
				}
				gone = append(gone, t.index)
			}
			c := t.msg
			c.uid = next
			c.arrival = arrival.String()
			copies = append(copies, &c)
			data.SourceUIDs.AddNum(t.msg.uid)
			data.DestUIDs.AddNum(next)
			next++
		}
		data.UIDValidity = dest.uidValidity
		return func() {
			for _, c := range copies {
				dest.msgs = append(dest.msgs, c)
				dest.uidNext = c.uid + 1
				dest.tracker.QueueNumMessages(uint32(len(dest.msgs)))
			}
			sel.mbox.expunge(gone)
		}, nil
	})
	if err != nil {
		return nil, err
	}
	if len(data.SourceUIDs) == 0 {
		return nil, nil // nothing matched: plain OK, no COPYUID
	}
	return data, nil
}
