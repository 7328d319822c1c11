package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/emersion/go-imap/v2"
)

// Large messages in pieces. SQLite copies a blob whole on every INSERT and
// SELECT (the bound value, the record it builds, the value it reads back),
// and the driver offers no incremental blob I/O; a message near the size
// limit would cost several times its size in memory to store or fetch. So
// a message's first chunkSize bytes are kept in messages.raw and the rest
// in message_chunks, chunkSize bytes a row: storing reads its source a
// chunk at a time (an SMTP message straight from the spool file), and a
// FETCH of the whole message (BODY[], what pbem's intake asks for) writes
// it to the client a chunk at a time. Other uses (BODYSTRUCTURE, SEARCH
// BODY, a part of a message) read the message whole (loadRaw). A COPY or
// MOVE copies the rows inside SQLite; deleting a message deletes its chunks
// (a foreign key, ON DELETE CASCADE). A store written before chunks has
// every message whole in messages.raw, and reads as before.

// chunkSize is the size of messages.raw's part and of a chunk.
const chunkSize = smallMessage

// content is the bytes of a message to store, read a piece at a time.
type content interface {
	Len() int64
	ReadAt(p []byte, off int64) (int, error)
}

// bytesContent is a message in memory.
type bytesContent []byte

func (b bytesContent) Len() int64 { return int64(len(b)) }

func (b bytesContent) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// segment is a piece of a message: bytes in memory, or a range of a
// spooled message.
type segment struct {
	mem      []byte
	sp       *spooled
	off, len int64
}

// segments is a message made of pieces: the trace fields the server puts on
// top, then the spooled message less the header fields it leaves out.
type segments []segment

// spooledContent is prefix followed by the spooled message less the byte
// ranges drop (ascending).
func spooledContent(prefix string, sp *spooled, drop [][2]int) segments {
	out := segments{{mem: []byte(prefix), len: int64(len(prefix))}}
	pos := int64(0)
	for _, d := range append(drop, [2]int{int(sp.size), int(sp.size)}) {
		if n := int64(d[0]) - pos; n > 0 {
			out = append(out, segment{sp: sp, off: pos, len: n})
		}
		pos = int64(d[1])
	}
	return out
}

func (s segments) Len() int64 {
	var n int64
	for _, g := range s {
		n += g.len
	}
	return n
}

func (s segments) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for _, g := range s {
		if len(p) == done {
			break
		}
		if off >= g.len {
			off -= g.len
			continue
		}
		want := min(int64(len(p)-done), g.len-off)
		var n int
		var err error
		switch {
		case g.sp == nil:
			n = copy(p[done:done+int(want)], g.mem[off:off+want])
		case g.sp.file == nil:
			n = copy(p[done:done+int(want)], g.sp.mem[g.off+off:g.off+off+want])
		default:
			n, err = g.sp.file.ReadAt(p[done:done+int(want)], g.off+off)
			if err == io.EOF && int64(n) == want {
				err = nil
			}
		}
		done += n
		if err != nil {
			return done, fmt.Errorf("mailserver: reading the spool file: %w", err)
		}
		off = 0
	}
	if done < len(p) {
		return done, io.EOF
	}
	return done, nil
}

// insertContent stores a message's bytes under (mailboxID, uid): the first
// chunk with the message's row (the other columns given), the rest in
// chunks, reading src a chunk at a time.
func insertContent(ctx context.Context, tx *sql.Tx, mailboxID int64, uid imap.UID, nm *newMessage) error {
	size := nm.body.Len()
	buf := make([]byte, min(size, chunkSize))
	if _, err := nm.body.ReadAt(buf, 0); err != nil && err != io.EOF {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO messages (mailbox_id, uid, internal_date, size, flags, raw, arrival, dedupe)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		mailboxID, int64(uid), nm.date.Format(dateLayout), size, formatFlags(nm.flags), buf, nm.arrival.String(), nm.dedupe)
	if err != nil {
		return err
	}
	for seq, off := 1, int64(len(buf)); off < size; seq, off = seq+1, off+chunkSize {
		piece := buf[:min(chunkSize, size-off)]
		if _, err := nm.body.ReadAt(piece, off); err != nil && err != io.EOF {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO message_chunks (mailbox_id, uid, seq, data) VALUES (?, ?, ?, ?)",
			mailboxID, int64(uid), seq, piece); err != nil {
			return err
		}
	}
	return nil
}

