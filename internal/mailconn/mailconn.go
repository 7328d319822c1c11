// Package mailconn is the vocabulary of a connection to a mail server that
// the config, the intake (package inbox) and the outbox share: how the
// connection is protected (Security), and a password that never prints
// (Password) or a source that reads one when it is needed (Secret).
//
// It is a leaf, so that the intake and the outbox take their own small
// option structs in these words and import nothing of the app's config:
// the daemon builds their options from the config, whose Security and
// Password are these types under its own names.
package mailconn

import (
	"encoding/json"
	"fmt"
	"log/slog"
)

// Security is how a connection to a mail server is protected.
type Security string

// Connection security.
const (
	// SecurityTLS: TLS from the first byte (IMAP port 993, SMTP port 465).
	SecurityTLS Security = "tls"
	// SecuritySTARTTLS: plain connection upgraded with STARTTLS (IMAP 143,
	// SMTP 587).
	SecuritySTARTTLS Security = "starttls"
	// SecurityNone: no encryption; allowed only to a loopback host.
	SecurityNone Security = "none"
)

// Password is secret text. Every way of printing it — fmt's verbs, slog,
// YAML, JSON — shows "********" (or "" when empty); only Reveal returns the
// text.
type Password string

const mask = "********"

func (p Password) masked() string {
	if p == "" {
		return ""
	}
	return mask
}

// Reveal returns the password's text. Call it only where the password is
// used (a LOGIN command, a hash).
func (p Password) Reveal() string { return string(p) }

// String returns "********", or "" for an empty password.
func (p Password) String() string { return p.masked() }

// GoString keeps %#v from printing the password. It names the type as the
// config does, where people meet it.
func (p Password) GoString() string { return fmt.Sprintf("config.Password(%q)", p.masked()) }

// LogValue keeps slog from printing the password.
func (p Password) LogValue() slog.Value { return slog.StringValue(p.masked()) }

// MarshalYAML writes the mask, so printing a config cannot leak the
// password.
func (p Password) MarshalYAML() (any, error) { return p.masked(), nil }

// MarshalJSON writes the mask.
func (p Password) MarshalJSON() ([]byte, error) { return json.Marshal(p.masked()) }

// Value returns the password itself: a Password is a Secret that is
// already read.
func (p Password) Value() (Password, error) { return p, nil }

// Secret is where a password is read from when it is needed: a Password
// itself, or the config's password given in a file or the environment
// (config.Secret), read again each time (a password file changed on disk
// counts from the next login).
type Secret interface {
	Value() (Password, error)
}
