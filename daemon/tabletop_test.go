package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
)

// tableGame starts a game fought on the table whose starting position has
// one land battle: an army marched onto another nation's, attacking. It
// returns the hex and the two sides' forces.
func tableGame(t *testing.T, table bool) (*harness, game.Hex, *game.Force, *game.Force) {
	h := newHarness(t, func(s string) string {
		if !table {
			return s
		}
		return strings.Replace(s, "timezone: Europe/London", "timezone: Europe/London\n  battles: table", 1)
	})
	g := h.d.Game
	ctx := context.Background()
	rec, _ := g.DB.LatestTurn(ctx, "syw")
	st, _ := g.decoded(rec)
	var a, b *game.Force
	for i := range st.Forces {
		f := &st.Forces[i]
		if f.IsFleet() || f.Aboard != "" || f.At.Hex == (game.Hex{}) || !f.HasRole(game.General) || f.FightingFigures() < 40 {
			continue
		}
		switch {
		case a == nil:
			a = f
		case b == nil && f.Nation != a.Nation:
			b = f
		}
	}
	if a == nil || b == nil {
		t.Skip("no two armies of different nations")
	}
	// Both armies stand in the field, in a hex next to b's with no city: a
	// garrison within its walls would stay behind them (no field battle).
	for _, nb := range g.Map.Neighbors(b.At.Hex) {
		if _, city := g.Map.CityAt(nb); !city && g.Map.TerrainAt(nb) != game.Mountain && g.Map.TerrainAt(nb) != game.Sea {
			b.At = game.AtHex(nb)
			break
		}
	}
	a.At, a.Stance = b.At, game.Attack
	js, _ := json.Marshal(st)
	if _, err := g.DB.SaveTurn(ctx, store.TurnRecord{GameID: "syw", Turn: 0, Status: store.TurnInitial, State: js, ResolvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// The attacker's nation orders the attack (without orders it would hold on DEFEND).
	id := h.send(string(a.Nation)+"@pbem.localhost", "orders", fmt.Sprintf("GAME syw\nNATION %s\nPASSWORD demo-%s\nTURN 1\nSTANCE %s ATTACK\nEND\n",
		a.Nation, a.Nation, a.ID))
	if ack, _ := h.waitFor(string(a.Nation)+"@pbem.localhost", "pw-"+string(a.Nation), replyTo(id)); !strings.Contains(header(ack, "Subject"), "orders received") {
		t.Fatalf("the attack's sheet: %s\n%s", header(ack, "Subject"), body(ack))
	}
	return h, b.At.Hex, a, b
}

// TestTabletopBattleByMail: with battles: table a due turn stops at its
// battle and mails the referee its sheet (units formed, commanders); a
// result with mistakes is answered line by line and recorded not; a good
// one lets the turn resolve with it (the LandBattle fought "tabletop").
func TestTabletopBattleByMail(t *testing.T) {
	t.Parallel()
	h, hex, a, b := tableGame(t, true)
	g := h.d.Game
	ctx := context.Background()
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	sheet, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "battle at "+hex.String()+" to fight on the table")
	})
	if !strings.Contains(body(sheet), "unit "+string(a.ID)+".1") || !strings.Contains(body(sheet), "RESULT "+hex.String()) ||
		!strings.Contains(body(sheet), "experience") {
		t.Fatalf("the battle sheet:\n%s", body(sheet))
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn != 0 {
		t.Fatal("the turn was resolved before its tabletop battle's result came")
	}
	// pbem status shows the battle waiting for its result.
	if s, err := g.Status(ctx); err != nil || !strings.Contains(s.Text(time.Now()), hex.String()+" ") ||
		!strings.Contains(s.Text(time.Now()), "PENDING: answer with its RESULT") {
		t.Errorf("status while the battle waits (%v):\n%s", err, s.Text(time.Now()))
	}
	bad := fmt.Sprintf("RESULT %s\nOUTCOME smashing\nWINNER %s\nLOSSES %s infantry Q KILLED 2\nEND\n", hex, a.Nation, b.ID)
	cmd := h.send("referee@pbem.localhost", "result", "PASSWORD "+refereePassword+"\n"+bad)
	ans, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "line 3:") || !strings.Contains(body(ans), "expected OUTCOME decisive") ||
		!strings.Contains(body(ans), "line 5:") || !strings.Contains(body(ans), "Nothing was recorded") {
		t.Fatalf("the answer to a result with mistakes:\n%s", body(ans))
	}
	good := fmt.Sprintf("RESULT %s\nOUTCOME decisive\nWINNER %s\nLOSSES %s %s %s KILLED 2 ROUTED 1\nHITS %s %s %s 3\nEND\n",
		hex, a.Nation, b.ID, b.Troops[0].Arm, b.Troops[0].Grade, a.Nation, a.Troops[0].Arm, a.Troops[0].Grade)
	cmd = h.send("referee@pbem.localhost", "result", "PASSWORD "+refereePassword+"\n"+good)
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "is recorded (decisive)") {
		t.Fatalf("the answer to a good result:\n%s\n%s", good, body(ans))
	}
	deadline := time.Now().Add(waitLimit)
	for {
		if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn == 1 {
			if !strings.Contains(string(rec.EventLog), `"Model":"tabletop"`) {
				t.Error("the turn's battle was not fought with the referee's result")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the turn was not resolved after the battle's result")
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// TestTabletopBattleUnanswered: a battle left unanswered past
// battle_wait_hours is fought by the model after the referee is told.
func TestTabletopBattleUnanswered(t *testing.T) {
	t.Parallel()
	h, hex, _, _ := tableGame(t, true)
	g := h.d.Game
	ctx := context.Background()
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	if s, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "to fight on the table")
	}); s == "" {
		t.Fatal("no battle sheet")
	}
	h.settle()
	past := time.Now().Add(-49 * time.Hour)
	if err := g.DB.Update(ctx, func(tx *store.Tx) error { return tx.MarkBattleSheetSent(ctx, "syw", 1, hex.String(), past) }); err != nil {
		t.Fatal(err)
	}
	g.WakeTurns()
	told, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "is fought by the model")
	})
	if !strings.Contains(body(told), "within 48 hours") {
		t.Fatalf("the referee's notice:\n%s", body(told))
	}
	deadline := time.Now().Add(waitLimit)
	for {
		if rec, _ := g.DB.LatestTurn(ctx, "syw"); rec.Turn == 1 {
			if strings.Contains(string(rec.EventLog), `"Model":"tabletop"`) || !strings.Contains(string(rec.EventLog), "LandBattle") {
				t.Error("the unanswered battle was not fought by the model")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the turn was not resolved after the wait ran out")
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// TestTabletopBattleAskedByReferee: in a game fought by the model, the
// referee's BATTLE hex TABLE has that battle's sheet mailed and the turn
// wait for its result.
func TestTabletopBattleAskedByReferee(t *testing.T) {
	t.Parallel()
	h, hex, _, _ := tableGame(t, false)
	g := h.d.Game
	cmd := h.send("referee@pbem.localhost", "battle", "PASSWORD "+refereePassword+"\nBATTLE "+hex.String()+" TABLE\n")
	if ans, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd)); !strings.Contains(body(ans), "is fought on your table") {
		t.Fatalf("the answer to BATTLE hex TABLE:\n%s", body(ans))
	}
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	if s, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "battle at "+hex.String()+" to fight on the table")
	}); s == "" {
		t.Fatal("no battle sheet after BATTLE hex TABLE")
	}
	h.settle()
	if rec, _ := g.DB.LatestTurn(context.Background(), "syw"); rec.Turn != 0 {
		t.Error("the turn was resolved without the asked battle's result")
	}
}

