package inbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
)

// AuthPolicy is what Authenticate checks a sender against.
type AuthPolicy struct {
	// Nations maps each nation id to its registered sender addresses
	// (game.nations.<id>.addresses). Addresses compare without regard to
	// case.
	Nations map[string][]string

	// Referee is the referee's address (game.referee).
	Referee string

	// RequireDKIM makes a mail count only with a DKIM signature aligned
	// with its From domain (game.require_dkim): a signature that verifies
	// (checked here) or a dkim=pass reported by the trusted server in
	// Authentication-Results.
	RequireDKIM bool

	// StrictDKIM accepts only a signing domain (d=) equal to the From
	// domain. When false (the default) a parent domain of the From domain
	// with at least two labels aligns too (d=example.org for
	// user@mail.example.org): see Authenticate.
	StrictDKIM bool

	// AuthServID is the authserv-id of the one server whose
	// Authentication-Results headers are believed (game.auth_serv_id, such
	// as "mx.google.com"). "" trusts none.
	AuthServID string

	// RequireSubmission makes a mail count only when the mail server's own
	// record of its arrival (the arrival given to Authenticate: see
	// Arrival) says it was sent by SMTP logged in as its From address:
	// pbem's embedded server in mail.mode embedded. No header counts for
	// this — not even the server's own Authentication-Results, which a
	// client can copy into a message it APPENDs. false checks nothing (a
	// mail provider's own submission server does this check before the
	// mail leaves, and its DKIM signature shows it: see RequireDKIM).
	RequireSubmission bool

	// LookupTXT answers the DNS TXT queries of DKIM verification. nil means
	// the system resolver with DNSTimeout. Tests give a map.
	LookupTXT func(domain string) ([]string, error)

	// DNSTimeout bounds each DNS query when LookupTXT is nil. Default 10s.
	DNSTimeout time.Duration
}

// Verdict is Authenticate's answer in one word.
type Verdict string

// Verdicts.
const (
	// Authenticated: one From address, registered, and DKIM aligned if
	// required. The order-sheet password is still to be checked.
	Authenticated Verdict = "authenticated"
	// NoFrom: the mail has no From header, or its address cannot be read.
	NoFrom Verdict = "no-from"
	// MultipleFrom: more than one From header, or more than one address in
	// it (a classic spoofing trick: a client shows one, a filter checks the
	// other).
	MultipleFrom Verdict = "multiple-from"
	// UnknownSender: the From address is registered for no nation and is
	// not the referee's.
	UnknownSender Verdict = "unknown-sender"
	// DKIMMissing: DKIM is required and the mail has no signature at all
	// (and no trusted dkim=pass).
	DKIMMissing Verdict = "dkim-missing"
	// DKIMMisaligned: signatures verify, but none is by the From domain.
	DKIMMisaligned Verdict = "dkim-misaligned"
	// DKIMFailed: no aligned signature verifies (a broken or forged one).
	DKIMFailed Verdict = "dkim-failed"
	// DKIMTempError: a DNS lookup failed; the mail may pass later.
	DKIMTempError Verdict = "dkim-temperror"
)

// AuthResult is what Authenticate found. The daemon acts on Verdict (only
// Authenticated mail counts), answers to the registered address of the
// nation (never to Reply-To), and then checks the order-sheet password of
// one of Nations.
type AuthResult struct {
	Verdict Verdict
	// Reason explains the verdict in a sentence for the referee's log.
	Reason string
	// From is the single From address, lower-cased ("" when there is not
	// exactly one).
	From string
	// Nations are the nations that registered From, sorted (usually one; a
	// player running two nations registers one address for both).
	Nations []string
	// Referee reports whether From is the referee's address.
	Referee bool
	// DKIM is what was learnt about DKIM (filled only when RequireDKIM).
	DKIM DKIMStatus
	// Server is what the trusted server wrote, when the topmost
	// Authentication-Results header is its.
	Server ServerResults
	// Submission is what the mail server recorded of the arrival (filled
	// only when the policy requires a submission).
	Submission SubmissionResult
}

// OK reports whether the sender passed: Verdict is Authenticated.
func (r AuthResult) OK() bool { return r.Verdict == Authenticated }

// DKIMStatus is the outcome of the DKIM check.
type DKIMStatus struct {
	Checked bool   // the check ran (RequireDKIM)
	Pass    bool   // an aligned signature verified, or the trusted server said so
	Domain  string // the aligned signing domain (d=) that passed
	Via     string // "signature" (verified here) or "authentication-results"
	Detail  string // what was seen: each signature's domain and result
}

// ServerResults are the results the trusted server reported.
type ServerResults struct {
	Found bool   // the topmost Authentication-Results header is AuthServID's
	DKIM  string // its dkim= result: "pass" if any signature passed, else the first result, "" if none
	// DKIMDomains are the signing domains (header.d, or the domain of
	// header.i) of the dkim=pass results.
	DKIMDomains []string
	SPF         string // its spf= result
	DMARC       string // its dmarc= result
}

