package store

import (
	"context"
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
// in one buffer of size bytes.
func (tx *Tx) loadPieces(ctx context.Context, id int64, first []byte, size int64) ([]byte, error) {
	if int64(len(first)) >= size {
		return first, nil
	}
	raw := make([]byte, len(first), size)
	copy(raw, first)
	for seq := 1; int64(len(raw)) < size; seq++ {
		var b []byte
		if err := tx.queryRow(ctx, `SELECT data FROM mail_chunks WHERE mail_id = ? AND seq = ?`, id, seq).Scan(&b); err != nil {
			return nil, fmt.Errorf("store: mail %d: piece %d of its bytes: %w", id, seq, err)
		}
		raw = append(raw, b...)
	}
	return raw, nil
}
