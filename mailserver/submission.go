package mailserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"mime"
	"net"
	netmail "net/mail"
	"strings"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/authres"
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
//   - a From or Sender field that cannot be read as addresses is refused
//     with the reason (550 5.1.7; 550 5.7.1 when it names one of this
//     server's accounts, in an encoded word or with a trailing dot, say),
//     rather than taken and then read by pbem as mail from nobody;
//   - a header that does not end within maxPolicyHeader is refused (552);
//   - every message stored gets an Authentication-Results header with the
//     server's authserv-id on top of everything the client wrote:
//     "auth=pass smtp.auth=user@domain" for a logged-in client, "auth=none"
//     otherwise, and any such header of this server's id that the client
//     wrote is removed. It is for people and mail programs: what pbem
//     believes is the server's own record of the arrival (arrival.go),
//     which no client can write.

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

// maxPolicyHeader bounds a message's header: a header that does not end
// within it is refused (552), whatever its shape — one long field or many
// short ones. The intake reads no more of a header either
// (inbox.DefaultMaxHeaderBytes).
const maxPolicyHeader = 256 << 10

// headerInfo is what the DATA policy learnt from a message's header.
type headerInfo struct {
	// messageID is the Message-ID field's value ("" if none).
	messageID string
	// drop are byte ranges of the header to leave out of the stored
	// message: Authentication-Results fields that claim to be this
	// server's (RFC 8601 section 5: a server removes those it did not
	// write). The server's own goes on top.
	drop [][2]int
}

// errHeaderTooLarge is the 552 for a header over maxPolicyHeader.
var errHeaderTooLarge = &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
	Message: fmt.Sprintf("The message header is larger than %d KiB; send a new mail rather than a long reply chain", maxPolicyHeader>>10)}

// headerEnd returns the length of the header of a message that starts with
// head (CRLF line ends), blank line included: 0 when it has none (the
// header is the whole message, when whole says head is all of it) — or -1
// when the header does not end within head although the message goes on.
func headerEnd(head []byte, whole bool) int {
	if bytes.HasPrefix(head, []byte("\r\n")) {
		return 2
	}
	if i := bytes.Index(head, []byte("\r\n\r\n")); i >= 0 {
		return i + 4
	}
	if whole {
		return len(head)
	}
	return -1
}

// checkHeader is the DATA policy on the message's header: its size, and its
// From and Sender fields (see the comment at the top of this file). head is
// the start of the message, CRLF line ends, at most maxPolicyHeader bytes;
// whole says it is the whole message.
func (s *smtpSession) checkHeader(head []byte, whole bool) (headerInfo, error) {
	var info headerInfo
	end := headerEnd(head, whole)
	if end < 0 {
		return info, errHeaderTooLarge
	}
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(head[:end])))
	if err != nil {
		return info, &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0},
			Message: "The message header cannot be read: " + err.Error()}
	}
	info.messageID = strings.TrimSpace(h.Get("Message-Id"))
	info.drop = s.srv.ownAuthResults(head[:end])
	if err := s.checkSenders(h); err != nil {
		return info, err
	}
	return info, nil
}

// checkSenders is the policy on From, Sender and the Resent- fields.
func (s *smtpSession) checkSenders(h textproto.Header) error {
	own := ""
	if s.authUser != "" {
		own = s.srv.address(s.authUser)
	}
	froms := h.Values("From")
	if own != "" && len(froms) != 1 {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("The message has %d From fields; it needs exactly one, <%s>", len(froms), own)}
	}
	for _, key := range []string{"From", "Sender", "Resent-From", "Resent-Sender"} {
		for _, v := range h.Values(key) {
			list, perr := netmail.ParseAddressList(v)
			if perr == nil {
				for _, a := range list {
					if plainAddress(a.Address) {
						continue
					}
					perr = fmt.Errorf("%q is not an address as mail programs write it", a.Address)
				}
			}
			if perr != nil {
				// Unreadable: refused, saying why, so that the sender hears
				// of it now rather than the mail being read as from nobody.
				if local := s.srv.localAddressIn(v); local != "" {
					return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
						Message: fmt.Sprintf("The %s field %q names <%s>, an account of this server, in a form that cannot be read as an address (%v); "+
							"write it plainly, as Name <%s>", key, clipField(v), local, perr, local)}
				}
				return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 7},
					Message: fmt.Sprintf("The %s field %q cannot be read as an address (%v); write it as Name <user@domain>", key, clipField(v), perr)}
			}
			for _, a := range list {
				switch {
				case own != "" && !strings.EqualFold(a.Address, own):
					return errNotYours(550, "The header address", a.Address, own)
				case own == "" && s.srv.isLocalAddress(a.Address):
					return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
						Message: fmt.Sprintf("The header names <%s>, an account of this server: log in (SMTP AUTH) as it to send its mail", a.Address)}
				}
			}
		}
	}
	return nil
}

// plainAddress reports an address as mail programs write it: no encoded
// word in it, and a domain that does not end in a dot. net/mail takes
// "=?utf-8?q?x?=@example.org" as an address; pbem's reading of the From
// (which decodes encoded words first) would not agree with it.
func plainAddress(a string) bool {
	return !strings.Contains(a, "=?") && !strings.HasSuffix(a, ".")
}

