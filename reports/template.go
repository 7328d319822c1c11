package reports

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/game"
)

// PasswordPlaceholder stands where the nation's password goes on the order
// template: a report is mailed and may be printed or forwarded, so it never
// carries the password itself.
const PasswordPlaceholder = "your-password"

// Template writes the order sheet for the model's turn: the header (game,
// nation, password line, turn), each force's place and contents as comments,
// and for a monthly turn each force's current stance restated (STANCE for
// land forces, FLEET for fleets), which changes nothing if sent as it is.
// The checker accepts the sheet unchanged once the password is filled in.
func Template(md *Model) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Orders of %s for %s.\n", md.NationName, md.TurnLabel)
	if md.Deadline != "" {
		fmt.Fprintf(&b, "# Due by %s.\n", md.Deadline)
	}
	b.WriteString("# Replace your-password, write your orders under each force,\n# and mail the sheet back.\n\n")
	fmt.Fprintf(&b, "GAME %s\nNATION %s\nPASSWORD %s\nTURN %d\n", md.Game, md.Nation, PasswordPlaceholder, md.Turn)
	if md.YearEnd {
		// Unfielded forces are disbanded at the year-end: the template
		// keeps them all unless the player changes it.
		b.WriteString("\n# The year-end: BUY, FIELD, DISBAND, TRANSFER (the orders are listed at\n# the end of this sheet).\n")
		b.WriteString("# FIELD ALL keeps every force and depot; replace it to disband some.\nFIELD ALL\n")
	}
	for _, f := range md.Forces {
		b.WriteString("\n")
		fmt.Fprintf(&b, "# %s at %s, %s, %d MP\n", f.ID, f.Where, f.Stance, f.MP)
		commentLines(&b, contentsText(f))
		if f.Aboard != "" {
			fmt.Fprintf(&b, "#   aboard %s\n", f.Aboard)
		}
		if !md.YearEnd {
			fmt.Fprintf(&b, "STANCE %s %s\n", f.ID, strings.ToUpper(f.Stance))
		}
	}
	for _, f := range md.Fleets {
		b.WriteString("\n")
		fmt.Fprintf(&b, "# %s at %s, %s, %d MP\n", f.ID, f.Where, f.Stance, f.MP)
		commentLines(&b, contentsText(f))
		if !md.YearEnd {
			stance := "SEEK"
			if f.Stance == "avoid battle" {
				stance = "AVOID"
			}
			fmt.Fprintf(&b, "FLEET %s %s\n", f.ID, stance)
		}
	}
	for _, d := range md.Depots {
		if d.Nation == md.Nation {
			fmt.Fprintf(&b, "\n# Depot %s at %s\n", d.ID, d.Where)
		}
	}
	b.WriteString("\nEND\n")
	if md.YearEnd {
		b.WriteString(yearEndReference)
	} else {
		b.WriteString(monthlyReference)
	}
	return b.String()
}

// The order language in short, after END on the template (pbem reads
// nothing after END): players have the sheet, not the repository's docs.
// Every line is a comment no wider than TemplateWidth.
const referenceHead = `
# ---- The orders in short: one order a line, keyword first; # starts a
# comment; nothing after END is read. The reply to your sheet names any
# mistake and its fix; mail a corrected sheet before the deadline (the
# latest valid one counts).
`

const monthlyReference = referenceHead + `# MOVE force hex hex …          MOVE force TO city
# STANCE force ATTACK|DEFEND     RETREAT force ALWAYS|NEVER|IF ODDS 3:2
# PURSUE force   NO PURSUE force ON CONTACT force STOP|CONTINUE
# SLOW ENEMY force               NO SLOW force
# SPLIT force AS newid 24 C infantry, 2 field-gun, general name
# MERGE force INTO force         ASSIGN GENERAL name TO force
# DETACH GENERAL name AS newid   GARRISON force IN city
# FIELDWORKS force inches        BESIEGE force city    MASK force city
# ASSAULT force city WITH n|ALL  BOMBARD force city BREACH|GUNS
# EMBARK force ON fleet          SAIL fleet sea-area … port (names or IDs)
# DEBARK force [AT hex]          FLEET fleet SEEK|AVOID    REPAIR fleet
# SUPPLY depot TO nation         WITHDRAW SUPPLY depot FROM nation
# REQUEST "a question or request to the referee"    SPECIAL "text"
# TREATY "title" PARTIES nation, nation TEXT, its lines, then ENDTREATY
# ATTEST treaty   LIFT treaty nation   PASSWORD CHANGE new-password
`

const yearEndReference = referenceHead + `# BUY 24 C infantry AT city   BUY 2 field-gun AT city   BUY DEPOT AT city
# BUY 1 transport AT port      BUY GENERAL name "full name" AT city
# FIELD ALL   FIELD force   FIELD DEPOT depot   (what is not fielded
#   is disbanded)              DISBAND force [contents]
# TRANSFER force 2 field-gun TO nation     TRANSFER DEPOT depot TO nation
# TRANSFER GENERAL name TO nation
# TREASURY FROM city crowns TO nation      TEMPORARY CAPITOL city
# SUPPLY depot TO nation         WITHDRAW SUPPLY depot FROM nation
# REQUEST "a question or request to the referee"    SPECIAL "text"
# TREATY "title" PARTIES nation, nation TEXT, its lines, then ENDTREATY
# ATTEST treaty   LIFT treaty nation   PASSWORD CHANGE new-password
`

// contentsText prints a force's contents on one line, troops and guns in
// the order sheet's own words ("24 C infantry, 2 field-gun": the keywords a
// SPLIT or DETACH order takes), not as prose.
func contentsText(f OwnForce) string {
	var parts []string
	for _, t := range f.Troops {
		// The sheet reads "gunner" and "gunners" alike: the one that
		// agrees with the count.
		arm := t.Arm.String()
		if t.Arm == game.Gunners && t.Count == 1 {
			arm = "gunner"
		}
		s := fmt.Sprintf("%d %s %s", t.Count, t.Grade, arm)
		if t.Exhausted > 0 {
			s += fmt.Sprintf(" (%d exhausted)", t.Exhausted)
		}
		parts = append(parts, s)
	}
	for _, g := range f.Guns {
		s := fmt.Sprintf("%d %s", g.Count, g.Kind)
		if g.Owner != "" {
			s += " (" + string(g.Owner) + "'s)"
		}
		parts = append(parts, s)
	}
	if f.Ships != nil {
		parts = append(parts, shipsText(*f.Ships))
	}
	for _, l := range f.Leaders {
		parts = append(parts, leaderText(l))
	}
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}

// TemplateWidth is the longest line of the template, so that it prints
// without wrapping (a wrapped comment would no longer be a comment).
const TemplateWidth = 76

// commentLines writes s as comment lines "#   …" no longer than
// TemplateWidth, breaking after commas.
func commentLines(b *strings.Builder, s string) {
	const lead = "#   "
	cur := ""
	for _, part := range strings.Split(s, ", ") {
		if cur != "" && len(lead)+len(cur)+2+len(part) > TemplateWidth {
			b.WriteString(lead + cur + ",\n")
			cur = ""
		}
		if cur != "" {
			cur += ", "
		}
		cur += part
	}
	if cur != "" {
		b.WriteString(lead + cur + "\n")
	}
}
