package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/store"
)

// The mail-outage guard. A turn must not be resolved while its mail cannot
// come in or go out: a sheet that reached the mailbox before the deadline
// while pbem could not read it would be fetched after the deadline and
// counted late, and reports would pile up unsent. So the intake's health is
// recorded (from its log: "connected" is up, "reconnecting" is down; the
// last outage is kept with its start and end) in the store, where "pbem
// status" reads it too, and at the deadline the turn waits when
//
//   - the intake cannot reach the mailbox now,
//   - it could not for outageMin or more within game.outage_hours before the
//     deadline, or
//   - the outbox is stuck (mail due to go out for outboxStuckAfter or more),
//
// until the referee's RESOLVE NOW (the referee has looked) or a deadline
// whose window the outage is not in (DEADLINE EXTEND). The referee is told,
// once per turn and cause, by the log (error level) and by mail (queued:
// it goes when the outbox works again).

const (
	outageMin        = 5 * time.Minute  // a shorter blip of the intake is not an outage
	outboxStuckAfter = 15 * time.Minute // mail due this long and not sent: the outbox is stuck
)

// MailOutage is the outbox kind of the notice that a turn waits for the mail.
const MailOutage = "outage"

// IntakeHealth is the intake's health as recorded in the store.
type IntakeHealth struct {
	Known      bool      // the intake has connected or failed at least once since the store was made
	Up         bool      // connected to the mailbox
	Since      time.Time // when it went up or down
	LastError  string    // the last connection failure
	OutageFrom time.Time // the last outage: when it began (zero: none yet)
	OutageTo   time.Time // and when it ended (zero: still going on)
}

func intakeHealthKey(gameID string) string { return "intake-health:" + gameID }

// IntakeHealth reads the intake's recorded health.
func (g *Game) IntakeHealth(ctx context.Context) (IntakeHealth, error) {
	raw, ok, err := g.DB.GetMeta(ctx, intakeHealthKey(g.ID()))
	if err != nil || !ok {
		return IntakeHealth{}, err
	}
	var h IntakeHealth
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		return IntakeHealth{}, fmt.Errorf("meta %s: %w", intakeHealthKey(g.ID()), err)
	}
	return h, nil
}

// noteIntake records the intake's going up (err nil) or down at t; only a
// change is written.
func (g *Game) noteIntake(ctx context.Context, up bool, cause string, t time.Time) {
	err := g.DB.Update(ctx, func(tx *store.Tx) error {
		var h IntakeHealth
		if raw, ok, err := tx.GetMeta(ctx, intakeHealthKey(g.ID())); err != nil {
			return err
		} else if ok {
			if err := json.Unmarshal([]byte(raw), &h); err != nil {
				return err
			}
		}
		if h.Known && h.Up == up && (up || h.LastError == cause) {
			return nil
		}
		wasDown := h.Known && !h.Up
		switch {
		case up && wasDown:
			h.OutageTo = t
		case !up && !wasDown:
			h.OutageFrom, h.OutageTo = t, time.Time{}
		}
		if !up {
			h.LastError = cause
		}
		if h.Up != up || !h.Known {
			h.Since = t
		}
		h.Known, h.Up = true, up
		b, err := json.Marshal(h)
		if err != nil {
			return err
		}
		return tx.SetMeta(ctx, intakeHealthKey(g.ID()), string(b))
	})
	if err != nil {
		g.Log.Warn("recording the intake's health failed", "err", err)
	}
}

// intakeLogger wraps the intake's logger so that its connections and
// failures are recorded as its health.
func (g *Game) intakeLogger(l *slog.Logger) *slog.Logger {
	return slog.New(&healthHandler{inner: l.Handler(), g: g})
}

// healthHandler passes the intake's log records on and notes its health.
type healthHandler struct {
	inner slog.Handler
	g     *Game
}

func (h *healthHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *healthHandler) Handle(ctx context.Context, r slog.Record) error {
	switch {
	case r.Message == "connected":
		h.g.noteIntake(context.Background(), true, "", r.Time)
	case strings.Contains(r.Message, "reconnecting"):
		cause := r.Message
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" {
				cause = a.Value.String()
				return false
			}
			return true
		})
		h.g.noteIntake(context.Background(), false, cause, r.Time)
	}
	if !h.inner.Enabled(ctx, r.Level) {
		return nil
	}
	return h.inner.Handle(ctx, r)
}

func (h *healthHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &healthHandler{inner: h.inner.WithAttrs(as), g: h.g}
}

func (h *healthHandler) WithGroup(name string) slog.Handler {
	return &healthHandler{inner: h.inner.WithGroup(name), g: h.g}
}

// outboxStuck says since when mail due to go out has not gone (zero: it
// flows).
func (g *Game) outboxStuck(ctx context.Context) (time.Time, error) {
	var oldest time.Time
	for _, state := range []store.OutboxState{store.OutboxPending, store.OutboxSending} {
		rows, err := g.DB.MessagesInState(ctx, state)
		if err != nil {
			return time.Time{}, err
		}
		for _, r := range rows {
			due := r.NextAttemptAt
			if r.Attempts == 0 || due.Before(r.CreatedAt) {
				due = r.CreatedAt
			}
			if oldest.IsZero() || due.Before(oldest) {
				oldest = due
			}
		}
	}
	if oldest.IsZero() || g.Now().Sub(oldest) < outboxStuckAfter {
		return time.Time{}, nil
	}
	return oldest, nil
}

