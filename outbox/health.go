package outbox

import (
	"context"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// Health is the outbox's record of its delivery attempts, kept in the store
// (store.OutboxHealth) for "pbem status" and the daemon's outage guard,
// which run beside it and read only the store: whether the last one worked, since when the outbox has been working or failing, and the
// last failure. It is written when the outcome changes (a first success
// after failures, or a failure), not for every message sent, so a flowing
// outbox costs no extra write.
type Health struct {
	// Run is Options.Run of the process that wrote the record: a record of
	// an earlier run says nothing about this one.
	Run string
	// OK is set when the last delivery attempt succeeded.
	OK bool
	// Since is when the outbox began to work (the first success after a
	// failure, or of the run) or to fail (the first failure after a
	// success, or of the run).
	Since time.Time
	// Failures counts the attempts failed in a row (0 while OK).
	Failures int
	// LastError is the last failed attempt's sentence (Error.Error), kept
	// after a success for the record; LastErrorAt is when it failed.
	LastError   string
	LastErrorAt time.Time
}

// ReadHealth reads the outbox's health record from db; ok is false when
// none was written yet.
func ReadHealth(ctx context.Context, db *store.DB) (h Health, ok bool, err error) {
	sh, ok, err := db.OutboxHealth(ctx)
	return Health(sh), ok, err
}

// note records the outcome of a delivery attempt (e nil: sent) when it
// changes the record. A failure to write is logged: the record is for
// people, and the next outcome writes it again.
func (o *Outbox) note(ctx context.Context, e *Error) {
	if e == nil {
		o.noteText(ctx, "")
	} else {
		o.noteText(ctx, e.Error())
	}
}

// noteText is note with the failure as a sentence ("" for a success): also
// for a pass that could not try at all (settings refused).
func (o *Outbox) noteText(ctx context.Context, failure string) {
	now := o.opts.Now()
	o.hmu.Lock()
	h := o.health
	switch {
	case failure == "" && o.healthKnown && h.OK:
		o.hmu.Unlock()
		return // flowing: nothing new
	case failure == "":
		h.OK, h.Since, h.Failures = true, now, 0
	default:
		if !o.healthKnown || h.OK {
			h.Since = now
		}
		h.OK = false
		h.Failures++
		h.LastError, h.LastErrorAt = failure, now
	}
	h.Run = o.opts.Run
	o.health, o.healthKnown = h, true
	o.hmu.Unlock()
	if err := o.db.SaveOutboxHealth(context.WithoutCancel(ctx), store.OutboxHealth(h)); err != nil {
		o.log.Warn("outbox: recording its health failed", "error", err)
	}
}

// Health returns this process's record of the outbox's delivery attempts;
// ok is false before the first attempt.
func (o *Outbox) Health() (h Health, ok bool) {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	return o.health, o.healthKnown
}

// CheckLogin connects to the SMTP server, logs in as the settings say, and
// says goodbye, sending nothing: what "pbem run" does at start, so that a
// wrong password is loud at once rather than a warning in the log at the
// first answer. The outcome is recorded as the outbox's health (Health).
// The error is an *Error (Stage says where it failed) or the settings'.
func (o *Outbox) CheckLogin(ctx context.Context) error {
	t, err := o.target()
	if err != nil {
		o.noteText(ctx, err.Error())
		return err
	}
	s, e := o.connect(ctx, t)
	if e != nil {
		o.note(ctx, e)
		return e
	}
	s.quit()
	o.noteText(ctx, "")
	return nil
}
