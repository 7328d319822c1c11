package mailserver

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Limits on the MIME walk done for SEARCH BODY and TEXT, so a hostile
// message (deep nesting, thousands of parts) costs bounded work.
const (
	searchMaxDepth     = 16
	searchMaxParts     = 500
	searchMaxPartBytes = 8 << 20
)

func (s *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	sel := s.sel
	s.srv.mu.RLock()
	defer s.srv.mu.RUnlock()
	if sel.mbox.deleted {
		return nil, errMailboxGone
	}
	m := sel.mbox
	c := sel.staticCriteria(*criteria, uint32(len(m.msgs)), m.lastUID())

	var (
		seqs imap.SeqSet
		uids imap.UIDSet
		data = &imap.SearchData{}
	)
	for i, msg := range m.msgs {
		// A message the client has not yet been told about (its EXISTS
		// follows this command) has no sequence number for it yet: UID
		// SEARCH may report it, SEARCH may not.
		seq := sel.tracker.EncodeSeqNum(uint32(i) + 1)
		if seq == 0 && kind != imapserver.NumKindUID {
			continue
		}
		cand := &candidate{srv: s.srv, mailboxID: m.id, msg: msg, seqNum: seq}
		ok, err := cand.match(&c)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		uids.AddNum(msg.uid)
		num := seq
		if kind == imapserver.NumKindUID {
			num = uint32(msg.uid)
		} else {
			seqs.AddNum(seq)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		data.Max = max(data.Max, num)
		data.Count++
	}
	if kind == imapserver.NumKindUID {
		data.All = uids
	} else {
		data.All = seqs
	}
	if options.ReturnSave {
		sel.searchRes = uids
	}
	return data, nil
}

// staticCriteria returns a copy of c with "*" and "$" replaced by real
// numbers, recursively.
func (sel *selection) staticCriteria(c imap.SearchCriteria, lastSeq uint32, lastUID imap.UID) imap.SearchCriteria {
	seqs := make([]imap.SeqSet, len(c.SeqNum))
	for i, set := range c.SeqNum {
		seqs[i] = staticSeqSet(set, lastSeq)
	}
	c.SeqNum = seqs
	uids := make([]imap.UIDSet, len(c.UID))
	for i, set := range c.UID {
		if imap.IsSearchRes(set) {
			set = sel.searchRes
		}
		uids[i] = staticUIDSet(set, lastUID)
	}
	c.UID = uids
	nots := make([]imap.SearchCriteria, len(c.Not))
	for i := range c.Not {
		nots[i] = sel.staticCriteria(c.Not[i], lastSeq, lastUID)
	}
	c.Not = nots
	ors := make([][2]imap.SearchCriteria, len(c.Or))
	for i := range c.Or {
		ors[i][0] = sel.staticCriteria(c.Or[i][0], lastSeq, lastUID)
		ors[i][1] = sel.staticCriteria(c.Or[i][1], lastSeq, lastUID)
	}
	c.Or = ors
	return c
}

// candidate is a message being matched; its body is read from the store
// only if a criterion needs it, and then only once.
type candidate struct {
	srv       *Server
	mailboxID int64
	msg       *message
	seqNum    uint32

	raw    []byte
	loaded bool
}

func (c *candidate) body() ([]byte, error) {
	if !c.loaded {
		raw, _, err := loadRaw(context.Background(), c.srv.db, c.mailboxID, c.msg.uid)
		if err != nil {
			return nil, err
		}
		c.raw, c.loaded = raw, true
	}
	return c.raw, nil
}

func (c *candidate) header() (mail.Header, error) {
	raw, err := c.body()
	if err != nil {
		return mail.Header{}, err
	}
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	return mail.Header{Header: gomessage.Header{Header: h}}, nil
}

func (c *candidate) match(cr *imap.SearchCriteria) (bool, error) {
	for _, set := range cr.SeqNum {
		if c.seqNum == 0 || !set.Contains(c.seqNum) {
			return false, nil
		}
	}
	for _, set := range cr.UID {
		if !set.Contains(c.msg.uid) {
			return false, nil
		}
	}
	if !dateInRange(c.msg.date, cr.Since, cr.Before) {
		return false, nil
	}
	for _, f := range cr.Flag {
		if !hasFlag(c.msg.flags, f) {
			return false, nil
		}
	}
	for _, f := range cr.NotFlag {
		if hasFlag(c.msg.flags, f) {
			return false, nil
		}
	}
	if cr.Larger != 0 && c.msg.size <= cr.Larger {
		return false, nil
	}
	if cr.Smaller != 0 && c.msg.size >= cr.Smaller {
		return false, nil
	}
	if len(cr.Header) > 0 || !cr.SentSince.IsZero() || !cr.SentBefore.IsZero() {
		h, err := c.header()
		if err != nil {
			return false, err
		}
		for _, hf := range cr.Header {
			if !headerContains(h.FieldsByKey(hf.Key), hf.Value) {
				return false, nil
			}
		}
		if !cr.SentSince.IsZero() || !cr.SentBefore.IsZero() {
			sent, err := h.Date()
			if err != nil || !dateInRange(sent, cr.SentSince, cr.SentBefore) {
				return false, nil
			}
		}
	}
	for _, texts := range []struct {
		words      []string
		withHeader bool
	}{{cr.Body, false}, {cr.Text, true}} {
		for _, word := range texts.words {
			raw, err := c.body()
			if err != nil {
				return false, err
			}
			if !textContains(raw, word, texts.withHeader) {
				return false, nil
			}
		}
	}
	for i := range cr.Not {
		ok, err := c.match(&cr.Not[i])
		if err != nil || ok {
			return false, err
		}
	}
	for i := range cr.Or {
		ok, err := c.match(&cr.Or[i][0])
		if err != nil {
			return false, err
		}
		if !ok {
			if ok, err = c.match(&cr.Or[i][1]); err != nil || !ok {
				return false, err
			}
		}
	}
	return true, nil
}

// dateInRange compares dates only, ignoring time and zone, as RFC 3501
// asks for SINCE, BEFORE, SENTSINCE and SENTBEFORE.
func dateInRange(t, since, before time.Time) bool {
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	d := day(t)
	if !since.IsZero() && d.Before(day(since)) {
		return false
	}
	if !before.IsZero() && !d.Before(day(before)) {
		return false
	}
	return true
}

// headerContains reports whether one of fields contains value, decoded and
// without regard to case; an empty value asks only that the field exists.
func headerContains(fields gomessage.HeaderFields, value string) bool {
	if value == "" {
		return fields.Len() > 0
	}
	value = strings.ToLower(value)
	for fields.Next() {
		v, err := fields.Text()
		if err != nil {
			v = fields.Value()
		}
		if strings.Contains(strings.ToLower(v), value) {
			return true
		}
	}
	return false
}

// textContains searches the decoded text parts of a message (and its
// header fields, for TEXT) for word, without regard to case.
func textContains(raw []byte, word string, withHeader bool) bool {
	word = strings.ToLower(word)
	e, _ := gomessage.Read(bytes.NewReader(raw)) // an unknown charset still gives a usable entity
	if e == nil {
		// Unreadable structure: fall back to the raw bytes.
		return strings.Contains(strings.ToLower(string(raw)), word)
	}
	parts := 0
	return entityContains(e, word, withHeader, 0, &parts)
}

func entityContains(e *gomessage.Entity, word string, withHeader bool, depth int, parts *int) bool {
	*parts++
	if depth > searchMaxDepth || *parts > searchMaxParts {
		return false
	}
	if withHeader {
		for f := e.Header.Fields(); f.Next(); {
			v, err := f.Text()
			if err != nil {
				v = f.Value()
			}
			if strings.Contains(strings.ToLower(v), word) {
				return true
			}
		}
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			p, err := mr.NextPart()
			if err != nil {
				return false
			}
			if entityContains(p, word, withHeader, depth+1, parts) {
				return true
			}
		}
	}
	mediaType, _, _ := e.Header.ContentType()
	if mediaType != "" && !strings.HasPrefix(mediaType, "text/") && !strings.HasPrefix(mediaType, "message/") {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(e.Body, searchMaxPartBytes))
	return strings.Contains(strings.ToLower(string(b)), word)
}