// Authenticate decides whether a mail comes from whom it says, by the rules
// of reliability.md promise 4. The password in the order sheet is checked
// afterwards by the daemon; this is everything that can be checked from the
// mail itself:
//
//  1. exactly one From header holding exactly one address;
//  2. that address registered for a nation, or the referee's;
//  3. when policy.RequireSubmission (the embedded mail server), that
//     server's record of the mail's arrival (arrival, see Arrival) saying
//     it came by SMTP from a client logged in as the From address;
//  4. when policy.RequireDKIM, a DKIM signature aligned with the From domain
//     that verifies (go-msgauth, with policy.LookupTXT for the keys), or a
//     dkim=pass for an aligned domain in the topmost Authentication-Results
//     header written by policy.AuthServID.
//
// Only the topmost Authentication-Results header is believed, and only when
// its authserv-id is policy.AuthServID: a sender can write any header, with
// any id, but the trusted server puts its own above all of them. Every other
// Authentication-Results header is ignored.
//
// Alignment: d= equal to the From domain always aligns. Unless
// policy.StrictDKIM, a parent of the From domain with at least two labels
// aligns too (the relaxed alignment of DMARC, without a public-suffix list).
// That grants no one anything: a key under d= is published in d='s DNS, and
// whoever controls a parent domain's DNS already controls its subdomains. A
// one-label d= (a top-level domain) never aligns.
//
// ex is the mail as Extract read it (nil when it could not be read: the
// verdict is NoFrom); raw is the mail's bytes, for DKIM; arrival is the
// mail server's record of its arrival (store.Mail.Arrival).
func Authenticate(ex *Extracted, raw []byte, arrival string, policy AuthPolicy) AuthResult {
	var r AuthResult
	if ex == nil {
		r.Verdict, r.Reason = NoFrom, "the mail could not be read"
		return r
	}
	r.Server = serverResults(ex.AuthenticationResults, policy.AuthServID)
	switch {
	case ex.FromHeaders == 0:
		r.Verdict, r.Reason = NoFrom, "the mail has no From header"
		return r
	case ex.FromHeaders > 1:
		r.Verdict, r.Reason = MultipleFrom, fmt.Sprintf("the mail has %d From headers", ex.FromHeaders)
		return r
	case len(ex.FromAddresses) > 1:
		r.Verdict, r.Reason = MultipleFrom, fmt.Sprintf("the From header holds %d addresses", len(ex.FromAddresses))
		return r
	case ex.From == "":
		r.Verdict, r.Reason = NoFrom, "the From address cannot be read"
		return r
	}
	r.From = ex.From
	for id, addrs := range policy.Nations {
		if slices.ContainsFunc(addrs, func(a string) bool { return sameAddress(a, ex.From) }) {
			r.Nations = append(r.Nations, id)
		}
	}
	slices.Sort(r.Nations)
	r.Referee = policy.Referee != "" && sameAddress(policy.Referee, ex.From)
	if len(r.Nations) == 0 && !r.Referee {
		r.Verdict, r.Reason = UnknownSender, fmt.Sprintf("unknown sender: %s is not registered for any nation", ex.From)
		return r
	}
	if policy.RequireSubmission {
		r.Submission = checkSubmission(arrival, ex.From)
		if !r.Submission.Pass {
			r.Verdict = SMTPAuthMissing
			r.Reason = fmt.Sprintf("the mail was not sent by %s logged in to the game's mail server (%s)", ex.From, r.Submission.Detail)
			return r
		}
	}
	if policy.RequireDKIM {
		var v Verdict
		r.DKIM, v = checkDKIM(ex.From, raw, r.Server, policy)
		if !r.DKIM.Pass {
			r.Verdict = v
			r.Reason = fmt.Sprintf("DKIM is required and %s (%s)", dkimProblem(r.Verdict), r.DKIM.Detail)
			return r
		}
	}
	r.Verdict = Authenticated
	who := "referee"
	if len(r.Nations) > 0 {
		who = strings.Join(r.Nations, ", ")
	}
	r.Reason = fmt.Sprintf("%s is registered for %s", ex.From, who)
	if r.DKIM.Pass {
		r.Reason += fmt.Sprintf("; DKIM d=%s (%s)", r.DKIM.Domain, r.DKIM.Via)
	}
	return r
}

