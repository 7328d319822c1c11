// Package doctor checks a pbem configuration against the real services
// before a game starts, and says per line what works and what to fix.
//
// # Algorithm
//
// Run goes through the checks in the order a referee would fix them, each
// giving one or more Lines (a check's name, OK, Warn, Fail or Skip, what
// was found, and for anything not OK what to do):
//
//  1. the clock (is the system clock synchronised, per the kernel's
//     adjtimex state on Linux) and the game's time zone;
//  2. the scenario: the map validates, the scenario loads for the ruleset;
//  3. the data folder: exists (or can be created) and is writable; then,
//     before any connection, what is still a placeholder (addresses and
//     hosts at example.org or example.com, the password "pbem init" put
//     in secrets/mail.txt);
//  4. IMAP: connect (TLS version and certificate, or STARTTLS, or none on
//     loopback), log in, the capabilities pbem uses (IDLE, MOVE, UIDPLUS:
//     what pbem does without each), the mailbox (EXAMINE, read-only) and
//     the processed mailbox;
//  5. SMTP: connect (as IMAP), log in, and a test message from the game's
//     address to the referee, with a copy to the game's own address
//     marked X-Loop so that pbem never answers it;
//  6. DKIM: the copy is looked for in the mailbox (read-only) and its
//     DKIM-Signature verified for the game address's domain.
//
// A failed step makes the steps that need it Skip. In mode embedded the
// servers are pbem's own: when nothing listens on their addresses (no
// "pbem run"), Run starts the embedded server for the duration of the
// checks.
//
// Nothing is changed on the servers but the test message: the mailbox is
// examined read-only, and the processed mailbox is not created (pbem run
// creates it).
//
// Every failing line has a Class: 3 when the fix is in the configuration
// or the files it names (a map that does not validate, a password refused,
// a host name that does not exist while other names resolve, an address
// the server refuses), 4 when a service, the network or the machine fails
// (a server that cannot be reached, a provider's host that cannot be
// resolved, a folder that cannot be written). ExitCode turns the lines into pbem's
// exit code.
package doctor

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/config"
)

// Status is a check's outcome.
type Status int

// Outcomes.
const (
	OK Status = iota
	Warn
	Fail
	Skip
)

// String is the status as "pbem doctor" prints it: ok, warn, FAIL, skip.
func (s Status) String() string {
	return [...]string{"ok", "warn", "FAIL", "skip"}[s]
}

// Exit classes of a failing line, as pbem's exit codes.
const (
	ClassConfig  = 3
	ClassRuntime = 4
)

// Line is one check's result.
type Line struct {
	Check  string // "imap login"
	Status Status
	Text   string // what was found
	Fix    string // what to do ("" when OK)
	Class  int    // for Fail: ClassConfig or ClassRuntime
}

// Options adjust Run; the zero value is what "pbem doctor" uses.
type Options struct {
	// TLSConfig is used for TLS and STARTTLS (its ServerName is set per
	// server). Nil: the system's roots.
	TLSConfig *tls.Config
	// NoSend skips the test message (and so the DKIM check).
	NoSend bool
	// DKIMWait is how long the copy of the test message is waited for in
	// the mailbox. Default 30s.
	DKIMWait time.Duration
	// Timeout bounds each connection's whole conversation. Default 30s.
	Timeout time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// LookupHost resolves a host name (default: the system's resolver).
	LookupHost func(ctx context.Context, host string) ([]string, error)
}

func (o *Options) defaults() {
	if o.DKIMWait == 0 {
		o.DKIMWait = 30 * time.Second
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// report collects lines.
type report struct {
	lines []Line
	out   io.Writer // each line is also printed here as it is found, if set
}

func (r *report) add(l Line) {
	r.lines = append(r.lines, l)
	if r.out != nil {
		fmt.Fprint(r.out, Format(l))
	}
}

func (r *report) ok(check, format string, args ...any) {
	r.add(Line{Check: check, Status: OK, Text: fmt.Sprintf(format, args...)})
}

func (r *report) warn(check, text, fix string) {
	r.add(Line{Check: check, Status: Warn, Text: text, Fix: fix})
}

func (r *report) fail(check string, class int, text, fix string) {
	r.add(Line{Check: check, Status: Fail, Text: text, Fix: fix, Class: class})
}

func (r *report) skip(check, why string) {
	r.add(Line{Check: check, Status: Skip, Text: why})
}

// Run checks cfg against the services it names, printing each line to out
// (nil: print nothing) as it is found, and returns the lines.
func Run(ctx context.Context, cfg *config.Config, opts *Options, out io.Writer) []Line {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.defaults()
	r := &report{out: out}
	checkClock(r, cfg, o)
	checkScenario(ctx, r, cfg)
	checkDataDir(r, cfg)
	checkPlaceholders(r, cfg)
	stop := ensureEmbedded(ctx, r, cfg)
	defer stop()
	m := checkIMAP(ctx, r, cfg, o)
	msgID := checkSMTP(ctx, r, cfg, o, m)
	checkDKIM(ctx, r, cfg, o, m, msgID)
	if m != nil {
		m.close()
	}
	return r.lines
}

// Format prints a line as "pbem doctor" shows it: the status, the check,
// what was found, and the fix indented below.
func Format(l Line) string {
	s := fmt.Sprintf("%-4s  %-18s %s\n", l.Status, l.Check, l.Text)
	if l.Fix != "" {
		s += "      " + strings.Repeat(" ", 19) + "→ " + l.Fix + "\n"
	}
	return s
}

// ExitCode is pbem's exit code for the lines: 0 when nothing failed
// (warnings included), 3 when a failure's fix is in the configuration, else
// 4.
func ExitCode(lines []Line) int {
	code := 0
	for _, l := range lines {
		if l.Status != Fail {
			continue
		}
		if l.Class == ClassConfig {
			return ClassConfig
		}
		code = ClassRuntime
	}
	return code
}
