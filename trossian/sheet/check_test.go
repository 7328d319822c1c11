package sheet

import (
	"reflect"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/trossian"
)

// TestGoodSheet: a sheet with orders at the seat, a courier carrying
// orders away from it, a navy's actions and a detachment is accepted whole,
// and its canonical form reads back as the same orders.
func TestGoodSheet(t *testing.T) {
	ctx := ctxFor(t, 2)
	n1, _ := ctx.State.Army("N1")
	n1.Stands = n1.Stands.Plus(trossian.Stands{{Type: trossian.HQ, Count: 1}})
	r := Check(sheetOf("norvale", 2, `MOVE N1 TO Trossburg
attack n1
DETACH N1 1 hq, 1 light-infantry
MOVE N3 Fjordby Greyfell
COURIER TO N2 VIA Elkmoor
MOVE N2 Wendmoor
PACIFY N2
NAVY NF1 OUT, SAIL W1, IN Greyfell`), ctx)
	if r.Refused || r.HasErrors() {
		t.Fatalf("refused %v:\n%s", r.Refused, r.Text())
	}
	if len(r.Orders.List) != 6 {
		t.Errorf("%d orders: %v", len(r.Orders.List), r.Orders.List)
	}
	var c trossian.SendCourier
	for _, o := range r.Orders.List {
		if x, ok := o.(trossian.SendCourier); ok {
			c = x
		}
	}
	if c.ID != "NC1" || len(c.Carries) != 2 || c.To != "N2" {
		t.Errorf("courier %+v", c)
	}
	again := Check(strings.Replace(r.Canonical(), "NATION norvale\n", "NATION norvale\nPASSWORD secret\n", 1), ctx)
	if again.HasErrors() || !reflect.DeepEqual(stripLines(again.Orders.List), stripLines(r.Orders.List)) {
		t.Errorf("the canonical form does not read back:\n%s\n%s", r.Canonical(), again.Text())
	}
	if !strings.Contains(r.Text(), "COURIER TO N2 VIA Elkmoor   # courier NC1 rides from Norhaven with 2 orders\nMOVE N2 TO Wendmoor\nPACIFY N2") {
		t.Errorf("reply:\n%s", r.Text())
	}
	if r.Receipt == "" || r.Receipt != again.Receipt {
		t.Errorf("receipts %q %q", r.Receipt, again.Receipt)
	}
}

// stripLines drops the sheet lines of orders (and of those couriers carry).
func stripLines(l []trossianOrder) []trossianOrder {
	var out []trossianOrder
	for _, o := range l {
		b, _ := trossian.MarshalOrder(o)
		back, _ := trossian.UnmarshalOrder(b)
		out = append(out, zeroLine(back))
	}
	return out
}

