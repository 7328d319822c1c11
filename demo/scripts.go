package demo

import (
	"fmt"

	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// draft is a sheet a player sends: its lines and, for a sheet with a
// mistake, the corrected lines it sends after reading the checker's answer.
type draft struct {
	lines   []string
	fixed   []string // nil: the sheet has no deliberate mistake
	mistake string   // what the mistake is, for the progress line
}

// monthly writes the nation's sheet for a monthly turn: the nation's set
// pieces for the first turns, then the general rule for every force left.
func (pl *plan) monthly() draft {
	t := pl.v.Turn
	var d draft
	var wrong, right string // a line written wrong first, then corrected
	switch pl.p.nation {
	case "eisenmark":
		switch t {
		case 1:
			// The King's army marches on Dresna to besiege it, leaving a
			// garrison in the capital; Brummer's squadron fetches the
			// Danzburg corps; peace is offered to Fromande.
			if e1 := pl.own("E1"); e1 != nil {
				if tr, ok := infantry(e1, 12); ok {
					id := pl.newForce()
					pl.add("SPLIT E1 AS %s %s", id, tr)
					pl.garrison(id, "Konigsfeld")
				}
				pl.add("STANCE E1 ATTACK")
				pl.add("MOVE E1 TO Dresna")
				pl.add("BESIEGE E1 Dresna")
				pl.used["E1"] = true
			}
			pl.add("SAIL E3 S2 Danzburg")
			pl.add("FLEET E3 AVOID")
			pl.add("STANCE E2 DEFEND")
			pl.used["E2"] = true
			pl.add(`TREATY "Peace of Garzow" PARTIES eisenmark, fromande TEXT`)
			pl.add("Article 1. There shall be peace between Eisenmark and Fromande.")
			pl.add("Article 2. Neither shall march through Vogesia.")
			pl.add("ENDTREATY")
		}
		// The Danzburg corps goes aboard Brummer's squadron where it lies,
		// sails for Kongshavn and lands there.
		e2, e3 := pl.own("E2"), pl.own("E3")
		kongshavn, _ := pl.city("Kongshavn")
		switch {
		case t < 2 || e2 == nil || e3 == nil || kongshavn.Controller == pl.p.nation || (e2.Aboard == "" && e2.At.Hex == kongshavn.Hex):
		case e2.Aboard == "" && e2.At == e3.At:
			pl.add("EMBARK E2 ON E3")
			pl.add("SAIL E3 S2 Kongshavn")
			pl.add("DEBARK E2")
			pl.used["E2"] = true
		case e2.Aboard != "" && e3.At.Hex == kongshavn.Hex:
			pl.add("DEBARK E2")
			pl.used["E2"] = true
		case e2.Aboard != "":
			pl.add("SAIL E3 S2 Kongshavn")
			pl.add("DEBARK E2")
			pl.used["E2"] = true
		}
	case "morgronskia":
		if t == 1 {
			// A march too long for one turn, corrected after the checker's
			// warning says where the army would stop.
			wrong, right = "MOVE M1 TO Konigsfeld", "MOVE M1 TO Warsovia"
			pl.add("STANCE M1 ATTACK")
			pl.add("PURSUE M1")
			pl.used["M1"] = true
		}
		// From the second turn Saltykin lays siege to Kaiserau, Unterreich's
		// capitol, and storms it once it is besieged.
		if m1 := pl.own("M1"); t >= 2 && m1 != nil {
			if k, ok := pl.city("Kaiserau"); ok && k.Controller != pl.p.nation {
				// On DEFEND the march does not turn into a battle with the
				// garrison: the army sits down before the walls.
				pl.add("STANCE M1 DEFEND")
				if m1.At.Hex == k.Hex && k.Siege == game.Besieged {
					pl.add("ASSAULT M1 Kaiserau WITH ALL")
				} else {
					if m1.At.Hex != k.Hex {
						pl.add("MOVE M1 TO Kaiserau")
					}
					// A siege is laid from the city's hex: only when the
					// army gets there this turn.
					if hexmap.Distance(m1.At.Hex, k.Hex) <= 1 {
						pl.add("BESIEGE M1 Kaiserau")
					}
				}
				pl.used["M1"] = true
			}
		}
	case "unterreich":
		if t == 1 {
			if u1 := pl.own("U1"); u1 != nil {
				id := pl.newForce()
				pl.add("SPLIT U1 AS %s 24 C infantry, 8 C gunners, 2 field-gun", id)
				pl.garrison(id, "Kaiserau")
				pl.add("STANCE U1 ATTACK")
				pl.add("MOVE U1 TO Singidun")
				pl.used["U1"] = true
			}
		}
		if t == 2 {
			if u1 := pl.own("U1"); u1 != nil {
				pl.add("STANCE U1 DEFEND")
				pl.add("FIELDWORKS U1 12")
				pl.used["U1"] = true
			}
		}
	case "fromande":
		if t == 1 {
			pl.add("SAIL F3 S5")
			pl.add("FLEET F3 SEEK")
		}
	case "hispardia":
		if t == 1 {
			// A misspelt force, corrected after the checker's error.
			wrong, right = "MOVE H22 TO Taurinia", "MOVE H2 TO Taurinia"
			pl.add("STANCE H2 ATTACK")
			pl.used["H2"] = true
			pl.add("SAIL H4 S5")
			pl.add("FLEET H4 SEEK")
			pl.add(`REQUEST "May Hispardia raise a loan of 150 crowns from the bankers of Genovesa, against the wool tolls?"`)
		}
	}
	if pl.p.treatyID != "" && !pl.p.attested {
		pl.add("ATTEST %s", pl.p.treatyID)
	}
	pl.general()
	if wrong != "" {
		d.lines = append(append([]string{}, pl.lines...), wrong)
		d.fixed = append(append([]string{}, pl.lines...), right)
		d.mistake = fmt.Sprintf("%q", wrong)
		return d
	}
	d.lines = pl.lines
	return d
}

// yearEnd writes the year-end sheet: field everything, buy infantry at the
// capitol (and a gun for the richer nations), keep the depots supplied.
func (pl *plan) yearEnd(capitol string, treasury int) draft {
	pl.add("FIELD ALL")
	n := 24
	if treasury > 600 {
		n = 48
	}
	pl.add("BUY %d C infantry AT %s", n, capitol)
	if treasury > 400 {
		pl.add("BUY 1 field-gun AT %s", capitol)
	}
	if pl.p.treatyID != "" && !pl.p.attested {
		pl.add("ATTEST %s", pl.p.treatyID)
	}
	return draft{lines: pl.lines}
}

// capitolOf is where the nation buys: its capitol while it holds it
// unbesieged, else its temporary capitol, else the first city it holds
// that is not besieged.
func capitolOf(pl *plan) string {
	for _, c := range pl.m.Cities {
		if cv, ok := pl.city(c.Name); ok && c.Capitol == pl.p.nation && cv.Controller == pl.p.nation && cv.Siege == game.NotBesieged {
			return c.Name
		}
	}
	if pl.v.TemporaryCapitol != "" {
		return pl.v.TemporaryCapitol
	}
	for _, c := range pl.v.Cities {
		if c.Controller == pl.p.nation && c.Siege == game.NotBesieged {
			return c.Name
		}
	}
	return ""
}
