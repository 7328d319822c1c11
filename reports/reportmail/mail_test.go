package reportmail_test

import (
	"bytes"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/outbox"
	"github.com/syw-pbem/pbem/reports"
	"github.com/syw-pbem/pbem/reports/reportmail"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

func models(t *testing.T) (*scenario.Scenario, []*reports.Model, *reports.RefereeModel) {
	t.Helper()
	sc, err := scenario.Load("../../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
	if err != nil {
		t.Fatal(err)
	}
	start, err := reports.Build(reports.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Nation: "eisenmark"})
	if err != nil {
		t.Fatal(err)
	}
	out := []*reports.Model{start}
	var last []engine.Event
	for st.Turn < 3 {
		res, err := engine.Resolve(engine.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, last = res.State, res.Events
		md, err := reports.Build(reports.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Events: res.Events, Nation: "eisenmark", Previous: out[len(out)-1]})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, md)
	}
	ref, err := reports.BuildReferee(reports.RefereeInput{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Events: last})
	if err != nil {
		t.Fatal(err)
	}
	return sc, out, ref
}

func opts() reportmail.Options {
	return reportmail.Options{
		From: mail.Address{Name: "SYW referee", Address: "orders@pbem.localhost"},
		To:   []mail.Address{{Address: "eisenmark@pbem.localhost"}},
		Date: time.Date(2026, 5, 3, 18, 0, 0, 0, time.UTC),
	}
}

// TestNationMail: the report mail has a sortable subject, a body useful
// without a PDF viewer, the PDF and the JSON attached, and composes to the
// same bytes twice.
func TestNationMail(t *testing.T) {
	sc, ms, _ := models(t)
	var subjects []string
	for _, md := range ms {
		msg, cut, err := reportmail.NationMail(md, sc.Map, opts())
		if err != nil {
			t.Fatal(err)
		}
		if cut != nil {
			t.Errorf("%s: cut under the default limit: %+v", md.TurnLabel, cut)
		}
		subjects = append(subjects, msg.Subject)
		if !strings.Contains(msg.Text, "Your forces") || !strings.Contains(msg.Text, "NATION eisenmark") {
			t.Errorf("%s: the body lacks the forces or the template:\n%s", md.TurnLabel, msg.Text)
		}
		if len(msg.Attachments) != 2 || msg.Attachments[0].ContentType != "application/pdf" || msg.Attachments[1].ContentType != "application/json" {
			t.Fatalf("%s: attachments %v", md.TurnLabel, msg.Attachments)
		}
		a, err := outbox.Compose(msg)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := outbox.Compose(msg)
		if !bytes.Equal(a, b) {
			t.Error("the report mail composes to different bytes twice")
		}
	}
	want := []string{
		"[syw] T000 1752 April — Eisenmark starting report",
		"[syw] T001 1752 April — Eisenmark turn report",
		"[syw] T002 1752 May — Eisenmark turn report",
	}
	if !slices.Equal(subjects, want) {
		t.Errorf("subjects %q, want %q", subjects, want)
	}
	if !slices.IsSorted(subjects) {
		t.Errorf("subjects do not sort in turn order: %q", subjects)
	}
}

// TestSizeLimitCuts: a report over the limit loses the zoomed map, then the
// PDF, says so in its body, and the referee's notice lists what was cut.
func TestSizeLimitCuts(t *testing.T) {
	sc, ms, ref := models(t)
	o := opts()
	o.SizeLimit = 100 << 10
	msg, cut, err := reportmail.NationMail(ms[1], sc.Map, o)
	if err != nil {
		t.Fatal(err)
	}
	if cut == nil || len(cut.Dropped) != 2 {
		t.Fatalf("cut = %+v, want the zoomed map and the PDF dropped", cut)
	}
	if len(msg.Attachments) != 1 || msg.Attachments[0].ContentType != "application/json" {
		t.Errorf("attachments after the cut: %d", len(msg.Attachments))
	}
	if !strings.HasPrefix(msg.Text, "Note: this report was too large") {
		t.Errorf("the body does not say what was cut:\n%.200s", msg.Text)
	}
	notice, ok := reportmail.CutNotice("syw", 1, []reportmail.Cut{*cut}, o)
	if !ok || !strings.Contains(notice.Text, "eisenmark") || !strings.Contains(notice.Text, "the PDF") ||
		notice.Subject != "[syw] T001 — 1 report cut to fit the mail size limit" {
		t.Errorf("notice: %q\n%s", notice.Subject, notice.Text)
	}
	if _, ok := reportmail.CutNotice("syw", 1, nil, o); ok {
		t.Error("a notice with no cuts")
	}
	rm, err := reportmail.RefereeMail(ref, sc.Map, o)
	if err != nil {
		t.Fatal(err)
	}
	if rm.Subject != "[syw] T002 1752 May — referee's master report" || len(rm.Attachments) != 2 {
		t.Errorf("referee mail: %q, %d attachments", rm.Subject, len(rm.Attachments))
	}
	if _, err := outbox.Row(rm); err != nil {
		t.Error(err)
	}
}

// TestTurnMails: the opening gives every nation its starting report and the
// referee the opening report; a resolved turn gives every nation its turn
// report, carrying the models forward; every message composes, with a
// distinct Message-ID.
func TestTurnMails(t *testing.T) {
	sc, err := scenario.Load("../../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sc.InitialState("syw", ruleset.SYW1752().ID)
	if err != nil {
		t.Fatal(err)
	}
	var rcpts []reportmail.Recipient
	for _, n := range st.Nations {
		rcpts = append(rcpts, reportmail.Recipient{Nation: n.ID, Addresses: []mail.Address{{Address: string(n.ID) + "@pbem.localhost"}}})
	}
	in := reportmail.TurnInput{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Nations: rcpts,
		Referee: []mail.Address{{Address: "referee@pbem.localhost"}}, Mail: opts()}
	open, err := reportmail.TurnMails(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(open.Messages) != len(rcpts)+1 || open.Messages[0].Kind != reportmail.KindStartReport ||
		open.Messages[len(rcpts)].Kind != reportmail.KindRefereeReport {
		t.Fatalf("opening: %d messages", len(open.Messages))
	}
	prev := map[string]*reports.Model{}
	for _, md := range open.Models {
		prev[string(md.Nation)] = md
	}
	res, err := engine.Resolve(engine.Input{Map: sc.Map, Rules: ruleset.SYW1752(), State: st, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	in.State, in.Events, in.Rolls = res.State, res.Events, res.Rolls
	in.Previous = func(n game.NationID) *reports.Model { return prev[string(n)] }
	turn, err := reportmail.TurnMails(in)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, out := range []*reportmail.TurnOutput{open, turn} {
		for _, m := range out.Messages {
			row, err := outbox.Row(m)
			if err != nil {
				t.Fatal(err)
			}
			if ids[row.MessageID] {
				t.Errorf("Message-ID %s twice", row.MessageID)
			}
			ids[row.MessageID] = true
		}
	}
	if turn.Messages[0].Kind != reportmail.KindReport || turn.Messages[0].Subject != "[syw] T001 1752 April — Eisenmark turn report" {
		t.Errorf("turn 1: %s %q", turn.Messages[0].Kind, turn.Messages[0].Subject)
	}
}
