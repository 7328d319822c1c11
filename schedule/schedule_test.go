package schedule

import (
	"strings"
	"testing"
	"time"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("no zone %s: %v", name, err)
	}
	return z
}

// TestDSTChanges: the two changes of Europe/London and America/New_York. A
// time in the spring gap moves forward by the gap; an ambiguous autumn time
// is the first of the two.
func TestDSTChanges(t *testing.T) {
	day := &Clock{18, 0}
	for _, c := range []struct {
		zone, in, wantUTC, why string
	}{
		{"Europe/London", "2026-03-29 00:30", "2026-03-29T00:30:00Z", "before the spring change"},
		{"Europe/London", "2026-03-29 01:30", "2026-03-29T01:30:00Z", "in the spring gap: 01:30 GMT does not exist, read as 02:30 BST"},
		{"Europe/London", "2026-03-29 02:30", "2026-03-29T01:30:00Z", "just after the gap"},
		{"Europe/London", "2026-03-29", "2026-03-29T17:00:00Z", "a date alone on the change day: 18:00 BST"},
		{"Europe/London", "2026-10-25 00:30", "2026-10-24T23:30:00Z", "before the autumn overlap"},
		{"Europe/London", "2026-10-25 01:30", "2026-10-25T00:30:00Z", "ambiguous: the first 01:30 (BST)"},
		{"Europe/London", "2026-10-25 02:30", "2026-10-25T02:30:00Z", "after the overlap"},
		{"America/New_York", "2026-03-08 02:30", "2026-03-08T07:30:00Z", "spring gap: 02:30 EST does not exist, read as 03:30 EDT"},
		{"America/New_York", "2026-11-01 01:30", "2026-11-01T05:30:00Z", "ambiguous: the first 01:30 (EDT)"},
		{"Europe/Berlin", "2026-03-29 02:15", "2026-03-29T01:15:00Z", "spring gap in Berlin: 03:15 CEST"},
		{"Europe/Berlin", "2026-10-25 02:15", "2026-10-25T00:15:00Z", "ambiguous in Berlin: 02:15 CEST"},
	} {
		got, err := Parse(c.in, mustZone(t, c.zone), day)
		if err != nil {
			t.Errorf("%s %s: %v", c.zone, c.in, err)
			continue
		}
		if s := got.UTC().Format(time.RFC3339); s != c.wantUTC {
			t.Errorf("%s %s (%s) = %s, want %s", c.zone, c.in, c.why, s, c.wantUTC)
		}
	}
}

// TestGapMovesForward: no wall time in a gap is read as an instant before
// the time written.
func TestGapMovesForward(t *testing.T) {
	lon := mustZone(t, "Europe/London")
	for m := 0; m < 60; m += 5 {
		got := At(2026, time.March, 29, 1, m, 0, lon)
		w := got.In(lon)
		if w.Hour() != 2 || w.Minute() != m {
			t.Errorf("01:%02d on the spring change day reads %s, want 02:%02d", m, w.Format("15:04 MST"), m)
		}
	}
}

func TestFormats(t *testing.T) {
	lon := mustZone(t, "Europe/London")
	want := "2026-06-08T17:00:00Z"
	for _, in := range []string{
		"2026-06-08 18:00", "2026-06-08T18:00", "2026-06-08 18:00:00", "2026-06-08T18:00:00",
		"  2026-06-08   18:00 ", "2026-06-08 19:00 Europe/Berlin", "2026-06-08T19:00 Europe/Berlin",
		"2026-06-08T17:00:00Z", "2026-06-08T19:00:00+02:00", "2026-06-08 17:00 UTC", "2026-06-08",
	} {
		got, err := Parse(in, lon, &Clock{18, 0})
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if s := got.UTC().Format(time.RFC3339); s != want {
			t.Errorf("%q = %s, want %s", in, s, want)
		}
	}
	if got, err := Parse("2026-06-08 Europe/Berlin", lon, &Clock{18, 0}); err != nil || got.UTC().Hour() != 16 {
		t.Errorf("a date alone with a zone: %v, %v", got, err)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2026-06-08", "no time of day"},
		{"2026-02-30 18:00", "not a date and time"},
		{"2026-06-08 25:00", "not a date and time"},
		{"tomorrow", "not a date and time"},
		{"2026-06-08 18:00 Mars/Olympus", "unknown time zone"},
		{"08/06/2026 18:00", "not a date and time"},
		{"", "not a date and time"},
	} {
		_, err := Parse(c.in, time.UTC, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", c.in, err, c.want)
		}
	}
}

func TestParseClock(t *testing.T) {
	if c, err := ParseClock("07:05"); err != nil || c != (Clock{7, 5}) || c.String() != "07:05" {
		t.Errorf("ParseClock(07:05) = %v, %v", c, err)
	}
	for _, bad := range []string{"7:05", "24:00", "18.00", "6pm"} {
		if _, err := ParseClock(bad); err == nil {
			t.Errorf("ParseClock(%q) accepted", bad)
		}
	}
}

// FuzzParse: Parse never panics and what it accepts reads back in the zone.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-03-29 01:30", "2026-06-08", "2026-06-08T17:00:00Z", "2026-06-08 19:00 Europe/Berlin"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s, time.UTC, &Clock{18, 0})
	})
}
