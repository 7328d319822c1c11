package outbox

import (
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/syw-pbem/pbem/internal/english"
	"github.com/syw-pbem/pbem/store"
)

// failureReport composes the message that tells the referee m failed: the
// recipients, the server's reply, the subject and the Message-ID — never the
// body, which may hold another nation's secrets and which the referee can
// read in the store. ok is false when nobody is to be told: no referee is
// set, or m is itself a failure report (no report about a report, so
// failures cannot loop).
func (o *Outbox) failureReport(m store.OutboxMessage, e *Error, attempts int, now time.Time) (store.OutboxMessage, bool) {
	log := o.log.With("outbox_id", m.ID, "message_id", m.MessageID)
	if o.opts.Referee == "" {
		log.Error("outbox: no referee address is set, so nobody is told this message failed")
		return store.OutboxMessage{}, false
	}
	if m.Kind == KindDeliveryFailure {
		log.Error("outbox: a failure report to the referee could not be delivered; not reporting it again")
		return store.OutboxMessage{}, false
	}
	from := o.opts.ReportFrom
	subject := "(unknown)"
	if addr, h, err := envelopeFrom(m.Raw); err == nil {
		if from.Address == "" {
			from = *addr
		}
		if s, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject")); err == nil {
			subject = s
		} else {
			subject = h.Get("Subject")
		}
	} else if h != nil {
		subject = h.Get("Subject")
	}
	if from.Address == "" {
		log.Error("outbox: no sender for the failure report (set the report sender or fix the message's From)")
		return store.OutboxMessage{}, false
	}

	rcpts := strings.Join(m.Recipients, ", ")
	var b strings.Builder
	fmt.Fprintf(&b, "pbem could not deliver a message and has stopped trying.\n\n")
	fmt.Fprintf(&b, "To:          %s\n", rcpts)
	fmt.Fprintf(&b, "Subject:     %s\n", subject)
	fmt.Fprintf(&b, "Message-ID:  %s\n", m.MessageID)
	if m.GameID != "" {
		fmt.Fprintf(&b, "Game:        %s\n", m.GameID)
	}
	fmt.Fprintf(&b, "Kind:        %s\n", m.Kind)
	fmt.Fprintf(&b, "Queued:      %s\n", m.CreatedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "Attempts:    %d, the last at %s\n", attempts, now.UTC().Format(time.RFC3339))
	if e.Code != 0 {
		reply := fmt.Sprint(e.Code)
		if e.Enhanced != "" {
			reply += " " + e.Enhanced
		}
		if e.Reply != "" {
			reply += " " + e.Reply
		}
		fmt.Fprintf(&b, "Server said: %s\n", reply)
	}
	fmt.Fprintf(&b, "\nWhat happened:\n%s.\n", wrap(e.Error(), 72))
	if e.Temporary {
		n := english.Count(attempts, "attempt")
		fmt.Fprintf(&b, "\n%s\n", wrap("The failure looked temporary, but pbem has made "+n+
			", the most allowed (mail.smtp.max_attempts), and given up.", 72))
	} else {
		b.WriteString("\nThe server refused the message for good; pbem did not try again.\n")
	}
	fmt.Fprintf(&b, "\n%s\n", wrap(fmt.Sprintf("The message is kept in the outbox (row %d) with the same bytes and "+
		"Message-ID. Once the cause is fixed (a wrong or old address, a full mailbox, the mail server's settings), "+
		"queue it again — mail the word REQUEUE to the game's address from the referee's, or run \"pbem requeue\" — "+
		"and it is sent unchanged.", m.ID), 72))

	msg := Message{
		Game:     m.GameID,
		Turn:     -1,
		Kind:     KindDeliveryFailure,
		Priority: PriorityNotice,
		Key:      m.MessageID + " " + now.UTC().Format(time.RFC3339Nano),
		From:     from,
		To:       []mail.Address{{Address: o.opts.Referee}},
		Subject:  "[pbem] Undelivered mail to " + rcpts + ": " + subject,
		Date:     now,
		Text:     b.String(),
	}
	row, err := Row(msg)
	if err != nil {
		log.Error("outbox: cannot compose the failure report to the referee", "referee", o.opts.Referee, "error", err)
		return store.OutboxMessage{}, false
	}
	return row, true
}

// wrap breaks text into lines of at most width characters at spaces (a
// longer word stays whole on its own line).
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		l := utf8.RuneCountInString(w)
		switch {
		case n == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
