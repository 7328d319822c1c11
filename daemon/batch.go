package daemon

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"github.com/syw-pbem/pbem/store"
)

// HandleMails is HandleMail for several stored mails, in arrival order,
// recording the outcomes of consecutive mails in one transaction (one fsync
// instead of one a mail, the most a burst costs). Mails are grouped only
// while their senders differ and none is the referee's: each mail is decided
// on what is committed, so a mail whose decision could depend on one before
// it in the same group (a sender's second sheet, a ruling on a request just
// made) starts a new group. A crash leaves a whole group uncommitted, to be
// handled again with the same answers, as for one mail. On an error the
// groups before the failing mail are committed and the error returned.
func (g *Game) HandleMails(ctx context.Context, ms []store.Mail) error {
	type decided struct {
		m   store.Mail
		out outcome
	}
	var group []decided
	senders := map[string]bool{}
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		err := g.DB.Update(ctx, func(tx *store.Tx) error {
			for _, d := range group {
				if err := g.record(ctx, tx, d.m, d.out); err != nil && !errors.Is(err, errAlreadyHandled) {
					return err
				}
			}
			return nil
		})
		if errors.Is(err, errTurnMoved) {
			// The turn runner resolved the turn while the group was being
			// decided: nothing of it was written; handle each mail again,
			// one by one, against the turn now open.
			err = nil
			for _, d := range group {
				if err = g.HandleMail(ctx, d.m); err != nil {
					break
				}
			}
		}
		group, senders = group[:0], map[string]bool{}
		return err
	}
	for _, m := range ms {
		from := strings.ToLower(strings.TrimSpace(m.From))
		barrier := from == "" || strings.EqualFold(from, g.Config.Game.Referee)
		if senders[from] || barrier || len(group) >= 16 {
			if err := flush(); err != nil {
				return err
			}
		}
		cur, err := g.DB.MailHead(ctx, m.ID)
		if err != nil {
			return err
		}
		if cur.Status != store.MailStored {
			continue
		}
		if raw := m.Raw; len(raw) > 0 {
			m = cur
			m.Raw = raw
		} else if m, err = g.DB.Mail(ctx, m.ID); err != nil {
			return err
		}
		out, err := g.decideRecovered(ctx, m)
		if err != nil {
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return err
		}
		group = append(group, decided{m, out})
		senders[from] = true
		if barrier {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
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
