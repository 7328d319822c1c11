package inbox

import (
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// TestArrival: the server's INTERNALDATE is the arrival time when its
// topmost Received stamp agrees; when they disagree the later counts and
// the row says why; the sender's Date header never counts; with no stamp
// at all the fetch time is taken, flagged.
func TestArrival(t *testing.T) {
	t.Parallel()
	fetched := time.Date(2026, 6, 10, 13, 41, 20, 0, time.UTC)
	internal := time.Date(2026, 6, 10, 13, 37, 29, 0, time.UTC)
	mail := func(received string) []byte {
		h := "Date: Mon, 1 Jan 2001 00:00:00 +0000\r\nFrom: a@b\r\n"
		if received != "" {
			h = "Received: from client by mx.example with ESMTPA id 1;\r\n\t" + received + "\r\n" +
				"Received: by laptop; Mon, 1 Jan 2001 00:00:00 +0000\r\n" + h
		}
		return []byte(h + "\r\nbody\r\n")
	}
	for _, c := range []struct {
		name     string
		internal time.Time
		raw      []byte
		want     time.Time
		source   string
		note     string // a word of the note; "" for none
	}{
		{"stamps agree", internal, mail("Wed, 10 Jun 2026 13:37:28 +0000"), internal, store.ArrivalInternalDate, ""},
		{"stamps agree across zones", internal, mail("Wed, 10 Jun 2026 15:37:30 +0200 (CEST)"), internal, store.ArrivalInternalDate, ""},
		{"INTERNALDATE earlier than the server's stamp (APPEND backdated)", internal.Add(-time.Hour),
			mail("Wed, 10 Jun 2026 13:37:29 +0000"), internal, store.ArrivalReceived, "the later is taken"},
		{"INTERNALDATE later than the Received stamp", internal, mail("Wed, 10 Jun 2026 12:00:00 +0000"), internal,
			store.ArrivalInternalDate, "differ by 1h37m29s"},
		{"no Received stamp", internal, mail(""), internal, store.ArrivalInternalDate, "no Received stamp"},
		{"unreadable stamp", internal, mail("yesterday"), internal, store.ArrivalInternalDate, "cannot be read"},
		{"no INTERNALDATE", time.Time{}, mail("Wed, 10 Jun 2026 13:37:29 +0000"), internal, store.ArrivalReceived, "no usable INTERNALDATE"},
		{"INTERNALDATE of 1970", time.Unix(0, 0), mail("Wed, 10 Jun 2026 13:37:29 +0000"), internal, store.ArrivalReceived, "no usable INTERNALDATE"},
		{"nothing: the fetch time, flagged", time.Time{}, mail(""), fetched, store.ArrivalFetch, "time pbem fetched"},
		{"not a mail at all", time.Time{}, []byte("\x00\x01"), fetched, store.ArrivalFetch, "time pbem fetched"},
	} {
		at, source, note := ServerReceipt(c.internal, c.raw, fetched)
		if !at.Equal(c.want) || source != c.source || (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
			t.Errorf("%s: Arrival = %v, %s, %q; want %v, %s, a note with %q", c.name, at, source, note, c.want, c.source, c.note)
		}
	}
}

// TestSkewOf: a mail stamped after it was fetched shows the server's clock
// ahead; one stamped before the listing that did not see it, behind; one
// inside the window, none.
func TestSkewOf(t *testing.T) {
	t.Parallel()
	listed := time.Date(2026, 6, 10, 13, 0, 0, 0, time.UTC)
	fetched := listed.Add(time.Minute)
	for _, c := range []struct {
		internal, listed time.Time
		want             time.Duration
	}{
		{listed.Add(30 * time.Second), listed, 0},
		{fetched.Add(ArrivalMargin + time.Minute), listed, ArrivalMargin + time.Minute},
		{listed.Add(-ArrivalMargin - 5*time.Minute), listed, -ArrivalMargin - 5*time.Minute},
		{listed.Add(-time.Hour), time.Time{}, 0}, // first listing of a connection: no lower bound
		{time.Time{}, listed, 0},
	} {
		if got := skewOf(c.internal, fetched, c.listed); got != c.want {
			t.Errorf("skewOf(%v, listed %v) = %v, want %v", c.internal, c.listed, got, c.want)
		}
	}
}

// FuzzArrival: any bytes give an arrival time, never a panic, never one
// later than the latest stamp offered.
func FuzzArrival(f *testing.F) {
	f.Add([]byte("Received: by x; Wed, 10 Jun 2026 13:37:29 +0000\r\n\r\nbody"), int64(1781098649))
	f.Add([]byte("Received: ;;;(((\r\n\r\n"), int64(0))
	f.Add([]byte("From: a@b\r\n\r\n"), int64(-1))
	fetched := time.Date(2026, 6, 10, 14, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw []byte, sec int64) {
		internal := time.Unix(sec, 0)
		at, source, _ := ServerReceipt(internal, raw, fetched)
		if at.IsZero() || source == "" {
			t.Fatalf("Arrival gave %v, %q", at, source)
		}
		if at.After(fetched.Add(24 * time.Hour)) {
			t.Fatalf("arrival %v more than a day after the fetch", at)
		}
	})
}
