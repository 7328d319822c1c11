package mailserver

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	netmail "net/mail"
	"strings"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-smtp"
)

// The SMTP server is a submission server for its own accounts and a final
// delivery server for everyone else (reliability.md):
//
//   - mail whose envelope sender is one of this server's addresses needs
//     SMTP AUTH first (530 5.7.0), and a logged-in user may send only as
//     itself: MAIL FROM, every From address and a Sender must be the
//     user's own address (553/550 5.7.1);
//   - mail from a client that did not log in may not carry a From (or
//     Sender) address of this server's domain (550 5.7.1): nobody can
//     write as an account without its password;
//   - every message stored gets an Authentication-Results header with the
//     server's authserv-id on top of everything the client wrote:
//     "auth=pass smtp.auth=user@domain" for a logged-in client, "auth=none"
//     otherwise. A reader that trusts only the topmost header with this id
//     (package inbox) cannot be fooled by one the client wrote itself.

// address is the account's address in this server's domain.
func (s *Server) address(user string) string { return user + "@" + s.opts.Domain }

// AuthServID is the authserv-id the server writes in its
// Authentication-Results headers (Options.AuthServID, default the domain).
func (s *Server) AuthServID() string { return s.opts.AuthServID }

// isLocalAddress reports an address of this server's domain.
func (s *Server) isLocalAddress(addr string) bool {
	_, domain, ok := cutLast(strings.TrimSpace(addr), "@")
	return ok && strings.EqualFold(strings.TrimSuffix(domain, "."), s.opts.Domain)
}

// errAuthRequired answers MAIL FROM with a local address before AUTH.
func errAuthRequired(from string) error {
	return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0},
		Message: fmt.Sprintf("Authentication required: log in (SMTP AUTH) as <%s> to send from this server's accounts", from)}
}

// errNotYours refuses an address a logged-in user does not own.
func errNotYours(code int, what, addr, user string) error {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
		Message: fmt.Sprintf("%s <%s> is not yours: you are logged in as <%s>", what, addr, user)}
}

// checkMailFrom is the MAIL FROM policy.
func (s *smtpSession) checkMailFrom(from string) error {
	if s.authUser != "" {
		own := s.srv.address(s.authUser)
		if !strings.EqualFold(from, own) {
			return errNotYours(553, "Sender address", from, own)
		}
		return nil
	}
	if s.srv.isLocalAddress(from) {
		return errAuthRequired(from)
	}
	return nil
}

// maxPolicyHeader bounds the header read to check From and Sender.
const maxPolicyHeader = 256 << 10

// checkHeader is the DATA policy on the message's From and Sender fields.
// header is the start of the message (at least its whole header, if it is
// no larger than maxPolicyHeader).
func (s *smtpSession) checkHeader(header []byte) error {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(header)))
	if err != nil && len(header) >= maxPolicyHeader {
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
			Message: fmt.Sprintf("The message header is larger than %d KiB; send a new mail rather than a long reply chain", maxPolicyHeader>>10)}
	}
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0},
			Message: "The message header cannot be read: " + err.Error()}
	}
	var addrs []string
	hidden := "" // a field that cannot be parsed but names a local address
	froms := h.Values("From")
	for _, key := range []string{"From", "Sender", "Resent-From", "Resent-Sender"} {
		for _, v := range h.Values(key) {
			list, err := netmail.ParseAddressList(v)
			if err != nil {
				if s.authUser != "" && key == "From" {
					return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
						Message: fmt.Sprintf("The From field %q cannot be read as an address", v)}
				}
				// A local address hidden in an unreadable field still counts.
				if s.srv.isLocalAddressIn(v) {
					hidden = strings.TrimSpace(v)
				}
				continue
			}
			for _, a := range list {
				addrs = append(addrs, a.Address)
			}
		}
	}
	if s.authUser != "" {
		own := s.srv.address(s.authUser)
		if len(froms) != 1 {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
				Message: fmt.Sprintf("The message has %d From fields; it needs exactly one, <%s>", len(froms), own)}
		}
		if hidden != "" {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
				Message: fmt.Sprintf("The header field %q cannot be read as an address", hidden)}
		}
		for _, a := range addrs {
			if !strings.EqualFold(a, own) {
				return errNotYours(550, "The header address", a, own)
			}
		}
		return nil
	}
	if hidden != "" {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("The header field %q names an account of this server: log in (SMTP AUTH) as it to send its mail", hidden)}
	}
	for _, a := range addrs {
		if s.srv.isLocalAddress(a) {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
				Message: fmt.Sprintf("The header names <%s>, an account of this server: log in (SMTP AUTH) as it to send its mail", a)}
		}
	}
	return nil
}

// isLocalAddressIn reports whether text mentions an address of this
// server's domain anywhere ("@domain" followed by a non-name character).
func (s *Server) isLocalAddressIn(text string) bool {
	t := strings.ToLower(text)
	d := "@" + s.opts.Domain
	for i := strings.Index(t, d); i >= 0; {
		end := i + len(d)
		if end == len(t) || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789-.", rune(t[end])) {
			return true
		}
		j := strings.Index(t[end:], d)
		if j < 0 {
			break
		}
		i = end + j
	}
	return false
}

// authResults is the Authentication-Results field the server puts on top of
// a message it stores.
func (s *smtpSession) authResults() string {
	if s.authUser != "" {
		return fmt.Sprintf("Authentication-Results: %s; auth=pass smtp.auth=%s\r\n", s.srv.opts.AuthServID, s.srv.address(s.authUser))
	}
	return fmt.Sprintf("Authentication-Results: %s; auth=none\r\n", s.srv.opts.AuthServID)
}

// passwordOK is checkPassword with a memory of the logins that passed: a
// mail client logs in for every mail it sends, and PBKDF2 (deliberately
// slow) would otherwise cost several milliseconds per mail in a burst. What
// is remembered is a SHA-256 of the account's salt and the password that
// matched, so a changed password (a new salt) is checked afresh.
func (s *Server) passwordOK(user, password string, salt, hash []byte) bool {
	key := sha256.Sum256(append(append([]byte(user+"\x00"), salt...), password...))
	s.authMu.Lock()
	ok := s.authOK[key]
	s.authMu.Unlock()
	if ok {
		return true
	}
	if !checkPassword(password, salt, hash) {
		return false
	}
	s.authMu.Lock()
	if s.authOK == nil || len(s.authOK) > 10000 {
		s.authOK = map[[32]byte]bool{}
	}
	s.authOK[key] = true
	s.authMu.Unlock()
	return true
}
