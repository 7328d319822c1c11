package daemon

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

func sheetOf(nation, pw, body string) string { return sheetFor(nation, pw, "1", body) }

func sheetFor(nation, pw, turn, body string) string {
	return "GAME syw\nNATION " + nation + "\nPASSWORD " + pw + "\nTURN " + turn + "\n" + body + "\nEND\n"
}

// resolveTurn stands in for the turn runner: the turn now open is resolved
// with no orders, the treaty ledger going into the state and the resolved
// treaties back into the ledger, and the treaties that became public are
// published by mail.
func resolveTurn(t *testing.T, h *harness) *engine.Result {
	t.Helper()
	ctx := context.Background()
	g := h.d.Game
	st, err := g.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.TreatiesInto(ctx, st); err != nil {
		t.Fatal(err)
	}
	res, err := engine.Resolve(engine.Input{Map: g.Map, Rules: g.Rules, State: st, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(res.State)
	err = g.DB.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.CommitTurn(ctx, store.TurnRecord{GameID: g.ID(), Turn: st.Turn, Status: store.TurnResolved,
			State: js, ResolvedAt: time.Now()}, nil, nil); err != nil {
			return err
		}
		return g.SaveTreaties(ctx, tx, res.State.Treaties)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PublishTreaties(ctx); err != nil {
		t.Fatal(err)
	}
	h.d.Outbox.Wake()
	return res
}

// TestTreatyByMail: a treaty sent on Eisenmark's sheet gets its ID in the
// acknowledgment; Morgronskia is mailed its text, its ID and how to attest;
// Morgronskia's ATTEST makes it public and both are told when it will be
// published; at the start of the next turn every nation is mailed it; the
// referee's BREACH starts the penalty, both parties told; the aggrieved
// party's LIFT on its sheet ends it (the offender's own is refused), and
// a LIFT by the referee after that finds nothing to end.
func TestTreatyByMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	const eis, eisPW = "eisenmark@pbem.localhost", "pw-eisenmark"
	const mor, morPW = "morgronskia@pbem.localhost", "pw-morgronskia"

	id := h.send(eis, "orders", sheetOf("eisenmark", "demo-eisenmark",
		"TREATY \"Peace of Stettau\" PARTIES eisenmark, morgronskia TEXT\nNeither party shall enter the other's home provinces.\nENDTREATY"))
	ack, _ := h.waitFor(eis, eisPW, replyTo(id))
	if !strings.Contains(body(ack), "is recorded with the ID T1") || !strings.Contains(body(ack), "ATTEST T1") {
		t.Fatalf("the sender's acknowledgment does not give the treaty's ID:\n%s", body(ack))
	}
	offer, _ := h.waitFor(mor, morPW, func(m string) bool { return strings.Contains(header(m, "Subject"), "Treaty T1 proposed by Eisenmark") })
	if offer == "" {
		t.Fatal("Morgronskia was not sent the treaty")
	}
	for _, want := range []string{"Neither party shall enter the other's home provinces.", "ATTEST T1", "Peace of Stettau"} {
		if !strings.Contains(body(offer), want) {
			t.Errorf("the treaty mail to Morgronskia lacks %q:\n%s", want, body(offer))
		}
	}

	id = h.send(mor, "attest", sheetOf("morgronskia", "demo-morgronskia", "ATTEST T1"))
	ack, _ = h.waitFor(mor, morPW, replyTo(id))
	if !strings.Contains(body(ack), "every party has attested it, and it is published to every nation at the start of May 1752") {
		t.Fatalf("the attesting party's acknowledgment:\n%s", body(ack))
	}
	for _, who := range [][2]string{{eis, eisPW}, {mor, morPW}} {
		if m, _ := h.waitFor(who[0], who[1], func(m string) bool { return strings.Contains(header(m, "Subject"), "Treaty T1 is public") }); m == "" {
			t.Errorf("%s was not told that T1 is public", who[0])
		}
	}
	ts, err := h.d.Game.Treaties(context.Background())
	if err != nil || len(ts) != 1 || ts[0].Ratified != 1 || ts[0].Published != 0 {
		t.Fatalf("ledger %+v, %v: want T1 ratified in turn 1, not published yet", ts, err)
	}

	// The turn is resolved: T1 is published to every nation.
	res := resolveTurn(t, h)
	published := false
	for _, e := range engine.EventsFor(res.Events, "hispardia") {
		if p, ok := e.(*engine.TreatyPublished); ok && p.Treaty == "T1" {
			published = true
		}
	}
	if !published {
		t.Error("the turn's events do not publish T1 to Hispardia")
	}
	for _, who := range [][2]string{{eis, eisPW}, {mor, morPW}} {
		m, _ := h.waitFor(who[0], who[1], func(m string) bool { return strings.Contains(header(m, "Subject"), "Public treaty T1") })
		if !strings.Contains(body(m), "Neither party shall enter") || !strings.Contains(body(m), "May 1752") {
			t.Errorf("%s: the publication:\n%s", who[0], body(m))
		}
	}
	v := engine.View(h.d.Game.Map, h.d.Game.Rules, res.State, "hispardia")
	if len(v.Treaties) != 1 || v.Treaties[0].Published != 2 {
		t.Errorf("Hispardia's view of the treaties: %+v", v.Treaties)
	}

	// The referee finds Eisenmark in breach; later Morgronskia ends the penalty.
	h.send("referee@pbem.localhost", "breach", "PASSWORD "+refereePassword+"\nBREACH T1 eisenmark AGAINST morgronskia\n")
	for _, who := range [][2]string{{eis, eisPW}, {mor, morPW}} {
		if m, _ := h.waitFor(who[0], who[1], func(m string) bool { return strings.Contains(header(m, "Subject"), "Eisenmark found in breach") }); !strings.Contains(body(m), "200 crowns at each year-end") {
			t.Errorf("%s was not told of the breach:\n%s", who[0], body(m))
		}
	}
	h.settle()
	ts, _ = h.d.Game.Treaties(context.Background())
	if len(ts[0].Penalties) != 1 || ts[0].Penalties[0].Ended != 0 {
		t.Fatalf("penalties after the breach: %+v", ts[0].Penalties)
	}
	// The offender cannot end his own penalty; the aggrieved party can, on
	// its sheet (named by the turn's name).
	id = h.send(eis, "lift", sheetFor("eisenmark", "demo-eisenmark", "May 1752", "LIFT T1 eisenmark"))
	if ack, _ := h.waitFor(eis, eisPW, replyTo(id)); !strings.Contains(body(ack), "pays no penalty to Eisenmark under T1") {
		t.Errorf("the offender's LIFT was not refused:\n%s", body(ack))
	}
	id = h.send(mor, "lift", sheetFor("morgronskia", "demo-morgronskia", "1752 May", "LIFT T1 eisenmark"))
	if ack, _ := h.waitFor(mor, morPW, replyTo(id)); !strings.Contains(strings.Join(strings.Fields(body(ack)), " "), "The penalty of Eisenmark under T1 is ended") {
		t.Errorf("the aggrieved party's LIFT:\n%s", body(ack))
	}
	if m, _ := h.waitFor(eis, eisPW, func(m string) bool {
		return strings.Contains(header(m, "Subject"), "the penalty of Eisenmark is ended")
	}); m == "" {
		t.Error("Eisenmark was not told its penalty ended")
	}
	h.settle()
	ts, _ = h.d.Game.Treaties(context.Background())
	if p := ts[0].Penalties[0]; p.Offender != game.NationID("eisenmark") || p.Ended == 0 {
		t.Fatalf("penalty after the lift: %+v", p)
	}
	// A second LIFT is refused: nothing runs any more.
	h.send("referee@pbem.localhost", "lift", "PASSWORD "+refereePassword+"\nLIFT T1 eisenmark AGAINST morgronskia\n")
	if m, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(body(m), "LIFT T1") && strings.Contains(body(m), "REFUSED")
	}); m == "" {
		t.Error("a second LIFT was not refused")
	}
}
