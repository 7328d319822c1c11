package daemon

import (
	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/store"
	"github.com/syw-pbem/pbem/templates"
)

// sheetInForceNote tells a player whose sheet did not count (refused for a
// wrong password or another turn, or late) what does: the earlier sheet in
// force for the turn, with its receipt, or that there is none and the
// forces hold on DEFEND. inForce is false when there is no such sheet.
func (g *Game) sheetInForceNote(st *engine.State, nation game.NationID, prev store.Submission, inForce, late bool) string {
	data := map[string]any{"Nation": g.nationName(nation), "Turn": st.Calendar.Label(st.Turn), "Late": late,
		"Receipt": "", "Received": ""}
	if inForce {
		data["Receipt"] = prev.ReceiptHash
		data["Received"] = prev.SubmittedAt.In(g.Zone).Format("Monday 2 January 2006, 15:04 MST")
	}
	return "\n" + templates.Must("sheet-in-force", data)
}