func sameAddress(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

func dkimProblem(v Verdict) string {
	switch v {
	case DKIMMissing:
		return "the mail has no DKIM signature"
	case DKIMMisaligned:
		return "no signature is by the sender's domain"
	case DKIMTempError:
		return "the signing key could not be looked up"
	}
	return "no signature by the sender's domain verifies"
}

// dkimFinding is the verdict-relevant part of one signature.
type dkimFinding struct {
	aligned, temp bool
}

// checkDKIM verifies the signatures of raw and combines them with what the
// trusted server reported; the verdict says what went wrong when it failed.
func checkDKIM(from string, raw []byte, srv ServerResults, policy AuthPolicy) (DKIMStatus, Verdict) {
	st := DKIMStatus{Checked: true}
	_, fromDomain, _ := strings.Cut(from, "@")
	var found []dkimFinding
	var details []string
	lookup := policy.LookupTXT
	if lookup == nil {
		lookup = systemLookupTXT(policy.DNSTimeout)
	}
	verifs, err := verifyDKIM(raw, lookup)
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		details = append(details, "signatures unreadable: "+err.Error())
	}
	for _, v := range verifs {
		f := dkimFinding{aligned: aligned(v.Domain, fromDomain, policy.StrictDKIM), temp: dkim.IsTempFail(v.Err)}
		found = append(found, f)
		res := "pass"
		if v.Err != nil {
			res = v.Err.Error()
		}
		details = append(details, fmt.Sprintf("d=%s: %s", v.Domain, res))
		if f.aligned && v.Err == nil && !st.Pass {
			st.Pass, st.Domain, st.Via = true, strings.ToLower(v.Domain), "signature"
		}
	}
	for _, d := range srv.DKIMDomains {
		if !st.Pass && aligned(d, fromDomain, policy.StrictDKIM) {
			st.Pass, st.Domain, st.Via = true, d, "authentication-results"
			details = append(details, "trusted server: dkim=pass header.d="+d)
		}
	}
	if len(details) == 0 {
		details = append(details, "no DKIM-Signature header")
	}
	st.Detail = strings.Join(details, "; ")
	if st.Pass {
		return st, Authenticated
	}
	if len(found) == 0 {
		// No signature of our own to judge: say what the trusted server saw.
		switch {
		case len(srv.DKIMDomains) > 0:
			return st, DKIMMisaligned
		case srv.DKIM == string(authres.ResultFail) || srv.DKIM == string(authres.ResultPermError):
			return st, DKIMFailed
		case srv.DKIM == string(authres.ResultTempError):
			return st, DKIMTempError
		}
	}
	return st, classify(found)
}

// classify names what went wrong with the signatures found.
func classify(found []dkimFinding) Verdict {
	if len(found) == 0 {
		return DKIMMissing
	}
	anyAligned, anyTemp := false, false
	for _, f := range found {
		anyAligned = anyAligned || f.aligned
		anyTemp = anyTemp || (f.aligned && f.temp)
	}
	switch {
	case anyTemp:
		return DKIMTempError
	case !anyAligned:
		return DKIMMisaligned
	}
	return DKIMFailed
}

// verifyDKIM runs go-msgauth's verifier, at most 5 signatures, recovering a
// panic as an error.
func verifyDKIM(raw []byte, lookup func(string) ([]string, error)) (vs []*dkim.Verification, err error) {
	defer func() {
		if p := recover(); p != nil {
			vs, err = nil, fmt.Errorf("DKIM verifier failed: %v", p)
		}
	}()
	return dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 5})
}

// aligned reports whether signing domain d aligns with the From domain.
func aligned(d, fromDomain string, strict bool) bool {
	d = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(d), "."))
	fromDomain = strings.ToLower(strings.TrimSuffix(fromDomain, "."))
	if d == "" || fromDomain == "" {
		return false
	}
	if d == fromDomain {
		return true
	}
	if strict || !strings.Contains(d, ".") {
		return false
	}
	return strings.HasSuffix(fromDomain, "."+d)
}

// serverResults reads what the trusted server wrote. Only the topmost
// Authentication-Results header of the mail is considered, and only if its
// authserv-id is servID: the receiving server adds its header above
// everything the sender wrote, so a header the sender forged — with any id,
// ours included — is always below it. (Taking the topmost header *with our
// id* instead would trust a forgery whenever the server writes a slightly
// different id than the one configured.)
func serverResults(headers []string, servID string) ServerResults {
	var sr ServerResults
	if servID == "" || len(headers) == 0 {
		return sr
	}
	id, results, _ := authres.Parse(headers[0]) // results read before a syntax error still count
	if !strings.EqualFold(strings.TrimSpace(id), servID) {
		return sr
	}
	sr.Found = true
	for _, res := range results {
		switch r := res.(type) {
		case *authres.DKIMResult:
			if r.Value == authres.ResultPass {
				d := r.Domain
				if d == "" { // Gmail writes header.i=@domain and no header.d
					_, d, _ = strings.Cut(r.Identifier, "@")
				}
				if d != "" {
					sr.DKIMDomains = append(sr.DKIMDomains, strings.ToLower(d))
				}
				sr.DKIM = string(authres.ResultPass)
			} else if sr.DKIM == "" {
				sr.DKIM = string(r.Value)
			}
		case *authres.SPFResult:
			if sr.SPF == "" {
				sr.SPF = string(r.Value)
			}
		case *authres.DMARCResult:
			if sr.DMARC == "" {
				sr.DMARC = string(r.Value)
			}
		}
	}
	return sr
}

// systemLookupTXT asks the system resolver, each query bounded by timeout.
func systemLookupTXT(timeout time.Duration) func(string) ([]string, error) {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return func(domain string) ([]string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return net.DefaultResolver.LookupTXT(ctx, domain)
	}
}