// copyChunks copies a message's chunks inside SQLite.
func copyChunks(ctx context.Context, tx *sql.Tx, fromMailbox int64, fromUID imap.UID, toMailbox int64, toUID imap.UID) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO message_chunks (mailbox_id, uid, seq, data)
		SELECT ?, ?, seq, data FROM message_chunks WHERE mailbox_id = ? AND uid = ?`,
		toMailbox, int64(toUID), fromMailbox, int64(fromUID))
	return err
}

// errMessageChanged is a message that was expunged while it was read.
var errMessageChanged = errors.New("mailserver: the message was expunged while it was read")

// loadRaw reads one message's bytes, whole; ok is false if the message is
// gone.
func loadRaw(ctx context.Context, db *sql.DB, mailboxID int64, uid imap.UID) (raw []byte, ok bool, err error) {
	var size int64
	err = db.QueryRowContext(ctx, "SELECT raw, size FROM messages WHERE mailbox_id = ? AND uid = ?",
		mailboxID, int64(uid)).Scan(&raw, &size)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil || int64(len(raw)) >= size {
		return raw, err == nil, err
	}
	whole := make([]byte, len(raw), size)
	copy(whole, raw)
	err = eachChunk(ctx, db, mailboxID, uid, size, func(b []byte) error {
		whole = append(whole, b...)
		return nil
	})
	if errors.Is(err, errMessageChanged) {
		return nil, false, nil
	}
	return whole, err == nil, err
}

// eachChunk passes the message's chunks, in order, to fn (each valid only
// during the call), reading them one at a time; errMessageChanged when they
// do not add up to size (the message was expunged meanwhile).
func eachChunk(ctx context.Context, db *sql.DB, mailboxID int64, uid imap.UID, size int64, fn func([]byte) error) error {
	var first int64
	if err := db.QueryRowContext(ctx, "SELECT length(raw) FROM messages WHERE mailbox_id = ? AND uid = ?",
		mailboxID, int64(uid)).Scan(&first); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return errMessageChanged
		}
		return err
	}
	got := first
	var buf []byte // one chunk, reused
	for seq := 1; got < size; seq++ {
		var err error
		if buf, err = readChunk(ctx, db, mailboxID, uid, seq, buf[:0]); err != nil {
			return err
		}
		got += int64(len(buf))
		if err := fn(buf); err != nil {
			return err
		}
	}
	if got != size {
		return errMessageChanged
	}
	return nil
}

// readChunk appends chunk seq of a message to buf; errMessageChanged when
// it is missing or empty. The chunk is scanned as sql.RawBytes (the
// driver's own copy) and copied into buf, so that eachChunk reuses one
// buffer for every chunk, where scanning into a new []byte would copy each
// 1 MiB piece twice; the row is closed before the chunk is used, so a slow
// client never holds a connection.
func readChunk(ctx context.Context, db *sql.DB, mailboxID int64, uid imap.UID, seq int, buf []byte) ([]byte, error) {
	rows, err := db.QueryContext(ctx, "SELECT data FROM message_chunks WHERE mailbox_id = ? AND uid = ? AND seq = ?",
		mailboxID, int64(uid), seq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, errMessageChanged
	}
	var b sql.RawBytes
	if err := rows.Scan(&b); err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, errMessageChanged
	}
	buf = append(buf, b...)
	return buf, rows.Close()
}
