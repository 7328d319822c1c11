package daemon

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/syw-pbem/pbem/store"
)

// HandleMails is HandleMail for several stored mails, in arrival order,
// recording the outcomes of consecutive mails in one transaction (one fsync
// instead of one a mail, the most a burst costs). Mails are grouped only
// while their senders differ and none is the referee's: each mail is decided
// on what is committed, so a mail whose decision could depend on one before
// it in the same group (a sender's second sheet, a ruling on a request just
// made) starts a new group. As no decision in a group depends on another,
// the group's mails are decided side by side (one worker a CPU: a nation's
// first sheet costs a bcrypt check, and a burst should not wait for five in
// a row), then recorded in order. A crash leaves a whole group uncommitted,
// to be handled again with the same answers, as for one mail. On an error
// the mails before the failing one are committed and the error returned.
func (g *Game) HandleMails(ctx context.Context, ms []store.Mail) error {
	for len(ms) > 0 {
		n := groupLen(ms, g.Config.Game.Referee)
		if err := g.handleGroup(ctx, ms[:n]); err != nil {
			return err
		}
		ms = ms[n:]
	}
	return nil
}

// maxGroup bounds the mails recorded in one transaction.
const maxGroup = 16

// groupLen returns how many of ms, from the first, form one group: at most
// maxGroup, no sender twice, and a mail with no sender or from the referee
// alone.
func groupLen(ms []store.Mail, referee string) int {
	senders := map[string]bool{}
	for i, m := range ms {
		from := strings.ToLower(strings.TrimSpace(m.From))
		barrier := from == "" || strings.EqualFold(from, referee)
		switch {
		case barrier && i == 0:
			return 1
		case barrier || senders[from] || i == maxGroup:
			return i
		}
		senders[from] = true
	}
	return len(ms)
}

// handleGroup decides a group's mails side by side and records the outcomes
// in one transaction; a mail no longer stored (handled meanwhile) is skipped.
func (g *Game) handleGroup(ctx context.Context, ms []store.Mail) error {
	type decided struct {
		m    store.Mail
		out  outcome
		skip bool
		err  error
	}
	ds := make([]decided, len(ms))
	decideOne := func(i int) {
		m := ms[i]
		cur, err := g.DB.MailHead(ctx, m.ID)
		if err != nil {
			ds[i].err = err
			return
		}
		if cur.Status != store.MailStored {
			ds[i].skip = true
			return
		}
		if raw := m.Raw; len(raw) > 0 {
			m = cur
			m.Raw = raw
		} else if m, err = g.DB.Mail(ctx, m.ID); err != nil {
			ds[i].err = err
			return
		}
		ds[i].out, ds[i].err = g.decideRecovered(ctx, m)
		// Decided: the bytes are not needed to record it, and a group of
		// large mails must not stay in memory together (the caller's
		// slice lets go of them too).
		m.Raw = nil
		ms[i].Raw = nil
		ds[i].m = m
	}
	workers := min(runtime.GOMAXPROCS(0), len(ms))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				decideOne(i)
			}
		}()
	}
	for i := range ms {
		next <- i
	}
	close(next)
	wg.Wait()

	var failed error
	for i, d := range ds {
		if d.err != nil {
			ds, failed = ds[:i], d.err
			break
		}
	}
	err := g.DB.Update(ctx, func(tx *store.Tx) error {
		for _, d := range ds {
			if d.skip {
				continue
			}
			if err := g.record(ctx, tx, d.m, d.out); err != nil && !errors.Is(err, errAlreadyHandled) {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errTurnMoved) {
		// The turn runner resolved the turn while the group was being
		// decided: nothing of it was written; handle each mail again, one
		// by one, against the turn now open.
		err = nil
		for _, d := range ds {
			if d.skip {
				continue
			}
			if err = g.HandleMail(ctx, d.m); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	return failed
}

// decideRecovered is decide with a panic turned into the internal-error
// outcome, as HandleMail does.
func (g *Game) decideRecovered(ctx context.Context, m store.Mail) (out outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			g.Log.Error("panic while handling a mail; it is quarantined and its sender told", "mail", m.ID, "from", m.From,
				"panic", p, "stack", string(debug.Stack()))
			out, err = g.internalError(m, p), nil
		}
	}()
	return g.decide(ctx, m)
}
