package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// What the daemon learns from its intake, besides the mail: its health
// (connected or not, and the last outage: the mail-outage guard reads it,
// outage.go), its listings of the mailbox (the turn runner waits for one
// after a deadline, closing.go), and the mail server's clock, when a
// mail's stamp shows it off from this machine's.

// intakeWatch is the turn runner's view of the intake of this process:
// whether there is one, and when it last listed the mailbox with every mail
// found stored and handled (inbox.Options.OnPolled).
type intakeWatch struct {
	mu       sync.Mutex
	attached bool
	listed   time.Time
	pollNow  func()
}

// attachIntake tells the game that an intake of this process reads its
// mailbox (nil: no longer): the turn runner then waits for it at a
// deadline.
func (g *Game) attachIntake(pollNow func()) {
	g.watch.mu.Lock()
	defer g.watch.mu.Unlock()
	g.watch.attached, g.watch.pollNow = pollNow != nil, pollNow
}

// notePolled records a listing of the mailbox whose mail is all stored and
// handled, and wakes the turn runner.
func (g *Game) notePolled(listedAt time.Time) {
	g.watch.mu.Lock()
	if listedAt.After(g.watch.listed) {
		g.watch.listed = listedAt
	}
	g.watch.mu.Unlock()
	g.WakeTurns()
}

// caughtUp reports whether every mail that reached the server before at
// has been taken in: the intake of this process listed the mailbox at or
// after it (true when no intake runs here: "pbem resolve", tests). When it
// has not, the intake is asked to poll now.
func (g *Game) caughtUp(at time.Time) bool {
	g.watch.mu.Lock()
	attached, listed, poll := g.watch.attached, g.watch.listed, g.watch.pollNow
	g.watch.mu.Unlock()
	if !attached || !listed.Before(at) {
		return true
	}
	if poll != nil && !g.Now().Before(at) {
		poll()
	}
	return false
}

// MailClock is the outbox kind of the notice that the mail server's clock
// is off from this machine's.
const MailClock = "clock"

// noteSkew is the intake's OnSkew hook: the server's clock is off from this
// machine's by skew (> 0: ahead), as a mail stamped internal and fetched at
// fetched showed. Sheets are judged by the server's stamp, so a wrong clock
// moves every deadline for the players: the referee is told, by the log and
// by mail, once a day for each size of the difference (rounded to 5
// minutes).
func (g *Game) noteSkew(skew time.Duration, internal, fetched time.Time) {
	ctx := context.Background()
	how := "ahead of"
	if skew < 0 {
		how = "behind"
	}
	size := skew.Abs().Round(time.Second)
	bucket := (skew.Abs() + 150*time.Second) / (5 * time.Minute)
	key := fmt.Sprintf("%s:%d:%s", how, bucket, fetched.UTC().Format("2006-01-02"))
	g.Log.Error("the mail server's clock differs from this machine's", "how", how, "by", size, "internaldate", internal, "fetched", fetched)
	if told, err := g.DB.NoticeQueued(ctx, g.ID(), store.NoticeClock, key); err != nil || told {
		return
	}
	st, err := g.State(ctx)
	if err != nil {
		return
	}
	text := fmt.Sprintf("The game's mail server stamps mail about %s %s this machine's clock: a mail it stamped %s\n"+
		"was fetched by pbem at %s%s.\n\n"+
		"pbem judges every sheet by the time the server received it, so a clock that far off moves every\n"+
		"deadline for the players by as much. Check the time on both (pbem's machine and, with an external\n"+
		"provider, the provider's stamps in a received mail's headers) and set the wrong one right (NTP).\n"+
		"(Also possible: the server showed that mail over IMAP late, or someone moved an old mail into the inbox.)\n",
		size, how, g.showTime(internal), g.showTime(fetched),
		map[bool]string{true: "", false: ", and it was not there when pbem had looked at the mailbox before"}[skew > 0])
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if ref := g.Config.Game.Referee; ref != "" {
			msg := g.message(MailClock, "referee", st.Turn, key, []string{ref},
				fmt.Sprintf("[%s] The mail server's clock is %s %s pbem's", g.ID(), size, how), text, g.Now())
			if err := g.enqueue(ctx, tx, msg); err != nil {
				return err
			}
		}
		return tx.MarkNoticeQueued(ctx, g.ID(), store.NoticeClock, key, g.Now())
	})
	if err != nil {
		g.Log.Error("could not queue the clock notice to the referee", "err", err)
	}
}

// IntakeHealth is the intake's health as recorded in the store.
type IntakeHealth struct {
	Run        string    // the run of "pbem run" that wrote it (runstate.go)
	Known      bool      // the intake has connected or failed at least once since the store was made
	Up         bool      // connected to the mailbox
	Since      time.Time // when it went up or down (in the run that wrote it)
	LastError  string    // the last connection failure
	OutageFrom time.Time // the last outage: when it began (zero: none yet)
	OutageTo   time.Time // and when it ended (zero: still going on)
}

// IntakeHealth reads the intake's recorded health.
func (g *Game) IntakeHealth(ctx context.Context) (IntakeHealth, error) {
	h, ok, err := g.DB.IntakeHealth(ctx, g.ID())
	if err != nil || !ok {
		return IntakeHealth{}, err
	}
	return IntakeHealth{Run: h.Run, Known: true, Up: h.Up, Since: h.Since, LastError: h.LastError,
		OutageFrom: h.OutageFrom, OutageTo: h.OutageTo}, nil
}

// noteIntake records the intake's going up (err nil) or down at t; only a
// change is written.
func (g *Game) noteIntake(ctx context.Context, up bool, cause string, t time.Time) {
	err := g.DB.Update(ctx, func(tx *store.Tx) error {
		h, known, err := tx.IntakeHealth(ctx, g.ID())
		if err != nil {
			return err
		}
		// A record of an earlier run says nothing of this run's connection;
		// an outage it left open ends (as far as anyone knows) when this
		// run connects.
		sameRun := h.Run == g.run.ID()
		if sameRun && known && h.Up == up && (up || h.LastError == cause) {
			return nil
		}
		wasDown := known && !h.Up
		switch {
		case up && wasDown:
			h.OutageTo = t
		case !up && (!wasDown || !sameRun):
			h.OutageFrom, h.OutageTo = t, time.Time{}
		}
		if !up {
			h.LastError = cause
		}
		if h.Up != up || !known || !sameRun {
			h.Since = t
		}
		h.Up, h.Run = up, g.run.ID()
		return tx.SaveIntakeHealth(ctx, g.ID(), h)
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