// TestSheetErrors: each mistake is reported at its line with what was read,
// what was expected and a hint; the rest of the sheet is accepted.
func TestSheetErrors(t *testing.T) {
	cases := []struct {
		turn        int
		body        string
		line        int
		msg, hint   string
		acceptedToo int
	}{
		{2, "MOVEE N1 TO Elkmoor", 5, `expected an order keyword, read "MOVEE"; did you mean MOVE?`, "Correct the keyword", 0},
		{2, "MOV N1 TO Elkmoor", 0, "", "", 1},
		{2, "MOVE N2 TO Wendmoor", 5, "N2 is at Tarnwick, away from your King's seat Norhaven: its orders go by courier", "Add a line COURIER TO N2", 0},
		{2, "MOVE N1 TO Elkmor", 5, `no province "Elkmor" on the map; did you mean Elkmoor?`, "Name it as it is printed on the map", 0},
		{2, "MOVE N1 Elkmoor Linden", 5, "Linden does not border Elkmoor", "Elkmoor borders", 0},
		{2, "MOVE O1 TO Elkmoor", 5, "you have no army or navy O1", "", 0},
		{2, "COURIER TO N2", 5, "the courier to N2 carries no orders", "Give the orders for N2", 0},
		{2, "COURIER TO N1\nSTANCE N1 ATTACK", 5, "N1 is at Norhaven, your King's seat: it needs no courier", "Give its orders directly", 1},
		{2, "STANCE N1 ATACK", 5, `expected ATTACK or DEFEND, read "ATACK"; did you mean ATTACK?`, "", 0},
		{2, "MOVE N1 TO Elkmoor\nMOVE N1 TO Fjordby", 6, "a second move order for N1: the first, on line 5, counts", "", 1},
		{2, "DETACH N1 2 line-infantry", 5, "the detachment from N1 has no HQ", "Detach an hq", 0},
		{2, "NAVY NF1 OUT, SAIL W1, SAIL W2, SAIL S1, IN Selve", 5, "NF1 would take 5 actions", "", 0},
		{1, "NAVY NF1 OUT", 5, "N1 is frozen in Early Spring", "Wait for the thaw", 0},
		{2, "BUY 2 line-infantry AT Norhaven", 5, "BUY orders are given in winter quarters; these orders are for Turn 2, Mid Spring 1801", "", 0},
		{2, "MOVE N1 TO Elkmoor extra", 5, `expected the end of the order after MOVE, read "extra"`, "Remove the extra words", 0},
		{2, "PACIFY N1", 5, "Norhaven is yours already", "", 0},
		{10, "BUY 20 heavy-cavalry AT Norhaven", 5, "20 heavy-cavalry would exceed your census of 2", "", 0},
		{10, "BUY 1 hq, 2 line-infantry AT Norhaven\nBUY 2 heavy-infantry, 2 foot-artillery AT Fjordby\nBUY 1 hq, 1 light-cavalry, 1 heavy-cavalry AT Norhaven", 7, "this costs 10 AP and 8 are left to spend this winter", "Buy less", 2},
		{10, "BANK 40 AT Tarnwick", 5, "28 AP are left to bank after your purchases, not 40", "", 0},
		{10, "BUY 2 militia AT Norhaven", 5, "militia cannot be bought", "", 0},
	}
	for _, c := range cases {
		ctx := ctxFor(t, c.turn)
		r := Check(sheetOf("norvale", c.turn, c.body), ctx)
		if r.Refused {
			t.Errorf("%q: refused:\n%s", c.body, r.Text())
			continue
		}
		if len(r.Accepted) != c.acceptedToo {
			t.Errorf("%q: %d accepted, want %d:\n%s", c.body, len(r.Accepted), c.acceptedToo, r.Text())
		}
		if c.msg == "" {
			if r.HasErrors() {
				t.Errorf("%q: errors:\n%s", c.body, r.Text())
			}
			continue
		}
		found := false
		for _, d := range r.Diagnostics {
			if d.Line == c.line && strings.Contains(d.Message, c.msg) && strings.Contains(d.Hint, c.hint) && d.Source != "" {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want line %d %q (hint %q), got:\n%s", c.body, c.line, c.msg, c.hint, r.Text())
		}
	}
}

// TestSheetRefused: a sheet for another game, kingdom, password or turn is
// refused whole, saying why.
func TestSheetRefused(t *testing.T) {
	ctx := ctxFor(t, 2)
	for _, c := range []struct{ sheet, want string }{
		{strings.Replace(sheetOf("norvale", 2, "HOLD N1"), "GAME tr", "GAME other", 1), `this sheet is for game "other"`},
		{sheetOf("norvale", 1, "HOLD N1"), "this sheet is for turn 1"},
		{strings.Replace(sheetOf("norvale", 2, "HOLD N1"), "secret", "guess", 1), "the password is not Norvale's"},
		{sheetOf("atlantis", 2, "HOLD N1"), `no nation "atlantis" in this game`},
		{"Dear referee, here are my orders.\nMOVE N1 TO Elkmoor\n", "no order sheet found"},
	} {
		r := Check(c.sheet, ctx)
		if !r.Refused || !strings.Contains(r.Text(), c.want) {
			t.Errorf("want refused with %q, got:\n%s", c.want, r.Text())
		}
	}
	// A turn may be named: TURN Mid Spring 1801.
	r := Check(strings.Replace(sheetOf("norvale", 2, "HOLD N1"), "TURN 2", "TURN Mid Spring 1801", 1), ctx)
	if r.Refused {
		t.Errorf("TURN by name refused:\n%s", r.Text())
	}
}

// TestCheckerFogOfWar: a foreign force reads like a made-up one.
func TestCheckerFogOfWar(t *testing.T) {
	ctx := ctxFor(t, 2)
	a := Check(sheetOf("norvale", 2, "COURIER TO O1\nSTANCE O1 ATTACK"), ctx)
	b := Check(sheetOf("norvale", 2, "COURIER TO O9\nSTANCE O9 ATTACK"), ctx)
	clean := func(s string) string { return strings.ReplaceAll(s, "O9", "O1") }
	if clean(b.Text()) != a.Text() {
		t.Errorf("a foreign army is answered otherwise than a made-up one:\n%s\n%s", a.Text(), b.Text())
	}
}

// TestDetachByCourier: a detachment a courier carries can be given orders on
// the same sheet: they ride with the same courier.
func TestDetachByCourier(t *testing.T) {
	ctx := ctxFor(t, 2)
	n2, _ := ctx.State.Army("N2")
	n2.Stands = n2.Stands.Plus(trossian.Stands{{Type: trossian.HQ, Count: 1}})
	r := Check(sheetOf("norvale", 2, "COURIER TO N2\nDETACH N2 1 hq, 1 line-infantry AS N9\nMOVE N9 Wendmoor\nMOVE N8 Wendmoor"), ctx)
	if len(r.Orders.List) != 1 {
		t.Fatalf("%s", r.Text())
	}
	c := r.Orders.List[0].(trossian.SendCourier)
	if len(c.Carries) != 2 || c.Carries[1].(trossian.Move).Force != "N9" {
		t.Errorf("the courier carries %v", c.Carries)
	}
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Line != 8 || !strings.Contains(r.Diagnostics[0].Message, "you have no army or navy N8") {
		t.Errorf("%s", r.Text())
	}
}
