package outbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/emersion/go-smtp"
)

// ErrInsecure is wrapped by the error Flush returns when the settings would
// send mail, and perhaps a password, unencrypted to a host that is not this
// machine. Nothing is sent, and no message is touched.
var ErrInsecure = errors.New("security none (no TLS) is allowed only to a loopback address")

// Stage is the step of a delivery in which an attempt failed.
type Stage string

// Stages of a delivery, in order.
const (
	StageMessage  Stage = "message"  // reading the stored message itself (its From header)
	StageConnect  Stage = "connect"  // the TCP connection
	StageTLS      Stage = "tls"      // the TLS handshake, implicit or after STARTTLS
	StageGreeting Stage = "greeting" // the server's greeting and EHLO
	StageAuth     Stage = "auth"     // AUTH PLAIN or LOGIN
	StageMail     Stage = "mail"     // MAIL FROM
	StageRcpt     Stage = "rcpt"     // RCPT TO
	StageData     Stage = "data"     // DATA and the message's bytes
	StageResult   Stage = "result"   // the server's reply after the final dot
)

// Error is a failed delivery attempt. Error() is the sentence for people —
// the referee sees it as the row's LastError and in the failure report —
// and Err is the underlying detail, for the log.
//
// Temporary failures are tried again after a backoff: 4xx replies, a
// connection refused, dropped or timed out, a TLS handshake that failed,
// and any failure before MAIL FROM (connecting, greeting, login), since
// those are about the server or pbem's settings rather than the message.
// Permanent failures fail the message at once: a 5xx reply to MAIL, RCPT,
// DATA or after the final dot, or a stored message that cannot be read.
type Error struct {
	Temporary bool   // try again later; false: give up now
	Stage     Stage  // where it failed
	Server    string // host:port of the SMTP server; "" at StageMessage
	Code      int    // the SMTP reply code; 0 when the server did not answer
	Enhanced  string // the enhanced status code such as "5.1.1"; "" if none
	Reply     string // the server's reply text, lines joined by spaces
	Recipient string // the recipient refused, at StageRcpt
	Err       error  // the underlying error, for the log
}

// Error says what failed, in words for the referee.
func (e *Error) Error() string {
	var b strings.Builder
	switch e.Stage {
	case StageMessage:
		b.WriteString("the stored message cannot be sent as it is")
		if e.Err != nil {
			b.WriteString(": " + e.Err.Error())
		}
	case StageConnect:
		fmt.Fprintf(&b, "could not connect to the mail server %s", e.Server)
	case StageTLS:
		fmt.Fprintf(&b, "could not set up TLS with the mail server %s", e.Server)
	case StageGreeting:
		fmt.Fprintf(&b, "the mail server %s did not accept pbem's greeting", e.Server)
	case StageAuth:
		fmt.Fprintf(&b, "the mail server %s refused pbem's login (check mail.smtp.username and the password)", e.Server)
	case StageMail:
		fmt.Fprintf(&b, "the mail server %s refused the sender", e.Server)
	case StageRcpt:
		fmt.Fprintf(&b, "the mail server %s refused the recipient %s", e.Server, e.Recipient)
	case StageData:
		fmt.Fprintf(&b, "the mail server %s did not take the message", e.Server)
	case StageResult:
		if e.Code == 0 {
			fmt.Fprintf(&b, "the connection to the mail server %s was lost after the message was sent, before the "+
				"server confirmed it", e.Server)
		} else {
			fmt.Fprintf(&b, "the mail server %s refused the message", e.Server)
		}
	default:
		fmt.Fprintf(&b, "sending through %s failed", e.Server)
	}
	if e.Code != 0 {
		fmt.Fprintf(&b, ": %d", e.Code)
		if e.Enhanced != "" {
			b.WriteString(" " + e.Enhanced)
		}
		if e.Reply != "" {
			b.WriteString(" " + e.Reply)
		}
	} else if r := reason(e.Err); r != "" {
		b.WriteString(" (" + r + ")")
	}
	if e.Temporary {
		b.WriteString("; temporary")
	} else {
		b.WriteString("; permanent")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// classify makes an *Error of a failure at stage.
func classify(stage Stage, server string, err error) *Error {
	e := &Error{Temporary: true, Stage: stage, Server: server, Err: err}
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		e.Code = se.Code
		e.Reply = strings.Join(strings.Fields(se.Message), " ")
		if ec := se.EnhancedCode; ec != smtp.EnhancedCodeNotSet && ec != smtp.NoEnhancedCode {
			e.Enhanced = fmt.Sprintf("%d.%d.%d", ec[0], ec[1], ec[2])
		}
		switch stage {
		case StageMail, StageRcpt, StageData, StageResult:
			e.Temporary = se.Code/100 != 5
		}
	}
	return e
}

// reason names a network failure in a few words, or "".
func reason(err error) string {
	if err == nil {
		return ""
	}
	var (
		ne   net.Error
		dns  *net.DNSError
		cve  *tls.CertificateVerificationError
		uae  x509.UnknownAuthorityError
		hne  x509.HostnameError
		cie  x509.CertificateInvalidError
		rhe  tls.RecordHeaderError
		alrt tls.AlertError
	)
	switch {
	case errors.Is(err, ErrInsecure):
		return ErrInsecure.Error()
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns):
		return "host name not found"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.As(err, &cve), errors.As(err, &uae), errors.As(err, &hne), errors.As(err, &cie):
		return "the server's certificate is not trusted"
	case errors.As(err, &rhe):
		return "the server does not speak TLS on this port"
	case errors.As(err, &alrt):
		return "the server broke off the TLS handshake"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return "the connection was closed"
	case errors.Is(err, errNoSTARTTLS):
		return errNoSTARTTLS.Error()
	case errors.Is(err, errNoAuthMech):
		return errNoAuthMech.Error()
	}
	return ""
}
