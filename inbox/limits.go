package inbox

import (
	"errors"
	"fmt"
	"time"
)

// Defaults for Limits. They are generous for an order mail (a sheet is a few
// kilobytes of text) and small enough that a hostile mail costs at most a few
// tens of megabytes and a fraction of a second.
const (
	DefaultMaxRawBytes    = 10 << 20 // 10 MiB: a sheet with a photo of the map attached still fits
	DefaultMaxHeaderBytes = 256 << 10
	DefaultMaxParts       = 100
	DefaultMaxDepth       = 10
	DefaultMaxTextBytes   = 1 << 20
	DefaultParseDeadline  = 5 * time.Second
)

// Limits bound what Extract reads. The zero value of each field means the
// default named beside it.
type Limits struct {
	// MaxRawBytes is the largest message read at all. Default
	// DefaultMaxRawBytes (10 MiB). The intake uses the same figure to refuse
	// a message by its RFC822.SIZE before fetching it.
	MaxRawBytes int64

	// MaxHeaderBytes is the largest header block, of the message or of any
	// part. Default DefaultMaxHeaderBytes (256 KiB).
	MaxHeaderBytes int

	// MaxParts is the most MIME parts counted over the whole message (the
	// message itself is not counted). Default DefaultMaxParts (100).
	MaxParts int

	// MaxDepth is the most multipart containers nested inside one another.
	// Default DefaultMaxDepth (10); real mail clients use 3 or 4.
	MaxDepth int

	// MaxTextBytes caps the decoded text kept, over all texts of the
	// message. Longer text is cut at a line end with a warning. Default
	// DefaultMaxTextBytes (1 MiB).
	MaxTextBytes int

	// Deadline bounds the time Extract takes. Default DefaultParseDeadline
	// (5s). Extract parses in a goroutine and stops it cooperatively at the
	// deadline.
	Deadline time.Duration

	// OwnAddresses are the game's own addresses, which pbem writes into the
	// X-Loop header of everything it sends (compared without regard to
	// case). A mail whose X-Loop names one of them has looped back. When
	// empty, any X-Loop header marks a mail automatic.
	OwnAddresses []string
}

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.MaxRawBytes <= 0 {
		l.MaxRawBytes = DefaultMaxRawBytes
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if l.MaxParts <= 0 {
		l.MaxParts = DefaultMaxParts
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultMaxTextBytes
	}
	if l.Deadline <= 0 {
		l.Deadline = DefaultParseDeadline
	}
	return l
}

// Errors Extract returns for a mail it refuses to read; test with errors.Is.
// Each comes wrapped in a *LimitError that says what was found.
var (
	// ErrTooLarge: the raw message is over Limits.MaxRawBytes.
	ErrTooLarge = errors.New("message too large")
	// ErrHeaderTooLarge: a header block is over Limits.MaxHeaderBytes.
	ErrHeaderTooLarge = errors.New("header too large")
	// ErrTooManyParts: more MIME parts than Limits.MaxParts.
	ErrTooManyParts = errors.New("too many MIME parts")
	// ErrTooDeep: multipart containers nested deeper than Limits.MaxDepth.
	ErrTooDeep = errors.New("MIME parts nested too deeply")
	// ErrDeadline: reading took longer than Limits.Deadline.
	ErrDeadline = errors.New("reading the message took too long")
	// ErrUnreadable: reading the message failed unexpectedly (a bug in a
	// library, recovered); the detail is in the error text.
	ErrUnreadable = errors.New("message could not be read")
)

// LimitError is a refusal by Extract: which limit, what was found, and the
// limit itself. Its Error text is fit for the referee's log; Reason gives a
// sentence for the sender.
type LimitError struct {
	Err   error  // one of the Err… values above
	Found string // what was found, e.g. "20001 levels"
	Limit string // the limit, e.g. "10 levels"
}

// Error says which limit was exceeded and by what.
func (e *LimitError) Error() string {
	if e.Limit == "" {
		return fmt.Sprintf("inbox: %v (%s)", e.Err, e.Found)
	}
	return fmt.Sprintf("inbox: %v: %s, the limit is %s", e.Err, e.Found, e.Limit)
}

// Unwrap makes errors.Is(err, ErrTooDeep) and the like work.
func (e *LimitError) Unwrap() error { return e.Err }

// Reason is a sentence for the sender of a refused mail: what was wrong and
// what to do.
func (e *LimitError) Reason() string {
	switch e.Err {
	case ErrTooLarge:
		return fmt.Sprintf("Your mail is too large (%s; pbem reads at most %s). Send the orders as plain text without large attachments.", e.Found, e.Limit)
	case ErrHeaderTooLarge:
		return fmt.Sprintf("Your mail's header is too large (%s; at most %s). Send the orders in a new mail rather than a long reply chain.", e.Found, e.Limit)
	case ErrTooManyParts, ErrTooDeep:
		return "Your mail is built from too many nested parts to be read safely. Send the orders as plain text in the body of a new mail, or as one .txt attachment."
	case ErrDeadline:
		return "Your mail could not be read in time. Send the orders as plain text in the body of a new mail."
	}
	return "Your mail could not be read. Send the orders as plain text in the body of a new mail."
}

func limitErr(err error, found, limit string) error {
	return &LimitError{Err: err, Found: found, Limit: limit}
}
