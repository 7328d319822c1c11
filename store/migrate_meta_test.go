package store

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// schema8Demo is a store written by pbem at schema 8 (commit 034b6c5, the
// one before migration 9): "pbem demo" played its year by mail (seed 1752: treaties
// proposed, attested and published, RESOLVE NOW closes, rulings), then
// that pbem's own code rolled turn 7 back, held it for a mail outage,
// queued its reminders and the clock, login and outage notices, and marked
// two battles fought on the table (one left to the model). Its outbox rows
// (the PDFs) were deleted to keep it small. Every kind of game state the
// daemon of schema 8 kept in meta is in it, as that daemon wrote it.
const schema8Demo = "testdata/schema8-demo.db.gz"

// openFixture unpacks a gzipped store into a temporary folder.
func openFixture(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pbem.db")
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// metaOf reads every meta row of a store at schema 8.
func metaOf(t *testing.T, path string) map[string]string {
	t.Helper()
	ctx := context.Background()
	old, err := open(ctx, path, nil, migrations[:8])
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	rows, err := old.reader.Query(`SELECT key, value FROM meta`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		m[k] = v
	}
	return m
}

func decodeMeta(t *testing.T, key, value string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(value), v); err != nil {
		t.Fatalf("meta %s: %v", key, err)
	}
}

