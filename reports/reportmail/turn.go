package reportmail

import (
	"errors"
	"fmt"
	"net/mail"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/ruleset"
)

// Recipient is a nation and the addresses its reports go to.
type Recipient struct {
	Nation    game.NationID
	Addresses []mail.Address
}

// TurnInput is everything the mails of one resolved turn (or of the
// opening, with no events) are built from.
type TurnInput struct {
	Map   *hexmap.Map
	Rules *ruleset.Ruleset
	// State is the game after the turn; Events and Rolls the turn's (none
	// for the opening: the starting reports).
	State  *engine.State
	Events []engine.Event
	Rolls  []engine.Roll
	// Rulings and Sheets feed the reports as in reports.Input and
	// reports.RefereeInput.
	Rulings []reports.Ruling
	Sheets  []reports.SheetReceipt
	// Previous returns a nation's report of the turn before (nil: none),
	// for last-seen intelligence.
	Previous func(game.NationID) *reports.Model
	GameName string
	Deadline time.Time
	Zone     *time.Location
	// Nations are the recipients, in the order their mails are built; a
	// nation of the game missing here gets no mail. Referee receives the
	// master report and the notice of cut reports (none: neither is built).
	Nations []Recipient
	Referee []mail.Address
	// Mail are the From, Date, Tag, SizeLimit and PDF options; its To is
	// ignored.
	Mail Options
}

// TurnOutput is a turn's mail: the messages in order (each nation's, then
// the referee's report, then the notice of cuts if any), and each nation's
// model, to be kept as the next turn's Previous.
type TurnOutput struct {
	Messages []outbox.Message
	Models   []*reports.Model
	Cuts     []Cut
}

// TurnMails builds every mail of a resolved turn, or of the opening (no
// events: each nation's starting report and the referee's opening report).
// It is what the turn runner passes to outbox.Row and store.CommitTurn.
func TurnMails(in TurnInput) (*TurnOutput, error) {
	if in.Map == nil || in.Rules == nil || in.State == nil {
		return nil, errors.New("turn mails: the map, the ruleset and the state are required")
	}
	out := &TurnOutput{}
	for _, r := range in.Nations {
		var prev *reports.Model
		if in.Previous != nil {
			prev = in.Previous(r.Nation)
		}
		md, err := reports.Build(reports.Input{Map: in.Map, Rules: in.Rules, State: in.State, Events: in.Events,
			Nation: r.Nation, GameName: in.GameName, Deadline: in.Deadline, Zone: in.Zone, Rulings: in.Rulings, Previous: prev})
		if err != nil {
			return nil, err
		}
		o := in.Mail
		o.To = r.Addresses
		msg, cut, err := NationMail(md, in.Map, o)
		if err != nil {
			return nil, fmt.Errorf("the report of %s: %w", r.Nation, err)
		}
		out.Messages = append(out.Messages, msg)
		out.Models = append(out.Models, md)
		if cut != nil {
			out.Cuts = append(out.Cuts, *cut)
		}
	}
	if len(in.Referee) == 0 {
		return out, nil
	}
	ref, err := reports.BuildReferee(reports.RefereeInput{Map: in.Map, Rules: in.Rules, State: in.State, Events: in.Events,
		Rolls: in.Rolls, Rulings: in.Rulings, Sheets: in.Sheets, GameName: in.GameName, Deadline: in.Deadline, Zone: in.Zone})
	if err != nil {
		return nil, err
	}
	o := in.Mail
	o.To = in.Referee
	msg, err := RefereeMail(ref, in.Map, o)
	if err != nil {
		return nil, err
	}
	out.Messages = append(out.Messages, msg)
	turn := max(in.State.Turn-1, 0)
	if len(in.Events) == 0 {
		turn = 0
	}
	if notice, ok := CutNotice(in.State.Game, turn, out.Cuts, o); ok {
		out.Messages = append(out.Messages, notice)
	}
	return out, nil
}