// TestTabletopResultGeneralsAndGuns: a RESULT mail that kills the
// defender's general and takes his guns is applied as the model's result
// would be: the general leaves his force, the guns go to the winner's
// senior general's force (the attacker's one force), and the battle's
// event records both, with the moment the narratives tell. A DAYS
// line in a 1752 game is refused by line first.
func TestTabletopResultGeneralsAndGuns(t *testing.T) {
	t.Parallel()
	h, hex, a, b := tableGame(t, true)
	g := h.d.Game
	ctx := context.Background()
	// The defender brings two crewed field guns.
	rec, _ := g.DB.LatestTurn(ctx, "syw")
	st, _ := g.decoded(rec)
	def, _ := st.Force(b.ID)
	def.Guns = []game.Guns{{Kind: game.FieldGun, Count: 2}}
	def.Troops = append(def.Troops, game.Troops{Arm: game.Gunners, Grade: game.GradeC, Count: 12})
	def.Normalize()
	js, _ := json.Marshal(st)
	if _, err := g.DB.SaveTurn(ctx, store.TurnRecord{GameID: "syw", Turn: 0, Status: store.TurnInitial, State: js, ResolvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var general game.Leader
	for _, l := range def.Leaders {
		if l.Role == game.General {
			general = l
			break
		}
	}
	h.send("referee@pbem.localhost", "resolve", "PASSWORD "+refereePassword+"\nRESOLVE NOW\n")
	sheet, _ := h.waitFor("referee@pbem.localhost", "pw-referee", func(m string) bool {
		return strings.Contains(header(m, "Subject"), "battle at "+hex.String()+" to fight on the table")
	})
	if !strings.Contains(body(sheet), "GENERAL id-or-name KILLED TURN n") || !strings.Contains(body(sheet), "GUNS force gun-kind LOST n") ||
		strings.Contains(body(sheet), "DAYS n") || !strings.Contains(body(sheet), general.Name) {
		t.Fatalf("the battle sheet:\n%s", body(sheet))
	}
	h.settle()
	head := fmt.Sprintf("RESULT %s\nOUTCOME decisive\nWINNER %s\nLOSSES %s %s %s KILLED 2\n", hex, a.Nation, b.ID, b.Troops[0].Arm, b.Troops[0].Grade)
	cmd := h.send("referee@pbem.localhost", "result", "PASSWORD "+refereePassword+"\n"+head+"DAYS 2\nGUNS "+string(b.ID)+" CAPTURED 2\nEND\n")
	ans, _ := h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "line 6:") || !strings.Contains(body(ans), "multi-day battles are V4's") ||
		!strings.Contains(body(ans), "line 7:") || !strings.Contains(body(ans), "LOST 2") || !strings.Contains(body(ans), "Nothing was recorded") {
		t.Fatalf("the answer to DAYS in 1752 and GUNS CAPTURED:\n%s", body(ans))
	}
	good := head + fmt.Sprintf("GENERAL %s KILLED TURN 6\nGUNS %s field-gun LOST 2\nEND\n", general.ID, b.ID)
	cmd = h.send("referee@pbem.localhost", "result", "PASSWORD "+refereePassword+"\n"+good)
	ans, _ = h.waitFor("referee@pbem.localhost", "pw-referee", replyTo(cmd))
	if !strings.Contains(body(ans), "is recorded (decisive)") {
		t.Fatalf("the answer to a good result:\n%s\n%s", good, body(ans))
	}
	deadline := time.Now().Add(waitLimit)
	for {
		rec, _ := g.DB.LatestTurn(ctx, "syw")
		if rec.Turn != 1 {
			if time.Now().After(deadline) {
				t.Fatal("the turn was not resolved after the battle's result")
			}
			time.Sleep(25 * time.Millisecond)
			continue
		}
		log := string(rec.EventLog)
		if !strings.Contains(log, `"Model":"tabletop"`) || !strings.Contains(log, fmt.Sprintf(`"ID":%q,"Name":%q,"Fate":"killed"`, general.ID, general.Name)) ||
			!strings.Contains(log, fmt.Sprintf(`"GunsTaken":[{"Force":%q,"Kind":"field-gun","Count":2,"Reason":"field"}]`, a.ID)) ||
			!strings.Contains(log, `"What":"general"`) {
			t.Errorf("the battle's event lacks the general's fate, the guns taken or the moment:\n%s", log)
		}
		after, _ := g.decoded(rec)
		for _, f := range after.Forces {
			for _, l := range f.Leaders {
				if l.ID == general.ID {
					t.Errorf("%s, killed, still leads %s", general.ID, f.ID)
				}
			}
			if f.ID == b.ID && f.GunCount() != 0 {
				t.Errorf("%s still has %d guns", f.ID, f.GunCount())
			}
		}
		break
	}
}
