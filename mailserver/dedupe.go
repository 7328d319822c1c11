package mailserver

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"strings"
)

// Idempotent delivery. A client that lost the connection after the final
// dot of DATA cannot know whether its message was taken, and sends it again
// (pbem's outbox does, after a crash: reliability.md, promise 3). Mail
// programs show both copies. So a delivery by SMTP carries a key, and a
// mailbox that holds a message with the same key already does not store it
// again; the client gets its 250 all the same (the message is there).
//
// The key is the login, the Message-ID and the SHA-256 of the bytes the
// client sent: the same message, sent again unchanged by the same account.
// Each part guards against a way of losing real mail:
//
//   - the login: only mail sent after SMTP AUTH has a key. Without it,
//     anyone could send a recipient a message under the Message-ID of a
//     report pbem is about to send (they are predictable) and have the real
//     one dropped. A client that did not log in gets at-least-once, as from
//     any other server;
//   - the bytes: a client that reuses a Message-ID for a different message
//     (an edited draft sent again, a buggy client) has both stored;
//   - the Message-ID: a message without one has no key.
//
// The key is kept with the stored message (the dedupe column, copied with
// it by COPY and MOVE), so it holds as long as the message stays in the
// mailbox: a message deleted or moved out by its reader and then sent again
// is stored again, and shows once at a time.

// deliveryKey is the key of a message sent by the logged-in account user
// (its address) with Message-ID messageID and the SHA-256 sum of its bytes;
// "" when the message cannot have one.
func deliveryKey(user, messageID string, sum [sha256.Size]byte) string {
	messageID = strings.Trim(strings.TrimSpace(messageID), "<>")
	if user == "" || messageID == "" {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(strings.ToLower(user) + "\x00" + messageID + "\x00"))
	h.Write(sum[:])
	return hex.EncodeToString(h.Sum(nil))
}

// hasDelivery reports whether the mailbox holds a message with the key.
func hasDelivery(ctx context.Context, tx *sql.Tx, mailboxID int64, key string) (bool, error) {
	var one int
	// "dedupe != ''" lets SQLite use the partial index messages_by_dedupe
	// (it cannot know that the bound key is not empty).
	err := tx.QueryRowContext(ctx, "SELECT 1 FROM messages WHERE mailbox_id = ? AND dedupe = ? AND dedupe != '' LIMIT 1", mailboxID, key).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
