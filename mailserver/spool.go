package mailserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/emersion/go-imap/v2"
)

// Bounded memory for large messages. A message arrives by SMTP DATA as a
// stream; a small one (most of them: an order sheet is a few kilobytes) is
// read into memory, but one larger than smallMessage is spooled to a file in
// the server's folder as it arrives, and only one large message at a time
// (all SMTP sessions together) is read and stored: the others wait their
// turn before reading on. It is stored from the file a MiB at a time
// (chunks.go). Line ends are made CRLF while the data streams past, without
// another copy, and the SHA-256 of the message is taken on the way (for the
// delivery key, dedupe.go).

// smallMessage is the size up to which a message is read into memory.
const smallMessage = 1 << 20

// spooled is a message read from DATA.
type spooled struct {
	mem     []byte   // the whole message, when small
	file    *os.File // the spool file, when large
	size    int64
	head    []byte            // the start of the message (up to maxPolicyHeader)
	sum     [sha256.Size]byte // SHA-256 of the message (CRLF line ends)
	release func()            // lets the next large message in
}

// whole reports whether head is the whole message.
func (sp *spooled) whole() bool { return int64(len(sp.head)) == sp.size }

// spool reads r (dot-unstuffed DATA) with CRLF line ends.
func (s *Server) spool(r io.Reader) (*spooled, error) {
	var buf bytes.Buffer
	hash := sha256.New()
	w := &crlfWriter{w: io.MultiWriter(&buf, hash)}
	n, err := io.CopyN(w, r, smallMessage)
	if err == io.EOF {
		b := buf.Bytes()
		sp := &spooled{mem: b, size: int64(len(b)), head: b[:min(len(b), maxPolicyHeader)], release: func() {}}
		hash.Sum(sp.sum[:0])
		return sp, nil
	}
	if err != nil {
		return nil, err
	}
	_ = n
	// A large message: wait for the others to be stored, then spool.
	s.large <- struct{}{}
	sp := &spooled{release: func() { <-s.large }}
	f, err := os.CreateTemp(s.opts.Dir, "incoming-*.eml")
	if err != nil {
		sp.release()
		return nil, fmt.Errorf("mailserver: spool file: %w", err)
	}
	sp.file = f
	head := append([]byte(nil), buf.Bytes()[:min(buf.Len(), maxPolicyHeader)]...)
	if _, err := f.Write(buf.Bytes()); err != nil {
		sp.close()
		return nil, err
	}
	buf = bytes.Buffer{}
	fw := &crlfWriter{w: io.MultiWriter(f, hash), lastCR: w.lastCR}
	if _, err := io.Copy(fw, r); err != nil {
		sp.close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		sp.close()
		return nil, err
	}
	sp.size, sp.head = st.Size(), head
	hash.Sum(sp.sum[:0])
	return sp, nil
}

// close removes the spool file and lets the next large message in.
func (sp *spooled) close() {
	if sp.file != nil {
		sp.file.Close()
		os.Remove(sp.file.Name())
		sp.file = nil
	}
	if sp.release != nil {
		sp.release()
		sp.release = nil
	}
}

// crlfWriter writes what it is given with every bare LF made CRLF.
type crlfWriter struct {
	w      io.Writer
	lastCR bool
}

func (c *crlfWriter) Write(p []byte) (int, error) {
	start := 0
	for i, b := range p {
		if b == '\n' && !(i == 0 && c.lastCR || i > 0 && p[i-1] == '\r') {
			if _, err := c.w.Write(p[start:i]); err != nil {
				return start, err
			}
			if _, err := c.w.Write([]byte{'\r'}); err != nil {
				return i, err
			}
			start = i
		}
	}
	if _, err := c.w.Write(p[start:]); err != nil {
		return start, err
	}
	if len(p) > 0 {
		c.lastCR = p[len(p)-1] == '\r'
	}
	return len(p), nil
}

// headerPrefix is how much of a message loadHeader reads: more than any
// header the SMTP server takes (maxPolicyHeader) is allowed to hold.
const headerPrefix = 1 << 20

// headerOnly reports a FETCH that needs nothing of the messages but their
// header (BODY.PEEK[HEADER], HEADER.FIELDS …, and the message attributes):
// what pbem's intake asks of a message over its size limit.
func headerOnly(o *imap.FetchOptions) bool {
	if o.Envelope || o.BodyStructure != nil || len(o.BinarySection) > 0 || len(o.BinarySectionSize) > 0 || len(o.BodySection) == 0 {
		return false
	}
	for _, bs := range o.BodySection {
		if len(bs.Part) > 0 {
			return false
		}
		switch bs.Specifier {
		case imap.PartSpecifierHeader:
		default:
			return false
		}
	}
	return true
}

// loadHeader reads the start of a message, enough for its header; the
// whole message when its header does not end within headerPrefix.
func (s *Server) loadHeader(mailboxID int64, uid imap.UID) ([]byte, bool, error) {
	s.mu.RLock()
	db := s.db
	s.mu.RUnlock()
	if db == nil {
		return nil, false, errClosed
	}
	var raw []byte
	err := db.QueryRowContext(context.Background(), "SELECT substr(raw, 1, ?) FROM messages WHERE mailbox_id = ? AND uid = ?",
		headerPrefix, mailboxID, int64(uid)).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if len(raw) < headerPrefix || bytes.Contains(raw, []byte("\r\n\r\n")) || bytes.Contains(raw, []byte("\n\n")) {
		return raw, true, nil
	}
	return s.loadRaw(mailboxID, uid)
}
