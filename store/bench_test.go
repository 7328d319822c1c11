package store

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// BenchmarkStoreMail stores a typical 4 KiB order mail per iteration: one
// durable (synchronous=FULL) transaction each.
func BenchmarkStoreMail(b *testing.B) {
	db := openTemp(b)
	ctx := context.Background()
	raw := bytes.Repeat([]byte("Order: A1 move to Magdeburg\r\n"), 4096/29)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	var uid uint32
	for b.Loop() {
		uid++
		if _, _, err := db.StoreMail(ctx, Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw, ReceivedAt: t0}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommitTurn commits a turn the size of a five-nation game: a
// 256 KiB state, 200 events and five 200 KiB report mails, in one
// transaction.
func BenchmarkCommitTurn(b *testing.B) {
	db := withGame(b)
	ctx := context.Background()
	state := bytes.Repeat([]byte(`{"force":"A1","hex":"1234"},`), 256<<10/28)
	events := make([]Event, 200)
	for i := range events {
		events[i] = Event{Kind: "move", Data: []byte(`{"force":"A1","from":"1234","to":"1235"}`)}
	}
	report := bytes.Repeat([]byte("x"), 200<<10)
	b.SetBytes(int64(len(state) + 5*len(report)))
	b.ReportAllocs()
	turn := 0
	for b.Loop() {
		turn++
		out := make([]OutboxMessage, 5)
		for n := range out {
			out[n] = OutboxMessage{MessageID: fmt.Sprintf("<t%d.%d@syw>", turn, n), GameID: "syw", Kind: "report",
				Recipients: []string{"eisenmark@pbem.localhost"}, Raw: report, CreatedAt: t0}
		}
		rec := TurnRecord{GameID: "syw", Turn: turn, Status: TurnResolved, State: state, Seed: uint64(turn), ResolvedAt: t0}
		if _, err := db.CommitTurn(ctx, rec, events, out); err != nil {
			b.Fatal(err)
		}
	}
}
