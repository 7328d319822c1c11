package daemon

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/store"
)

// MailReminder is the outbox kind of the reminder sent before a deadline.
const MailReminder = "reminder"

// minReminderLead is the least time before the deadline a reminder is
// still worth sending: closer to it, a player can do nothing with it.
const minReminderLead = 10 * time.Minute

// remind sends the reminders of the turn now open, if it is time: at
// game.reminder_hours before the stored deadline, to each nation (not
// eliminated, with a registered address) that has no sheet in force. A
// reminder is keyed by the deadline, so it is queued once per nation and
// deadline however often remind runs (a deadline moved later gets a
// reminder of its own). It is dated, and takes its place in the queue, when
// it is queued — never backdated to its nominal time: one whose time passed
// while pbem was stopped, or because the deadline was set closer than
// reminder_hours, says how long is left ("due in 2 hours 55 minutes"), and
// none goes out when less than minReminderLead is left. It returns when the
// reminders fall due if that is later (zero: nothing to wait for).
func (g *Game) remind(ctx context.Context) (time.Time, error) {
	hours := g.Config.Game.ReminderHours
	if hours <= 0 {
		return time.Time{}, nil
	}
	st, _, err := g.current(ctx)
	if err != nil || g.gameOver(st) != nil {
		return time.Time{}, err // gameover.go: no reminders after the victory
	}
	deadline, err := g.turnDeadline(ctx, st.Turn)
	if err != nil || deadline.IsZero() {
		return time.Time{}, err
	}
	if _, closed, err := g.earlyClose(ctx, g.DB, st.Turn); err != nil || closed {
		return time.Time{}, err // closing.go: the orders closed early; nothing to remind of
	}
	at := deadline.Add(-time.Duration(hours) * time.Hour)
	now := g.Now()
	if now.Before(at) {
		return at, nil
	}
	left := deadline.Sub(now)
	if left < minReminderLead {
		return time.Time{}, nil
	}
	key := "deadline-" + strconv.FormatInt(deadline.Unix(), 10)
	if ok, err := g.DB.Reminded(ctx, g.ID(), st.Turn, deadline); err != nil || ok {
		return time.Time{}, err // queued already (a later look, or before a restart)
	}
	subs, err := g.DB.SubmissionsInForce(ctx, g.ID(), st.Turn, KindOrders)
	if err != nil {
		return time.Time{}, err
	}
	has := map[string]bool{}
	for _, s := range subs {
		has[s.Nation] = true
	}
	// Late when its nominal time passed more than a poll ago: say how long
	// is left rather than "in 24 hours".
	late := now.Sub(at) > turnLookEvery
	due := deadline.In(g.Zone).Format("Mon 2 Jan, 15:04 MST")
	if late {
		due = "in " + leftText(left) + " (" + due + ")"
	}
	var msgs []outbox.Message
	for _, ns := range st.Nations {
		id := string(ns.ID)
		to := g.registered(ns.ID)
		if ns.Eliminated || has[id] || to == "" {
			continue
		}
		msg := g.message(MailReminder, id, st.Turn, key, []string{to}, "", "", now)
		label := g.labelOf(st, st.Turn)
		when := g.showTime(deadline)
		if late {
			when = fmt.Sprintf("%s, in %s", when, leftText(left))
		}
		msg.Subject = fmt.Sprintf("[%s] Reminder: orders for %s are due %s", g.ID(), label, due)
		msg.Text = fmt.Sprintf("No orders from %s for %s have arrived yet.\n\n"+
			"The deadline is %s (%s).\n\n"+
			"Send your order sheet to %s before then, with the header\n\n"+
			"  GAME %s\n  NATION %s\n  PASSWORD ...\n  TURN %d\n\n"+
			"A nation without orders at the deadline holds in place: every land force on DEFEND.\n"+
			"The attached deadline.ics puts the deadline in your calendar.\n",
			g.nationName(ns.ID), label, when, g.Zone, g.Config.Mail.Address, g.ID(), id, st.Turn)
		msg.Attachments = []outbox.Attachment{{Filename: "deadline.ics", ContentType: "text/calendar",
			Data: g.deadlineICS(ns.ID, label, st.Turn, deadline, now)}}
		msgs = append(msgs, msg)
	}
	return time.Time{}, g.DB.Update(ctx, func(tx *store.Tx) error {
		for _, m := range msgs {
			if err := g.enqueue(ctx, tx, m); err != nil {
				return err
			}
		}
		return tx.MarkReminded(ctx, g.ID(), st.Turn, deadline, now)
	})
}

// leftText prints the time left before a deadline: "2 days 3 hours", "2
// hours 55 minutes", "40 minutes".
func leftText(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	unit := func(n int, s string) string {
		if n == 1 {
			return "1 " + s
		}
		return strconv.Itoa(n) + " " + s + "s"
	}
	switch {
	case days > 0:
		return unit(days, "day") + " " + unit(hours, "hour")
	case hours > 0:
		return unit(hours, "hour") + " " + unit(mins, "minute")
	}
	return unit(mins, "minute")
}

// deadlineICS is an iCalendar file (RFC 5545) holding the deadline as a
// 30-minute event with an alarm an hour before. stamp dates it, so the same
// reminder gives the same bytes.
func (g *Game) deadlineICS(n game.NationID, label string, turn int, deadline, stamp time.Time) []byte {
	const utc = "20060102T150405Z"
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//pbem//SYW Big Game Campaign//EN",
		"METHOD:PUBLISH",
		"BEGIN:VEVENT",
		fmt.Sprintf("UID:%s-t%d-%s-deadline@%s", g.ID(), turn, n, icsText(mailDomain(g.Config.Mail.Address))),
		"DTSTAMP:" + stamp.UTC().Format(utc),
		"DTSTART:" + deadline.UTC().Format(utc),
		"DTEND:" + deadline.Add(30*time.Minute).UTC().Format(utc),
		"SUMMARY:" + icsText(fmt.Sprintf("%s: orders for %s due (%s)", g.Config.Game.Name, label, g.nationName(n))),
		"DESCRIPTION:" + icsText(fmt.Sprintf("Send the order sheet (TURN %d) to %s.", turn, g.Config.Mail.Address)),
		"BEGIN:VALARM",
		"ACTION:DISPLAY",
		"DESCRIPTION:" + icsText("Orders due in an hour"),
		"TRIGGER:-PT1H",
		"END:VALARM",
		"END:VEVENT",
		"END:VCALENDAR",
	}
	return []byte(strings.Join(lines, "\r\n") + "\r\n")
}

// icsText escapes a TEXT value of iCalendar.
func icsText(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`).Replace(s)
}

// mailDomain is the domain of an address.
func mailDomain(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return addr
}
