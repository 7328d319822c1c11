package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestArchiveVerifies: the archive of a game with three resolved turns (and
// a record voided by a rerun) verifies: every hash, every link, every turn
// resolved again to the same bytes. One byte changed anywhere — in a state,
// in a hash, in the header — fails, naming the line and turn; so does a
// record changed with its hashes made again to match (the re-resolution
// catches it).
func TestArchiveVerifies(t *testing.T) {
	t.Parallel()
	// The reports' PDFs are not in the archive: the turns mail plain text.
	d, _ := startGameWith(t, t.TempDir(), nil, &Options{TurnMailer: PlainTurnMail})
	defer d.Close()
	g := d.Game
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := g.ResolveTurn(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Rollback(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Rerun(ctx, 3); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := g.Export(ctx, &buf)
	if err != nil || n != 4 {
		t.Fatalf("export: %d records, %v; want 4 (turns 0 to 3)", n, err)
	}
	arch := buf.Bytes()
	sum, err := VerifyArchive(bytes.NewReader(arch))
	if err != nil || sum.Resolved != 3 || sum.Records != 4 {
		t.Fatalf("verify: %+v, %v; want 3 turns resolved again", sum, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(arch), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want the header and four records", len(lines))
	}

	flip := func(line int, at string) []byte {
		ls := append([]string(nil), lines...)
		i := strings.Index(ls[line], at)
		if i < 0 {
			t.Fatalf("line %d has no %q", line+1, at)
		}
		b := []byte(ls[line])
		i += len(at)
		for !(b[i] >= 'a' && b[i] <= 'z' || b[i] >= '0' && b[i] <= '8') {
			i++ // a letter or digit, so the line still reads as JSON
		}
		b[i] ^= 0x01
		ls[line] = string(b)
		return []byte(strings.Join(ls, "\n") + "\n")
	}
	for _, c := range []struct {
		name     string
		data     []byte
		line     int
		contains string
	}{
		{"a byte of turn 2's state", flip(3, `"Treasury":`), 4, "the record was changed"},
		{"a byte of turn 1's hash", flip(2, `{"hash":"`), 3, "the record was changed"},
		{"a byte of the map", flip(0, `"map":"`), 1, "the header was changed"},
		{"a byte of turn 3's events", flip(4, `"events":[`), 5, "the record was changed"},
	} {
		_, err := VerifyArchive(bytes.NewReader(c.data))
		var ae *ArchiveError
		if !errors.As(err, &ae) || ae.Line != c.line || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s changed: %v; want a failure at line %d saying %q", c.name, err, c.line, c.contains)
		}
	}

	// A forger who changes turn 2's treasury and makes every hash again.
	forged := forge(t, lines, 3, func(rec map[string]json.RawMessage) {
		rec["state"] = json.RawMessage(strings.Replace(string(rec["state"]), `"Treasury":`, `"Treasury":1`, 1))
	})
	_, err = VerifyArchive(bytes.NewReader(forged))
	var ae *ArchiveError
	if !errors.As(err, &ae) || ae.Turn != 2 || !strings.Contains(err.Error(), "resolved again, the state") {
		t.Errorf("a forged turn 2 with its chain made again: %v; want turn 2's state to differ when resolved again", err)
	}
}

// forge changes record line i with edit and recomputes every hash and link
// from there on.
func forge(t *testing.T, lines []string, i int, edit func(map[string]json.RawMessage)) []byte {
	t.Helper()
	out := append([]string(nil), lines...)
	var prev string
	for k := range out {
		var l archiveLine
		if err := json.Unmarshal([]byte(out[k]), &l); err != nil {
			t.Fatal(err)
		}
		if k < i {
			prev = l.Hash
			continue
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(l.Record, &rec); err != nil {
			t.Fatal(err)
		}
		if k == i {
			edit(rec)
		}
		rec["prev"], _ = json.Marshal(prev)
		body, _ := json.Marshal(rec)
		l = archiveLine{Hash: hashHex(body), Record: body}
		prev = l.Hash
		b, _ := json.Marshal(l)
		out[k] = string(b)
	}
	return []byte(strings.Join(out, "\n") + "\n")
}