// TestUpgradeFromSchema8MovesEveryKey opens the schema-8 demo store with
// this pbem: every meta key of the game's state and of the mail's
// bookkeeping is in its table, with the value that pbem wrote, and meta
// keeps nothing of the game; a key of a game the file does not hold stays.
func TestUpgradeFromSchema8MovesEveryKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := openFixture(t, schema8Demo)
	old := metaOf(t, path)
	if len(old) < 100 {
		t.Fatalf("the fixture holds %d meta rows; it is not the demo's store", len(old))
	}
	// A key of a game that is not in the file cannot be moved.
	func() {
		db, err := open(ctx, path, nil, migrations[:8])
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.SetMeta(ctx, "run:other", `{"PID":1}`); err != nil {
			t.Fatal(err)
		}
	}()

	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(ctx); v != SchemaVersion() {
		t.Fatalf("after the upgrade the file is at version %d, want %d", v, SchemaVersion())
	}
	var left []string
	rows, err := db.reader.Query(`SELECT key FROM meta ORDER BY key`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		rows.Scan(&k)
		left = append(left, k)
	}
	rows.Close()
	if !reflect.DeepEqual(left, []string{"run:other"}) {
		t.Errorf("meta after the upgrade holds %q, want only the other game's key", left)
	}

	checked := map[string]bool{}
	check := func(key string, ok bool, format string, args ...any) {
		t.Helper()
		checked[key] = true
		if !ok {
			t.Errorf("meta %s = %.200q: "+format, append([]any{key, old[key]}, args...)...)
		}
	}
	for key, value := range old {
		kind, rest, _ := strings.Cut(key, ":")
		_, sub, _ := strings.Cut(rest, ":") // after the game's id
		turn, _ := strconv.Atoi(sub)
		switch kind {
		case "treaties", "treaties-in":
			var want []metaTreaty
			decodeMeta(t, key, value, &want)
			got, ok, err := db.TreatyLedger(ctx, "syw")
			if kind == "treaties-in" {
				got, ok, err = db.TurnTreatyLedger(ctx, "syw", turn)
			}
			check(key, err == nil && ok && reflect.DeepEqual(got, metaTreaties(want)), "the ledger reads %+v, %v, %v", got, ok, err)
		case "treaty-mailed":
			var mailed bool
			err := db.view(ctx, func(tx *Tx) (err error) { mailed, err = tx.TreatyMailed(ctx, "syw", sub); return })
			check(key, err == nil && mailed, "not mailed: %v", err)
		case "turn-closed":
			c, ok, err := db.TurnClose(ctx, "syw", turn)
			if value == "" {
				check(key, err == nil && !ok, "an empty close reads %+v, %v, %v", c, ok, err)
				continue
			}
			var want metaClose
			decodeMeta(t, key, value, &want)
			check(key, err == nil && ok && c.At.Equal(want.At) && c.By == want.By && c.MailID == want.Mail && c.Referee == want.Referee,
				"the close reads %+v, %v, %v", c, ok, err)
		case "turn-reopened":
			var want metaReopened
			decodeMeta(t, key, value, &want)
			r, ok, err := db.TurnReopen(ctx, "syw", turn)
			check(key, err == nil && ok && r.LastSubmission == want.LastSub && r.At.Equal(want.At), "reads %+v, %v, %v", r, ok, err)
		case "turn-held":
			var want metaHeld
			decodeMeta(t, key, value, &want)
			h, ok, err := db.TurnHold(ctx, "syw", turn)
			check(key, err == nil && ok && h.Deadline.Equal(want.Deadline) && h.At.Equal(want.At) && h.Why == want.Why &&
				h.Released == want.Released, "reads %+v, %v, %v", h, ok, err)
		case "tabletop-sent", "tabletop-auto":
			t7, hex, _ := strings.Cut(sub, ":")
			n, _ := strconv.Atoi(t7)
			want, _ := time.Parse(time.RFC3339Nano, value)
			b, err := db.TabletopBattle(ctx, "syw", n, hex)
			got := b.SheetSent
			if kind == "tabletop-auto" {
				got = b.ToModel
			}
			check(key, err == nil && got.Equal(want), "reads %+v, %v", b, err)
		case "reminded":
			t7, unix, _ := strings.Cut(sub, ":deadline-")
			n, _ := strconv.Atoi(t7)
			secs, _ := strconv.ParseInt(unix, 10, 64)
			ok, err := db.Reminded(ctx, "syw", n, time.Unix(secs, 0))
			check(key, err == nil && ok, "not reminded: %v", err)
		case "clock-told", "imap-login-told", "outage-told":
			k := map[string]NoticeKind{"clock-told": NoticeClock, "imap-login-told": NoticeLogin, "outage-told": NoticeOutage}[kind]
			ok, err := db.NoticeQueued(ctx, "syw", k, sub)
			check(key, err == nil && ok, "not queued: %v", err)
		case "run":
			var want metaRun
			decodeMeta(t, key, value, &want)
			r, ok, err := db.LastRun(ctx, "syw")
			check(key, err == nil && ok && r.PID == want.PID && r.Host == want.Host && r.Started.Equal(want.Started) &&
				r.Stopped.Equal(want.Stopped), "reads %+v, %v, %v", r, ok, err)
		case "turn-runner":
			var want metaRunner
			decodeMeta(t, key, value, &want)
			r, ok, err := db.TurnRunner(ctx, "syw")
			check(key, err == nil && ok && r.Run == want.Run && r.Turn == want.Turn && r.State == want.State && r.Why == want.Why &&
				r.Since.Equal(want.Since), "reads %+v, %v, %v", r, ok, err)
		case "intake-health":
			var want metaIntake
			decodeMeta(t, key, value, &want)
			h, ok, err := db.IntakeHealth(ctx, "syw")
			check(key, err == nil && ok && h.Run == want.Run && h.Up == want.Up && h.Since.Equal(want.Since) &&
				h.LastError == want.LastError && h.OutageFrom.Equal(want.OutageFrom) && h.OutageTo.Equal(want.OutageTo),
				"reads %+v, %v, %v", h, ok, err)
		case "start-reports":
			ok, err := db.StartReportsQueued(ctx, "syw")
			check(key, err == nil && ok, "not queued: %v", err)
		case "turn-seed-key":
			k, ok, err := db.DiceKey(ctx, "syw")
			check(key, err == nil && ok && k == value, "reads %q, %v, %v", k, ok, err)
		case "report-model":
			checked[key] = true // rebuilt from the archive, not moved (daemon/reportmodel.go)
		case "mail-id":
			i, j := strings.IndexByte(rest, ':'), strings.LastIndexByte(rest, ':')
			id, ok, err := db.ClaimedBy(ctx, MailClaim{Sender: rest[:i], MessageID: rest[i+1 : j], TextSHA: rest[j+1:]})
			check(key, err == nil && ok && strconv.FormatInt(id, 10) == value, "claimed by %d, %v, %v", id, ok, err)
		case "inbox":
			if mb, ok := strings.CutSuffix(rest, ":uidvalidity"); ok {
				uv, ok, err := db.UIDValidity(ctx, mb)
				check(key, err == nil && ok && strconv.FormatUint(uint64(uv), 10) == value, "reads %d, %v, %v", uv, ok, err)
				continue
			}
			mbuv := strings.TrimSuffix(rest, ":last_uid")
			k := strings.LastIndexByte(mbuv, ':')
			uv, _ := strconv.ParseUint(mbuv[k+1:], 10, 32)
			uid, ok, err := db.LastUID(ctx, mbuv[:k], uint32(uv))
			check(key, err == nil && ok && strconv.FormatUint(uint64(uid), 10) == value, "reads %d, %v, %v", uid, ok, err)
		case "outbox-health":
			var want metaOutboxHealth
			decodeMeta(t, key, value, &want)
			h, ok, err := db.OutboxHealth(ctx)
			check(key, err == nil && ok && h.Run == want.Run && h.OK == want.OK && h.Since.Equal(want.Since) &&
				h.Failures == want.Failures && h.LastError == want.LastError && h.LastErrorAt.Equal(want.LastErrorAt),
				"reads %+v, %v, %v", h, ok, err)
		}
	}
	t.Logf("%d meta keys checked", len(checked))
	for key := range old {
		if !checked[key] {
			t.Errorf("meta key %s of the schema-8 store is checked by nothing: a kind this test does not know", key)
		}
	}
	// The kinds the fixture must hold, so that the test checks them all.
	for _, kind := range []string{"treaties:", "treaties-in:", "treaty-mailed:", "turn-closed:", "turn-reopened:", "turn-held:",
		"tabletop-sent:", "tabletop-auto:", "reminded:", "clock-told:", "imap-login-told:", "outage-told:", "run:", "turn-runner:",
		"intake-health:", "start-reports:", "turn-seed-key:", "report-model:", "mail-id:", "inbox:", "outbox-health"} {
		found := false
		for key := range old {
			found = found || strings.HasPrefix(key, kind)
		}
		if !found {
			t.Errorf("the fixture has no meta key %s…", kind)
		}
	}
}

// TestUpgradeRefusesADamagedValue: a meta value the move cannot read fails
// the migration with its key named, and the file stays at schema 8 with
// everything in it.
func TestUpgradeRefusesADamagedValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := openFixture(t, schema8Demo)
	func() {
		db, err := open(ctx, path, nil, migrations[:8])
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.SetMeta(ctx, "turn-held:syw:3", `{"Deadline":`); err != nil {
			t.Fatal(err)
		}
	}()
	_, err := Open(path, nil)
	if err == nil || !strings.Contains(err.Error(), "turn-held:syw:3") {
		t.Fatalf("opening a store with a damaged meta value: %v; want an error naming the key", err)
	}
	before := metaOf(t, path)
	if _, ok := before["treaties:syw"]; !ok {
		t.Error("the failed upgrade lost the treaty ledger")
	}
	if errors.Is(err, ErrCorrupt) {
		t.Errorf("a value pbem cannot read is not a damaged file: %v", err)
	}
}
