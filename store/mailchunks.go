package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Large mail in pieces. SQLite copies a blob whole on every INSERT and
// SELECT (the value bound, the record built from it, the value read back),
// outside the Go heap, and the driver offers no incremental blob I/O: a
// mail near the 10 MiB limit cost some 30 MiB more to store and read than
// its size. So a mail's first mailPiece bytes are kept in mail.raw and the
// rest in mail_chunks, mailPiece bytes a row, and Mail.Raw is put together
// from them into one buffer of the mail's size (mail.raw_size) when it is
// read. A mail stored before (raw_size NULL) is whole in mail.raw.

// mailPiece is the size of mail.raw's part and of a chunk.
const mailPiece = 1 << 20

// firstPiece is the part of raw kept in mail.raw.
func firstPiece(raw []byte) []byte { return raw[:min(len(raw), mailPiece)] }

// storePieces stores the rest of raw (after firstPiece) in mail_chunks.
func (tx *Tx) storePieces(ctx context.Context, id int64, raw []byte) error {
	for seq, off := 1, mailPiece; off < len(raw); seq, off = seq+1, off+mailPiece {
		if _, err := tx.exec(ctx, `INSERT INTO mail_chunks (mail_id, seq, data) VALUES (?, ?, ?)`,
			id, seq, raw[off:min(len(raw), off+mailPiece)]); err != nil {
			return err
		}
	}
	return nil
}

// loadPieces puts a mail's bytes together: first (mail.raw) and its chunks,
// in one buffer of size bytes. Each chunk is scanned as sql.RawBytes, the
// driver's own copy, and appended: scanning into a []byte would copy every
// piece once more (10 MiB of garbage for a mail near the limit).
func (tx *Tx) loadPieces(ctx context.Context, id int64, first []byte, size int64) ([]byte, error) {
	if int64(len(first)) >= size {
		return first, nil
	}
	raw := make([]byte, len(first), size)
	copy(raw, first)
	for seq := 1; int64(len(raw)) < size; seq++ {
		var err error
		if raw, err = tx.appendPiece(ctx, raw, id, seq); err != nil {
			return nil, fmt.Errorf("store: mail %d: piece %d of its bytes: %w", id, seq, err)
		}
	}
	return raw, nil
}

// appendPiece appends chunk seq of mail id to raw.
func (tx *Tx) appendPiece(ctx context.Context, raw []byte, id int64, seq int) ([]byte, error) {
	rows, err := tx.query(ctx, `SELECT data FROM mail_chunks WHERE mail_id = ? AND seq = ?`, id, seq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, sql.ErrNoRows
	}
	var b sql.RawBytes
	if err := rows.Scan(&b); err != nil {
		return nil, err
	}
	raw = append(raw, b...)
	return raw, rows.Close()
}
