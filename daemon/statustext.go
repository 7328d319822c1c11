package daemon

import (
	"fmt"
	"strings"
	"time"
)

// The status lines about the turn's progress and the mail's health: what
// the turn runner is doing with a closed turn (held, taking in the mail,
// waiting for the table, resolving, failing), whether "pbem run" runs, and
// this run's connections — never a record of an earlier run shown as this
// one's, never "flowing" for an outbox whose every attempt fails.

// runnerNow is the turn runner's state when the running daemon recorded it
// for the open turn; ok is false otherwise.
func (s *Status) runnerNow() (runnerState, bool) {
	r := s.Runner
	return r, s.Running && s.RunnerKnown && r.Run == s.Run.ID() && r.Turn == s.Turn
}

// turnStateText prints what happens to the open turn once its orders have
// closed (nothing while they are open).
func (s *Status) turnStateText(b *strings.Builder, now time.Time) {
	passed := !s.Deadline.IsZero() && !s.Deadline.After(now)
	if s.IsClosed {
		by := "the referee's RESOLVE NOW"
		if s.Closed.By == closedByFinal {
			by = "every nation's FINAL sheet"
		}
		fmt.Fprintf(b, "Orders: closed by %s at %s: sheets arriving after it are late\n", by, s.show(s.Closed.At))
	} else if !passed {
		return
	}
	r, live := s.runnerNow()
	switch {
	case s.IsHeld && (!live || r.State == runnerHeld):
		fmt.Fprintf(b, "Turn: HELD since %s: %s.\n      It waits for the referee: RESOLVE NOW (in reply to the notice, or with TURN %d), or DEADLINE EXTEND.\n",
			s.show(s.Held.At), s.Held.Why, s.Turn)
	case !s.Running:
		b.WriteString("Turn: not resolved: pbem run is not running; it takes in the mail that reached the server before the close, then resolves the turn, when it starts\n")
	case !live:
		b.WriteString("Turn: pbem run has not looked at it yet\n")
	default:
		since := fmt.Sprintf(" (since %s)", s.show(r.Since))
		switch r.State {
		case runnerHeld:
			fmt.Fprintf(b, "Turn: HELD%s: %s\n", since, r.Why)
		case runnerCatchingUp:
			fmt.Fprintf(b, "Turn: waiting%s: %s\n", since, r.Why)
		case runnerTable:
			fmt.Fprintf(b, "Turn: waiting for the referee's results of the battles on the table%s\n", since)
		case runnerResolving:
			fmt.Fprintf(b, "Turn: being resolved%s\n", since)
		case runnerFailing:
			fmt.Fprintf(b, "Turn: resolving FAILS%s: %s; pbem tries again every %v\n", since, r.Why, turnRetry)
		default:
			fmt.Fprintf(b, "Turn: due; pbem run looks at it now\n")
		}
	}
}

// healthText is the status's lines on pbem run and the mail's health.
func (s *Status) healthText(now time.Time) string {
	var b strings.Builder
	run := s.Run
	switch {
	case run.Started.IsZero():
		b.WriteString("pbem run: never run with this store\n")
	case s.Running:
		fmt.Fprintf(&b, "pbem run: running since %s (process %d on %s)\n", s.show(run.Started), run.PID, run.Host)
	case !run.Stopped.IsZero():
		fmt.Fprintf(&b, "pbem run: NOT RUNNING (the last run, started %s, stopped %s)\n", s.show(run.Started), s.show(run.Stopped))
	default:
		fmt.Fprintf(&b, "pbem run: NOT RUNNING (the last run, started %s, ended without stopping cleanly)\n", s.show(run.Started))
	}
	thisRun := func(id string) bool { return s.Running && id == run.ID() }
	h := s.Intake
	switch {
	case !h.Known:
		b.WriteString("Intake: not yet connected")
	case !thisRun(h.Run) && s.Running:
		b.WriteString("Intake: not yet connected in this run")
	case !thisRun(h.Run):
		if h.Up {
			fmt.Fprintf(&b, "Intake: was connected from %s until the run ended", s.show(h.Since))
		} else {
			fmt.Fprintf(&b, "Intake: was DOWN from %s until the run ended: %s", s.show(h.Since), h.LastError)
		}
	case h.Up:
		fmt.Fprintf(&b, "Intake: connected since %s", s.show(h.Since))
	default:
		fmt.Fprintf(&b, "Intake: DOWN since %s (%s ago): %s", s.show(h.Since), roundDuration(now.Sub(h.Since)), h.LastError)
	}
	if h.Known && !h.OutageFrom.IsZero() && !h.OutageTo.IsZero() {
		fmt.Fprintf(&b, "; last outage %s to %s", s.show(h.OutageFrom), s.show(h.OutageTo))
	}
	b.WriteString("\n")
	o := s.OutboxHealth
	switch {
	case !s.OutboxKnown:
		b.WriteString("Outbox: nothing tried yet\n")
	case !thisRun(o.Run) && s.Running:
		b.WriteString("Outbox: nothing tried yet in this run")
		if !o.OK && o.LastError != "" {
			fmt.Fprintf(&b, " (the last run's last failure, %s: %s)", s.show(o.LastErrorAt), o.LastError)
		}
		b.WriteString("\n")
	case !o.OK:
		when := "the last run's attempts"
		if thisRun(o.Run) {
			when = fmt.Sprintf("%s ago", roundDuration(now.Sub(o.Since)))
		}
		fmt.Fprintf(&b, "Outbox: FAILING since %s (%s): %d attempt(s) in a row failed; the last, at %s: %s\n",
			s.show(o.Since), when, o.Failures, s.show(o.LastErrorAt), o.LastError)
	case thisRun(o.Run):
		fmt.Fprintf(&b, "Outbox: flowing (sending since %s)", s.show(o.Since))
		if o.LastError != "" {
			fmt.Fprintf(&b, "; the last failure, %s: %s", s.show(o.LastErrorAt), o.LastError)
		}
		b.WriteString("\n")
	default:
		fmt.Fprintf(&b, "Outbox: was sending from %s until the run ended\n", s.show(o.Since))
	}
	return b.String()
}

func (s *Status) show(t time.Time) string {
	if s.Zone != nil {
		t = t.In(s.Zone)
	}
	return t.Format("Mon 2 Jan 2006 15:04 MST")
}
