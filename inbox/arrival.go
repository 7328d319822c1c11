package inbox

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// When a mail arrived. A sheet counts if it reached the game's mail server
// before the deadline, whenever pbem fetched it: pbem may have been
// stopped, or unable to reach the server, at the deadline. So the arrival
// time is the server's own stamp, never the sender's Date header (which
// the sender writes) and the time of fetching only as a last resort:
//
//  1. The IMAP INTERNALDATE the server gave the message when it delivered
//     it (the embedded server: the moment it stored it).
//  2. Cross-checked with the server's topmost Received stamp, the one it
//     wrote on top of everything when it took the message in: a mail
//     arriving by SMTP or LMTP carries both, within seconds of each other.
//     When they differ by more than ArrivalMargin (a message put into the
//     mailbox by APPEND with a date of the client's choosing, a server that
//     held it back) the later of the two is taken, so that no stamp can
//     make a mail earlier than the server saw it, and the mail row says so.
//  3. With no INTERNALDATE, the Received stamp; with neither, the time pbem
//     fetched the mail, flagged (store.ArrivalFetch).
//
// The server's clock and this machine's are compared as mail comes in
// (Intake.skew): a mail listed in a poll but not in the one before it on
// the same connection reached the server between the two listings, so an
// INTERNALDATE outside that window (by more than ArrivalMargin) measures
// how far the server's clock is from this machine's, and Options.OnSkew is
// told.

// ArrivalMargin is how far two stamps of one mail may differ before they
// count as disagreeing, and how far the server's clock may be from this
// machine's before it is reported.
const ArrivalMargin = 2 * time.Minute

// ServerReceipt works out when a mail reached the server from its INTERNALDATE
// (zero when the server gave none), its raw bytes (for the topmost
// Received stamp) and when pbem fetched it. It returns the time, what it
// was read from (store.ArrivalInternalDate, ArrivalReceived or
// ArrivalFetch) and a note when a stamp was missing or the stamps
// disagreed ("" when they agreed).
func ServerReceipt(internal time.Time, raw []byte, fetched time.Time) (at time.Time, source, note string) {
	received, rerr := topReceived(raw)
	internal = plausible(internal, fetched)
	if rerr == nil {
		received = plausible(received, fetched)
	}
	show := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
	switch {
	case !internal.IsZero() && !received.IsZero():
		d := internal.Sub(received)
		if d.Abs() <= ArrivalMargin {
			return internal, store.ArrivalInternalDate, ""
		}
		note = fmt.Sprintf("the server's INTERNALDATE %s and its topmost Received stamp %s differ by %s; the later is taken",
			show(internal), show(received), d.Abs().Round(time.Second))
		if d > 0 {
			return internal, store.ArrivalInternalDate, note
		}
		return received, store.ArrivalReceived, note
	case !internal.IsZero():
		why := "the mail has no Received stamp"
		if rerr != nil {
			why = "its topmost Received stamp cannot be read (" + rerr.Error() + ")"
		}
		return internal, store.ArrivalInternalDate, "the server's INTERNALDATE is not cross-checked: " + why
	case !received.IsZero():
		return received, store.ArrivalReceived, "the server gave no usable INTERNALDATE; its topmost Received stamp is taken"
	}
	return fetched, store.ArrivalFetch, "the server gave neither a usable INTERNALDATE nor a Received stamp; " +
		"the time pbem fetched the mail is taken"
}

// plausible returns t unless it is zero or absurd: before 2000, or more
// than a day after the mail was fetched (a server clock that far off is
// broken, not skewed).
func plausible(t, fetched time.Time) time.Time {
	if t.IsZero() || t.Year() < 2000 || (!fetched.IsZero() && t.After(fetched.Add(24*time.Hour))) {
		return time.Time{}
	}
	return t
}

// topReceived reads the date of the topmost Received header: the text after
// its last ';' (RFC 5322 3.6.7). A mail without one gives the zero time and
// no error.
func topReceived(raw []byte) (time.Time, error) {
	hb, _, err := splitHeader(raw, DefaultMaxHeaderBytes)
	if err != nil {
		return time.Time{}, err
	}
	h, _ := parseHeader(hb, nil)
	v := h.get("Received")
	if v == "" {
		return time.Time{}, nil
	}
	i := strings.LastIndexByte(v, ';')
	if i < 0 {
		return time.Time{}, fmt.Errorf("no date after ';' in %q", clip(v, 80))
	}
	s := strings.TrimSpace(v[i+1:])
	if j := strings.IndexByte(s, '('); j > 0 { // a trailing comment such as "(UTC)"
		s = strings.TrimSpace(s[:j])
	}
	t, err := mail.ParseDate(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: %v", clip(s, 60), err)
	}
	return t, nil
}

// skewOf is how far the server's clock is from this machine's, judged from
// one mail: INTERNALDATE internal, fetched at fetched, and known to have
// reached the server after listedBefore (the previous listing on the same
// connection; zero when unknown). 0 when the stamp is within the window,
// give or take ArrivalMargin.
func skewOf(internal, fetched, listedBefore time.Time) time.Duration {
	if internal.IsZero() {
		return 0
	}
	if d := internal.Sub(fetched); d > ArrivalMargin {
		return d // the server stamped it after this machine fetched it: its clock is ahead
	}
	if !listedBefore.IsZero() {
		if d := internal.Sub(listedBefore); d < -ArrivalMargin {
			return d // stamped before the listing that did not see it: its clock is behind
		}
	}
	return 0
}
