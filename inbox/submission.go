package inbox

import (
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/authres"
)

// SMTPAuthMissing: the policy names a submission server (pbem's embedded
// one), and its Authentication-Results on top of the mail does not say
// that the sender logged in as the From address.
const SMTPAuthMissing Verdict = "smtp-auth-missing"

// SubmissionResult is what the submission server wrote about a mail.
type SubmissionResult struct {
	Checked bool   // the policy names a submission server
	Pass    bool   // its topmost header says auth=pass for the From address
	User    string // the smtp.auth it reported ("" if none)
	Detail  string // what was seen, for the log
}

// checkSubmission reads the topmost Authentication-Results header of the
// mail, which must be the submission server's (servID): pbem's embedded
// server puts its own on top of every message it takes, so one a client
// wrote is always below it and never read. It passes when that header says
// auth=pass with smtp.auth equal to from.
func checkSubmission(headers []string, servID, from string) SubmissionResult {
	r := SubmissionResult{Checked: true}
	if len(headers) == 0 {
		r.Detail = "no Authentication-Results header: the mail did not come through the game's mail server"
		return r
	}
	id, results, _ := authres.Parse(headers[0])
	if !strings.EqualFold(strings.TrimSpace(id), servID) {
		r.Detail = fmt.Sprintf("the topmost Authentication-Results header is by %q, not the game's mail server %q", id, servID)
		return r
	}
	for _, res := range results {
		a, ok := res.(*authres.AuthResult)
		if !ok {
			continue
		}
		r.User = strings.ToLower(strings.TrimSpace(a.Auth))
		if a.Value == authres.ResultPass && r.User != "" && sameAddress(r.User, from) {
			r.Pass = true
			r.Detail = "logged in as " + r.User
			return r
		}
	}
	switch {
	case r.User != "":
		r.Detail = fmt.Sprintf("sent logged in as %s, not as %s", r.User, from)
	default:
		r.Detail = "sent without logging in to the game's mail server"
	}
	return r
}