// outageHold is turnDue's hook for a turn due at its deadline: it returns
// why the turn must wait for the mail ("" if it need not), and tells the
// referee.
func (g *Game) outageHold(ctx context.Context, turn int, deadline time.Time, subs []store.Submission) (string, error) {
	window := time.Duration(g.Config.Game.OutageHours) * time.Hour
	if window <= 0 {
		return "", nil
	}
	for _, s := range subs {
		if s.Kind == KindResolveNow {
			return "", nil // the referee has decided
		}
	}
	h, err := g.IntakeHealth(ctx)
	if err != nil {
		return "", err
	}
	var why string
	switch {
	case h.Known && !h.Up:
		why = fmt.Sprintf("pbem cannot read the game's mailbox since %s (%s)", g.showTime(h.Since), h.LastError)
	case !h.OutageFrom.IsZero() && h.OutageTo.Sub(h.OutageFrom) >= outageMin && !deadline.IsZero() &&
		h.OutageTo.After(deadline.Add(-window)) && h.OutageFrom.Before(deadline):
		why = fmt.Sprintf("pbem could not read the game's mailbox from %s to %s, within %s before the deadline: "+
			"sheets sent then were fetched late and counted late", g.showTime(h.OutageFrom), g.showTime(h.OutageTo), english.Count(g.Config.Game.OutageHours, "hour"))
	}
	if why == "" {
		stuck, err := g.outboxStuck(ctx)
		if err != nil {
			return "", err
		}
		if !stuck.IsZero() {
			why = fmt.Sprintf("mail due to go out since %s has not gone (the outbox is stuck; see pbem status)", g.showTime(stuck))
		}
	}
	if why != "" {
		g.tellOutage(ctx, turn, deadline, why)
	}
	return why, nil
}

// tellOutage tells the referee that the turn waits for the mail: in the log
// and by mail, once per turn, deadline and cause.
func (g *Game) tellOutage(ctx context.Context, turn int, deadline time.Time, why string) {
	sum := sha256.Sum256([]byte(deadline.UTC().Format(time.RFC3339) + "\x00" + why))
	key := "outage-told:" + g.ID() + ":" + hex.EncodeToString(sum[:8])
	if _, told, err := g.DB.GetMeta(ctx, key); err != nil || told {
		return
	}
	g.Log.Error("the turn waits: the mail is not working", "turn", turn, "deadline", deadline, "why", why)
	st, err := g.State(ctx)
	if err != nil {
		return
	}
	label := st.Calendar.Label(turn)
	text := fmt.Sprintf("%s is due (deadline %s) but waits: %s.\n\n"+
		"Once the mail works again, either move the deadline so that players can send their sheets\n"+
		"(DEADLINE EXTEND 1d), or resolve the turn as it stands (RESOLVE NOW). \"pbem status\" shows the\n"+
		"intake's and the outbox's health.\n", label, g.showTime(deadline), why)
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if ref := g.Config.Game.Referee; ref != "" {
			msg := g.message(MailOutage, "referee", turn, hex.EncodeToString(sum[:8]), []string{ref},
				fmt.Sprintf("[%s] %s waits: the mail is not working", g.ID(), label), text, g.Now())
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.SetMeta(ctx, key, g.Now().UTC().Format(time.RFC3339))
	})
	if err != nil {
		g.Log.Error("could not queue the outage notice to the referee", "err", err)
	}
}

// healthText is the status's lines on the mail's health.
func (s *Status) healthText(now time.Time) string {
	var b strings.Builder
	h := s.Intake
	switch {
	case !h.Known:
		b.WriteString("Intake: not yet connected")
	case h.Up:
		fmt.Fprintf(&b, "Intake: connected since %s", s.show(h.Since))
	default:
		fmt.Fprintf(&b, "Intake: DOWN since %s (%s ago): %s", s.show(h.Since), roundDuration(now.Sub(h.Since)), h.LastError)
	}
	if h.Up && !h.OutageFrom.IsZero() {
		fmt.Fprintf(&b, "; last outage %s to %s", s.show(h.OutageFrom), s.show(h.OutageTo))
	}
	b.WriteString("\n")
	if !s.OutboxStuck.IsZero() {
		fmt.Fprintf(&b, "Outbox: STUCK, mail due since %s has not gone\n", s.show(s.OutboxStuck))
	} else {
		b.WriteString("Outbox: flowing\n")
	}
	return b.String()
}

func (s *Status) show(t time.Time) string {
	if s.Zone != nil {
		t = t.In(s.Zone)
	}
	return t.Format("Mon 2 Jan 2006 15:04 MST")
}

// statusHealth fills the status's health fields.
func (g *Game) statusHealth(ctx context.Context, s *Status) error {
	var err error
	if s.Intake, err = g.IntakeHealth(ctx); err != nil {
		return err
	}
	s.OutboxStuck, err = g.outboxStuck(ctx)
	return err
}
