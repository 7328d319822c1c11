package inbox

import (
	"slices"
	"strings"
)

// IsAutomatic reports whether the mail was sent by a program rather than a
// person — an auto-reply, a bounce, a read receipt, a list mail or pbem's own
// mail come back — and says why. Such mail is recorded and never answered,
// so that two robots cannot answer each other for ever (RFC 3834).
//
// The signs, in the order they are checked:
//
//   - Auto-Submitted with any value but "no" (RFC 3834);
//   - X-Loop naming one of Limits.OwnAddresses (any X-Loop when none are
//     given);
//   - Precedence bulk, junk, list or auto_reply;
//   - X-Autoreply or X-Autorespond (vacation programs that predate RFC 3834);
//   - a null Return-Path "<>" (the envelope sender of every bounce);
//   - a From address whose local part is MAILER-DAEMON or postmaster;
//   - a multipart/report (a delivery status notification or a read receipt).
func (ex *Extracted) IsAutomatic() (bool, string) {
	if ex == nil {
		return false, ""
	}
	if ex.AutoSubmitted != "" && ex.AutoSubmitted != "no" {
		return true, "Auto-Submitted: " + ex.AutoSubmitted
	}
	for _, x := range ex.XLoop {
		if len(ex.ownAddresses) == 0 {
			return true, "X-Loop: " + x
		}
		if slices.ContainsFunc(ex.ownAddresses, func(a string) bool { return strings.EqualFold(strings.TrimSpace(a), x) }) {
			return true, "X-Loop: " + x + " (our own mail came back)"
		}
	}
	switch ex.Precedence {
	case "bulk", "junk", "list", "auto_reply":
		return true, "Precedence: " + ex.Precedence
	}
	if ex.AutoReplyHeader != "" {
		return true, ex.AutoReplyHeader + " header"
	}
	if ex.HasReturnPath && isNullPath(ex.ReturnPath) {
		return true, "null Return-Path (a bounce)"
	}
	for _, a := range append([]string{ex.From}, ex.FromAddresses...) {
		local, _, _ := strings.Cut(a, "@")
		if local == "mailer-daemon" || local == "postmaster" {
			return true, "sent by " + a
		}
	}
	if ex.ContentType == "multipart/report" {
		if ex.ReportType != "" {
			return true, "multipart/report (" + ex.ReportType + ")"
		}
		return true, "multipart/report"
	}
	return false, ""
}

// isNullPath reports whether a Return-Path is the null sender "<>".
func isNullPath(p string) bool {
	p = strings.TrimSpace(stripComment(p))
	return p == "<>" || strings.ReplaceAll(p, " ", "") == "<>"
}