// clipField cuts a field's value for an SMTP reply.
func clipField(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	if len(v) > 100 {
		return v[:100] + "…"
	}
	return v
}

// localAddressIn returns the first address of this server's domain that
// text names, also inside RFC 2047 encoded words and with a trailing dot
// after the domain; "" for none.
func (s *Server) localAddressIn(text string) string {
	for _, t := range []string{decodeWords(text), text} {
		if a := s.localAddressInText(t); a != "" {
			return a
		}
	}
	return ""
}

// decodeWords decodes the RFC 2047 encoded words of a field, as far as they
// can be decoded.
func decodeWords(v string) string {
	d, err := (&mime.WordDecoder{CharsetReader: func(_ string, r io.Reader) (io.Reader, error) { return r, nil }}).DecodeHeader(v)
	if err != nil {
		return v
	}
	return d
}

// localAddressInText returns the first "local@domain" of this server's
// domain in text ("@domain", with any trailing dots, followed by a
// character that cannot go on a domain name), lower case; "" for none.
func (s *Server) localAddressInText(text string) string {
	t := strings.ToLower(text)
	d := "@" + s.opts.Domain
	for from := 0; ; {
		i := strings.Index(t[from:], d)
		if i < 0 {
			return ""
		}
		i += from
		end := i + len(d)
		for end < len(t) && t[end] == '.' {
			end++
		}
		if end == len(t) || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789-", rune(t[end])) {
			start := i
			for start > 0 && !strings.ContainsRune(" \t<>\"(),:;[]\\", rune(t[start-1])) {
				start--
			}
			return t[start:i] + d
		}
		from = i + len(d)
	}
}

// ownAuthResults returns the byte ranges of the Authentication-Results
// fields of header whose authserv-id is this server's.
func (s *Server) ownAuthResults(header []byte) [][2]int {
	var out [][2]int
	for _, f := range headerFields(header) {
		name, value, ok := bytes.Cut(header[f[0]:f[1]], []byte(":"))
		if !ok || !strings.EqualFold(strings.TrimSpace(string(name)), "Authentication-Results") {
			continue
		}
		id, _, _ := authres.Parse(strings.Join(strings.Fields(string(value)), " "))
		if id == "" {
			// Unparsable results: take the first word as the id.
			id, _, _ = strings.Cut(strings.TrimSpace(string(value)), ";")
		}
		if strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(id), "."), s.opts.AuthServID) {
			out = append(out, f)
		}
	}
	return out
}

// headerFields returns the byte range of each field of a header (CRLF line
// ends; a field runs on over lines that start with a space or tab), its
// final CRLF included.
func headerFields(header []byte) [][2]int {
	var out [][2]int
	for pos := 0; pos < len(header); {
		next := bytes.Index(header[pos:], []byte("\r\n"))
		if next < 0 {
			next = len(header)
		} else {
			next += pos + 2
		}
		line := header[pos:next]
		switch {
		case len(bytes.TrimRight(line, "\r\n")) == 0:
			return out // the blank line
		case (line[0] == ' ' || line[0] == '\t') && len(out) > 0:
			out[len(out)-1][1] = next
		default:
			out = append(out, [2]int{pos, next})
		}
		pos = next
	}
	return out
}

// authResults is the Authentication-Results field the server puts on top of
// a message it stores.
func (s *smtpSession) authResults() string {
	if s.authUser != "" {
		return fmt.Sprintf("Authentication-Results: %s; auth=pass smtp.auth=%s\r\n", s.srv.opts.AuthServID, s.srv.address(s.authUser))
	}
	return fmt.Sprintf("Authentication-Results: %s; auth=none\r\n", s.srv.opts.AuthServID)
}

// login checks a user name and password (SMTP AUTH, IMAP LOGIN) under the
// limiter (authlimit.go): it waits for the attempt's turn, then checks.
// name is the account key ("" for a name of another domain); err, when not
// nil, is the "try again later" to answer instead of a verdict.
func (s *Server) login(username, password string, remote net.Addr) (name string, ok bool, err error) {
	name, nerr := s.localUser(username)
	keyName := name
	if nerr != nil {
		keyName = strings.ToLower(strings.TrimSpace(username))
	}
	keys := authKeys(keyName, remote)
	if !s.limiter.wait(context.Background(), keys) {
		s.log.Warn("login refused for now: too many failed logins", "user", keyName, "remote", remote.String())
		//lint:ignore ST1005 the SMTP reply a mail client shows its user: a sentence
		return name, false, fmt.Errorf("Too many failed logins for %s or from your address; try again in a few minutes", keyName)
	}
	if nerr == nil {
		s.mu.RLock()
		a := s.accounts[name]
		s.mu.RUnlock()
		ok = a != nil && s.passwordOK(name, password, a.passSalt, a.passHash)
	}
	if !ok {
		s.limiter.failed(keys)
		return name, false, nil
	}
	s.limiter.passed(keys)
	return name, true, nil
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
