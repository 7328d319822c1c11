package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/password"
	"github.com/syw-pbem/pbem/refcmd"
	"github.com/syw-pbem/pbem/store"
)

// The nations' passwords (refcmd/passwords.go). RESET PASSWORD gives a
// nation a new order-sheet password, in force from the open turn on; the
// nation is mailed the new one, and the referee's answer does not repeat
// it.

// MailPasswordReset is the outbox kind of the mail telling a nation that
// the referee reset its password.
const MailPasswordReset = "password-reset"

var passwordResetKind = refKind[refcmd.PasswordReset, passwordPlan]{
	decide: func(_ context.Context, r *refRun, c refcmd.PasswordReset) (passwordPlan, error) {
		p, err := r.decidePasswordReset(c.Nation, c.Password)
		if err != nil {
			return passwordPlan{}, refuse(err)
		}
		return p, nil
	},
	write: func(ctx context.Context, tx *store.Tx, r *refRun, p passwordPlan) error {
		return tx.SchedulePasswordChange(ctx, r.g.ID(), string(p.nation), p.hash, p.turn)
	},
	answer: func(r *refRun, p passwordPlan) string {
		return fmt.Sprintf("%s's password is reset from %s on; %s is told the new one", r.g.nationName(p.nation),
			r.g.labelOf(r.st, p.turn), r.g.nationName(p.nation))
	},
	tell: func(_ *refRun, p passwordPlan) []outbox.Message { return []outbox.Message{p.msg} },
	cli:  []string{"pbem password", "pbem referee"},
}

// passwordPlan is a password reset decided: the new hash, in force from
// turn on, and the mail telling the nation.
type passwordPlan struct {
	nation game.NationID
	hash   string
	turn   int
	msg    outbox.Message
}

// decidePasswordReset works out a password reset for nation n.
func (r *refRun) decidePasswordReset(n game.NationID, pw string) (passwordPlan, error) {
	g := r.g
	to := g.registered(n)
	if to == "" {
		return passwordPlan{}, fmt.Errorf("%s is not a nation of this game with an address", n)
	}
	if len([]rune(password.Normalize(pw))) < 4 {
		return passwordPlan{}, errors.New("the new password is shorter than 4 characters")
	}
	h, err := password.Hash(pw)
	if err != nil {
		return passwordPlan{}, err
	}
	turn := r.st.Turn
	text := fmt.Sprintf("The referee has reset %s's order-sheet password.\n\nFrom %s on, write on your sheets:\n\n  PASSWORD %s\n\n"+
		"The old password no longer works. You can choose your own with a PASSWORD CHANGE line on a sheet.\n",
		g.nationName(n), r.g.labelOf(r.st, turn), pw)
	msg := g.message(MailPasswordReset, string(n), turn, r.key, []string{to},
		fmt.Sprintf("[%s] %s: your password was reset by the referee", g.ID(), g.nationName(n)), text, r.date)
	return passwordPlan{nation: n, hash: h, turn: turn, msg: msg}, nil
}
