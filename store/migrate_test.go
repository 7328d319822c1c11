package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMigrationList(t *testing.T) {
	t.Parallel()
	for i, m := range migrations {
		if m.version != i+1 {
			t.Errorf("migration %d has version %d; versions must be 1, 2, 3, … in order", i, m.version)
		}
		if m.name == "" || strings.TrimSpace(m.sql) == "" {
			t.Errorf("migration %d has no name or no SQL", m.version)
		}
	}
}

// TestMigrateFromPreviousVersion writes a file with every migration but the
// last, fills it, and opens it with the full list: the last step is applied
// and every row survives.
func TestMigrateFromPreviousVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pbem.db")
	n := len(migrations)
	old, err := open(ctx, path, nil, migrations[:n-1])
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := old.Version(ctx); v != n-1 {
		t.Fatalf("old file at version %d, want %d", v, n-1)
	}
	if err := old.CreateGame(ctx, Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := old.CommitTurn(ctx, TurnRecord{GameID: "syw", Turn: 0, Status: TurnInitial, State: []byte(`{"s":1}`),
		Seed: 99, ResolvedAt: t0}, []Event{{Kind: "start"}}, nil); err != nil {
		t.Fatal(err)
	}
	// Mail and outbox rows as the schema of version 5 has them (raw SQL:
	// the code writes the columns of later steps).
	if _, err := old.writer.Exec(`INSERT INTO outbox (message_id, game_id, kind, recipients, raw, raw_sha256, state, attempts,
		next_attempt_at, created_at, updated_at) VALUES ('<m@syw>', 'syw', 'ack', '["a@x"]', ?, ?, 'pending', 0, ?, ?, ?)`, []byte("hello"),
		SHA256Hex([]byte("hello")), encTime(t0), encTime(t0), encTime(t0)); err != nil {
		t.Fatal(err)
	}
	res, err := old.writer.Exec(`INSERT INTO mail (mailbox, uidvalidity, uid, raw, sha256, received_at, status, updated_at)
		VALUES ('INBOX', 1, 1, ?, ?, ?, 'stored', ?)`, []byte("x"), SHA256Hex([]byte("x")), encTime(t0), encTime(t0))
	if err != nil {
		t.Fatal(err)
	}
	mailID, _ := res.LastInsertId()
	mail := Mail{ID: mailID}
	// A sheet stored before orders were kept as engine data.
	if _, err := old.writer.Exec(`INSERT INTO submissions (game_id, turn, nation, kind, mail_id, raw_text, canonical_text,
		receipt_hash, valid, submitted_at) VALUES ('syw', 1, 'eisenmark', 'orders', ?, 'raw', 'canon', 'r1', 1, ?)`,
		mail.ID, encTime(t0)); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(ctx); v != n {
		t.Errorf("after Open, version %d, want %d", v, n)
	}
	if rec, err := db.LatestTurn(ctx, "syw"); err != nil || string(rec.State) != `{"s":1}` || rec.Seed != 99 {
		t.Errorf("turn after migration: %+v, %v", rec, err)
	}
	if es, _ := db.Events(ctx, "syw", 0, 1); len(es) != 1 {
		t.Errorf("events after migration: %d", len(es))
	}
	if m, err := db.Mail(ctx, mail.ID); err != nil || string(m.Raw) != "x" || m.ArrivalSource != ArrivalFetch || !m.FetchedAt.IsZero() {
		t.Errorf("mail after migration: %+v, %v", m, err)
	}
	if ms, _ := db.MessagesInState(ctx, OutboxPending); len(ms) != 1 || ms[0].Priority != OutboxReport {
		t.Errorf("outbox after migration: %+v", ms)
	}
	// The old sheet survives, with no engine orders recorded.
	if s, err := db.LatestSubmission(ctx, "syw", 1, "eisenmark", "orders"); err != nil || s.CanonicalText != "canon" ||
		s.Orders != nil || s.Ruleset != "" {
		t.Errorf("old submission after migration: %+v, %v", s, err)
	}
	// The new step's columns and table work.
	if _, _, err := db.SaveSubmission(ctx, Submission{GameID: "syw", Turn: 1, Nation: "eisenmark", Kind: "orders",
		RawText: "r", CanonicalText: "c", Valid: true, SubmittedAt: t0, Orders: []byte(`[{"kind":"stance"}]`),
		Ruleset: "syw-1752", RulesVersion: "abc"}); err != nil {
		t.Fatal(err)
	}
	if s, err := db.LatestSubmission(ctx, "syw", 1, "eisenmark", "orders"); err != nil || string(s.Orders) != `[{"kind":"stance"}]` ||
		s.Ruleset != "syw-1752" || s.RulesVersion != "abc" {
		t.Errorf("new submission after migration: %+v, %v", s, err)
	}
	if _, err := db.OpenDeadline(ctx, "syw", 1, t0); err != nil {
		t.Errorf("deadlines after migration: %v", err)
	}
	if n, err := db.PurgeRawMail(ctx, t0.Add(time.Hour)); err != nil || n != 0 {
		t.Errorf("purging a mail still stored: %d, %v", n, err)
	}
	// Opening again applies nothing twice.
	db.Close()
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	db.reader.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&rows)
	if rows != n {
		t.Errorf("%d rows in schema_migrations, want %d", rows, n)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pbem.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	future := SchemaVersion() + 1
	if _, err := db.writer.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 'x')`,
		future); err != nil {
		t.Fatal(err)
	}
	db.Close()

	_, err = Open(path, nil)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a newer file: %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{path, fmt.Sprintf("schema version %d", future), fmt.Sprintf("up to %d", future-1), "newer pbem"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Older code (knowing fewer steps) is refused the same way.
	if _, err := open(ctx, path, nil, migrations[:1]); !errors.Is(err, ErrSchemaTooNew) {
		t.Errorf("older code: %v", err)
	}
}
