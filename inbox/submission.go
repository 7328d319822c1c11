package inbox

import (
	"fmt"
	"strings"
)

// SMTPAuthMissing: the policy requires a submission (the embedded mail
// server), and the server's own record of the mail's arrival does not say
// that the sender logged in as the From address and sent it by SMTP.
const SMTPAuthMissing Verdict = "smtp-auth-missing"

// SubmissionResult is what the mail server recorded of a mail's arrival.
type SubmissionResult struct {
	Checked bool   // the policy requires a submission
	Pass    bool   // the record says: by SMTP, logged in as the From address
	User    string // the account the record names ("" if none)
	Detail  string // what was seen, for the log and the owner's notice
}

// Arrival is a mail server's record of how a message came into the mailbox
// (store.Mail.Arrival), as pbem's embedded server writes it
// (mailserver.Arrival): the way, then "auth=ADDRESS" or "auth=none" for
// SMTP, "user=ADDRESS" for the IMAP ways, then "remote=IP". It is read from
// the server itself when the intake stores the mail (Options.Arrival), never
// from the mail: a client can write any header into a message it puts into
// a mailbox by IMAP, but not this.
type Arrival struct {
	Via  string // "smtp", "imap-append", "imap-copy", "imap-move", "local", "masked"; "" for no record
	User string // SMTP: the login ("" without one); IMAP: the session's account
}

// ParseArrival reads a record; "" (or nonsense) gives the zero Arrival.
func ParseArrival(s string) Arrival {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Arrival{}
	}
	a := Arrival{Via: f[0]}
	for _, kv := range f[1:] {
		// SMTP names the login with auth=, the IMAP ways the session's
		// account with user=.
		k, v, _ := strings.Cut(kv, "=")
		if a.Via == "smtp" && k == "auth" && v != "none" || a.Via != "smtp" && k == "user" {
			a.User = strings.ToLower(v)
		}
	}
	return a
}

// checkSubmission reads the mail server's record of the mail's arrival: it
// passes only for a mail the server took by SMTP from a client logged in as
// from. A mail put into the mailbox any other way — IMAP APPEND, COPY or
// MOVE by whoever holds the account's password, a file written beside the
// server — is never a submission, whatever its headers claim.
func checkSubmission(record, from string) SubmissionResult {
	r := SubmissionResult{Checked: true}
	a := ParseArrival(record)
	r.User = a.User
	switch {
	case a.Via == "smtp" && a.User != "" && sameAddress(a.User, from):
		r.Pass = true
		r.Detail = "sent by SMTP logged in as " + a.User
	case a.Via == "smtp" && a.User != "":
		r.Detail = fmt.Sprintf("sent logged in as %s, not as %s", a.User, from)
	case a.Via == "smtp":
		r.Detail = "sent without logging in to the game's mail server"
	case a.Via == "imap-append" || a.Via == "imap-copy" || a.Via == "imap-move":
		r.Detail = fmt.Sprintf("not sent by SMTP: put into the game's mailbox by IMAP %s, logged in as %s — "+
			"a mail counts only when its sender sends it, logged in as the From address",
			strings.ToUpper(strings.TrimPrefix(a.Via, "imap-")), a.User)
	case a.Via == "":
		r.Detail = "the game's mail server has no record of this mail arriving by SMTP: it did not come through the game's mail server"
	default:
		r.Detail = fmt.Sprintf("not sent by SMTP: the game's mail server recorded it as %q", record)
	}
	return r
}
