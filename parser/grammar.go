package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
)

// The grammar: one function per statement keyword. Each reads the words
// after the keyword, builds the engine order (or sheet-level form) and leaves
// the end-of-line check to parseStatement. docs/orders.md is the reference.

func init() {
	statementParsers = map[string]func(*parser){
		"MOVE": parseMove, "STANCE": parseStance, "RETREAT": parseRetreat, "PURSUE": parsePursue,
		"NO": parseNo, "ON": parseOnContact, "SLOW": parseSlow, "SPLIT": parseSplit, "MERGE": parseMerge,
		"ASSIGN": parseAssign, "DETACH": parseDetach, "GARRISON": parseGarrison,
		"FIELDWORKS": parseFieldworks, "BESIEGE": parseBesiege, "MASK": parseMask,
		"ASSAULT": parseAssault, "BOMBARD": parseBombard, "EMBARK": parseEmbark, "SAIL": parseSail,
		"DEBARK": parseDebark, "FLEET": parseFleet, "SUPPLY": parseSupply, "WITHDRAW": parseWithdraw,
		"REPAIR": parseRepair, "SPECIAL": parseSpecial,
		"BUY": parseBuy, "FIELD": parseField, "DISBAND": parseDisband, "TRANSFER": parseTransfer,
		"TREASURY": parseTreasury, "TEMPORARY": parseTemporary,
		"TREATY": parseTreaty, "ATTEST": parseAttest, "LIFT": parseLift, "REQUEST": parseRequest, "PASSWORD": parsePassword,
		"FINAL": parseFinal, "FORECAST": parseForecast,
	}
}

var oddsWord = regexp.MustCompile(`^([0-9]{1,4})[-/]([0-9]{1,3})$`)

var hexRun = regexp.MustCompile(`^[0-9]{4,6}(-[0-9]{4,6})+$`)

// MOVE force hex hex … | MOVE force TO hex-or-city
func parseMove(p *parser) {
	f := p.force("the force to move")
	if _, ok := p.acceptExact("TO"); ok {
		p.set(engine.Move{At: p.at(), Force: f, Dest: p.hexOrCity()})
		return
	}
	var path []game.Hex
	for !p.atEnd() {
		it := p.peek()
		switch {
		case it.typ == itemComma:
			p.next()
		case it.typ == itemNumber:
			p.next()
			path = append(path, p.hexOf(it))
		case it.typ == itemWord && hexRun.MatchString(it.val):
			p.next()
			for _, part := range strings.Split(it.val, "-") {
				path = append(path, p.hexOf(item{typ: itemNumber, val: part, pos: it.pos}))
			}
		case it.typ == itemWord && len(path) == 0 && (fold(it.val) == "along" || fold(it.val) == "via"):
			p.next()
		case (it.typ == itemWord || it.typ == itemString) && p.v != nil && len(p.v.cities) > 0:
			path = append(path, p.hexOrCity())
		default:
			p.expected(it, "the next hex of the path, such as 0812", "List the hexes the force marches through, each next to the one before, or write MOVE "+string(f)+" TO hex.")
		}
	}
	if len(path) == 0 {
		p.expected(p.peek(), "the hexes of the march or TO and a destination", "Write MOVE "+string(f)+" 0813 0814, or MOVE "+string(f)+" TO 0814.")
	}
	p.set(engine.Move{At: p.at(), Force: f, Path: path})
}

// STANCE force ATTACK|DEFEND
func parseStance(p *parser) {
	f := p.force("a force")
	s := game.Defend
	if p.keyword("A force's stance is ATTACK or DEFEND.", "ATTACK", "DEFEND") == "ATTACK" {
		s = game.Attack
	}
	p.set(engine.SetStance{At: p.at(), Force: f, Stance: s})
}

// RETREAT force ALWAYS | NEVER | IF ODDS a:b
func parseRetreat(p *parser) {
	f := p.force("a force")
	switch p.keyword("Write RETREAT "+string(f)+" IF ODDS 3:2, ALWAYS or NEVER.", "ALWAYS", "NEVER", "IF") {
	case "ALWAYS":
		p.set(engine.Retreat{At: p.at(), Force: f, Always: true})
	case "NEVER":
		p.set(engine.Retreat{At: p.at(), Force: f, Never: true})
	default:
		p.accept("ODDS", "OUTNUMBERED")
		var a, b int
		bIt := p.peek()
		if m := oddsWord.FindStringSubmatch(bIt.val); bIt.typ == itemWord && m != nil {
			// "3-2" or "3/2" for 3:2
			p.next()
			a, _ = strconv.Atoi(m[1])
			b, _ = strconv.Atoi(m[2])
			if a > 999 || b > 99 {
				p.fail(bIt, "odds of "+bIt.val+" are too large", "Write odds such as 3:2 or 2:1.")
			}
		} else {
			a = p.number("the odds, such as 3:2", 999)
			if it := p.next(); it.typ != itemColon {
				p.expected(it, "':' between the two sides of the odds, as in 3:2", "Write the odds as enemy:yours, e.g. 3:2.")
			}
			bIt = p.peek()
			b = p.number("your side of the odds, such as 2 in 3:2", 99)
		}
		if a == 0 || b == 0 {
			p.fail(bIt, "odds of 0 mean nothing", "Write odds such as 3:2 or 2:1.")
		}
		p.set(engine.Retreat{At: p.at(), Force: f, Odds: float64(a) / float64(b)})
	}
}

// PURSUE force
func parsePursue(p *parser) {
	p.set(engine.Pursue{At: p.at(), Force: p.force("a force"), On: true})
}

// NO PURSUE force | NO SLOW [ENEMY] force
func parseNo(p *parser) {
	switch p.keyword("Write NO PURSUE force or NO SLOW ENEMY force.", "PURSUE", "SLOW") {
	case "PURSUE":
		p.set(engine.Pursue{At: p.at(), Force: p.force("a force")})
	default:
		p.accept("ENEMY")
		p.set(engine.SlowEnemy{At: p.at(), Force: p.force("a force")})
	}
}

// ON CONTACT force STOP|CONTINUE
func parseOnContact(p *parser) {
	p.keyword("Write ON CONTACT force STOP or ON CONTACT force CONTINUE.", "CONTACT")
	f := p.force("a force")
	c := p.keyword("After a battle won or an overrun the force either STOPs in the hex or CONTINUEs along its path.", "STOP", "CONTINUE")
	p.set(engine.OnContact{At: p.at(), Force: f, Continue: c == "CONTINUE"})
}

// SLOW [ENEMY] force
func parseSlow(p *parser) {
	p.accept("ENEMY")
	p.set(engine.SlowEnemy{At: p.at(), Force: p.force("a force"), On: true})
}

// SPLIT force [AS newid] contents
func parseSplit(p *parser) {
	f := p.force("the force to split")
	var id game.ForceID
	if _, ok := p.acceptExact("AS"); ok {
		id = p.force("the new force's ID")
	}
	c := p.contents(allowAll, "the units of the new force, such as 24 C infantry, general Keith")
	p.set(engine.Split{At: p.at(), Force: f, NewID: id, Troops: c.Troops, Guns: c.Guns, Ships: c.Ships, Leaders: c.Leaders})
}

// MERGE force [INTO|WITH] force
func parseMerge(p *parser) {
	f := p.force("the force to merge")
	p.accept("INTO", "WITH")
	into := p.force("the force to merge it into")
	p.set(engine.Merge{At: p.at(), Force: f, Into: into})
}

// ASSIGN [GENERAL|ADMIRAL] leader TO force
func parseAssign(p *parser) {
	p.accept("GENERAL", "ADMIRAL")
	l := p.leader()
	p.keyword("Write ASSIGN "+l+" TO force.", "TO")
	p.set(engine.AssignLeader{At: p.at(), Leader: l, To: p.force("the force he joins")})
}

// DETACH [GENERAL|ADMIRAL] leader [AS newid]
func parseDetach(p *parser) {
	p.accept("GENERAL", "ADMIRAL")
	l := p.leader()
	var id game.ForceID
	if _, ok := p.acceptExact("AS"); ok {
		id = p.force("the new force's ID")
	}
	p.set(engine.DetachLeader{At: p.at(), Leader: l, NewID: id})
}

// GARRISON force [IN] city
func parseGarrison(p *parser) {
	f := p.force("a force")
	p.acceptExact("IN")
	p.set(engine.Garrison{At: p.at(), Force: f, City: p.city()})
}

// FIELDWORKS force inches [INCHES]
func parseFieldworks(p *parser) {
	f := p.force("a force")
	it := p.peek()
	n := p.number("the inches of fieldworks, such as 24", 10000)
	if n == 0 {
		p.fail(it, "0 inches of fieldworks", "Write how many inches to build, or leave the order out.")
	}
	p.accept("INCHES")
	p.set(engine.Fieldworks{At: p.at(), Force: f, Inches: n})
}

// BESIEGE force city
func parseBesiege(p *parser) {
	f := p.force("a force")
	p.set(engine.Besiege{At: p.at(), Force: f, City: p.city()})
}

// MASK force city
func parseMask(p *parser) {
	f := p.force("a force")
	p.set(engine.Besiege{At: p.at(), Force: f, City: p.city(), MaskOnly: true})
}

// ASSAULT force city [WITH n [INFANTRY] | WITH ALL]
func parseAssault(p *parser) {
	f := p.force("a force")
	c := p.city()
	n := 0
	if _, ok := p.accept("WITH"); ok {
		if _, all := p.accept("ALL"); !all {
			it := p.peek()
			n = p.number("the number of infantry figures that storm, or ALL", 100000)
			if n == 0 {
				p.fail(it, "an assault with 0 infantry", "Write WITH ALL, or the number of infantry figures.")
			}
			p.accept("INFANTRY")
		}
	}
	p.set(engine.Assault{At: p.at(), Force: f, City: c, Infantry: n})
}

// BOMBARD force city BREACH|GUNS
func parseBombard(p *parser) {
	f := p.force("a force")
	c := p.city()
	k := p.keyword("Heavy guns either roll to BREACH the walls or fire at the defenders' GUNS.", "BREACH", "GUNS")
	p.set(engine.Bombard{At: p.at(), Force: f, City: c, CounterFire: k == "GUNS"})
}

// EMBARK force [ON|ONTO|ABOARD] fleet
func parseEmbark(p *parser) {
	f := p.force("the land force to embark")
	p.accept("ON", "ONTO", "ABOARD")
	p.set(engine.Embark{At: p.at(), Force: f, Fleet: p.force("the fleet")})
}

// SAIL fleet place place …: sea areas, ports by name, good-holding hexes.
func parseSail(p *parser) {
	f := p.force("the fleet")
	p.acceptExact("TO")
	var path []game.Place
	for !p.atEnd() {
		it := p.peek()
		switch {
		case it.typ == itemComma:
			p.next()
		case it.typ == itemNumber:
			p.next()
			path = append(path, game.AtHex(p.hexOf(it)))
		case it.typ == itemWord && p.seaAhead():
			p.next()
			s, _ := p.v.Sea(it.val)
			if p.v == nil || len(p.v.seas) == 0 {
				s = game.SeaID(it.val)
			}
			path = append(path, game.AtSea(s))
		case (it.typ == itemWord || it.typ == itemString) && p.seaNameAhead():
			path = append(path, game.AtSea(p.seaName()))
		case (it.typ == itemWord || it.typ == itemString) && p.v != nil && len(p.v.cities) > 0:
			if _, ok := p.v.City(it.val); !ok && it.typ == itemWord && len(p.v.seas) > 0 && len(p.v.cityByKey) > 0 {
				if _, isCity := p.cityAhead(); !isCity {
					seas := p.v.seaNames()
					hint := p.seaNameSuggestion()
					if hint == "" {
						hint = didYouMean(suggest(it.val, append(append([]string{}, seas...), p.v.cities...)))
					}
					p.fail(it, fmt.Sprintf("no sea area or port %s%s", it.quoted(), hint),
						"Name sea areas by their ID or name on the map ("+strings.Join(seas, ", ")+"), ports by the city's name, anchorages by hex.")
				}
			}
			path = append(path, game.AtHex(p.hexOrCity()))
		default:
			p.expected(it, "a sea area, a port or a hex", "List the places the fleet sails through: sea areas, ports, good-holding hexes.")
		}
	}
	if len(path) == 0 {
		p.expected(p.peek(), "the sea areas, ports or hexes of the voyage", "Write SAIL "+string(f)+" S3 S4 and a port.")
	}
	p.set(engine.Sail{At: p.at(), Fleet: f, Path: path})
}

var seaIDPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,7}$`)

// seaAhead reports whether the next word names a sea area.
func (p *parser) seaAhead() bool {
	it := p.peek()
	if p.v == nil || len(p.v.seas) == 0 {
		return seaIDPattern.MatchString(it.val)
	}
	_, ok := p.v.Sea(it.val)
	return ok
}

// cityAhead reports whether the next words name a city, without reading them.
func (p *parser) cityAhead() (string, bool) {
	save := p.pos
	defer func() { p.pos = save }()
	name, _, ok := p.name(p.v.cityWords, func(s string) bool { _, ok := p.v.City(s); return ok })
	return name, ok
}

// DEBARK force [AT hex-or-city]
func parseDebark(p *parser) {
	f := p.force("the embarked force")
	var h game.Hex
	if _, ok := p.accept("AT"); ok {
		h = p.hexOrCity()
	}
	p.set(engine.Debark{At: p.at(), Force: f, Hex: h})
}

// FLEET fleet SEEK|AVOID
func parseFleet(p *parser) {
	f := p.force("the fleet")
	k := p.keyword("A fleet SEEKs battle or AVOIDs it.", "SEEK", "AVOID")
	p.set(engine.FleetStance{At: p.at(), Fleet: f, Avoid: k == "AVOID"})
}

// depotID reads a depot's ID ("E-D1").
func (p *parser) depotID() string {
	it := p.next()
	if it.typ != itemWord {
		p.expected(it, "a depot such as E-D1", "Name the depot by its ID as printed on your report.")
	}
	return strings.ToUpper(it.val)
}

// SUPPLY depot TO nation
func parseSupply(p *parser) {
	d := p.depotID()
	p.keyword("Write SUPPLY "+d+" TO nation.", "TO")
	p.set(engine.GrantSupply{At: p.at(), Depot: d, Nation: p.nation()})
}

// WITHDRAW SUPPLY depot FROM nation | WITHDRAW REQUEST token | WITHDRAW
// SPECIAL token
func parseWithdraw(p *parser) {
	const hint = "Write WITHDRAW SUPPLY depot FROM nation, or WITHDRAW REQUEST and the token of a request of your earlier sheet."
	if kw := p.keyword(hint, "SUPPLY", "REQUEST", "SPECIAL"); kw != "SUPPLY" {
		it := p.next()
		if it.typ != itemWord || !IsRequestToken(it.val) {
			p.expected(it, "a request token such as R1a2b3c or S1a2b3c", "Copy the token from the answer to your earlier sheet.")
		}
		p.st.Withdraw = &Withdraw{Token: NormalToken(it.val)}
		return
	}
	d := p.depotID()
	p.keyword("Write WITHDRAW SUPPLY "+d+" FROM nation.", "FROM")
	p.set(engine.GrantSupply{At: p.at(), Depot: d, Nation: p.nation(), Withdraw: true})
}

// REPAIR fleet
func parseRepair(p *parser) {
	p.set(engine.Repair{At: p.at(), Fleet: p.force("the fleet to repair")})
}

// SPECIAL "text"
func parseSpecial(p *parser) {
	p.set(engine.Special{At: p.at(), Text: p.text("special action")})
}

// BUY …  AT city (year-end)
func parseBuy(p *parser) {
	var what engine.Purchase
	it := p.peek()
	switch {
	case it.typ == itemNumber:
		n := p.number("a count", 100000)
		if n == 0 {
			p.fail(it, "buying 0 of something", "Write how many to buy.")
		}
		u := p.unit(true)
		switch u.kind {
		case unitTroops:
			what.Troops = &game.Troops{Arm: u.arm, Grade: u.grade, Count: n}
		case unitGun:
			what.Gun, what.Count = u.gun, n
		case unitShip:
			if u.ship == "warship" {
				what.Warships = n
			} else {
				what.Transports = n
			}
		case unitDepot:
			if n != 1 {
				p.fail(it, "depots are bought one at a time", "Write one BUY DEPOT line for each depot.")
			}
			what.Depot = true
		case unitLeader:
			p.fail(it, "a general or admiral is bought by name, not by count", `Write BUY GENERAL Name AT city.`)
		}
	case it.typ == itemWord:
		if k, ok := p.accept("DEPOT"); ok && k != "" {
			what.Depot = true
			break
		}
		if k, ok := p.accept("WARSHIP", "WARSHIPS", "TRANSPORT", "TRANSPORTS"); ok {
			n := 1
			if p.peek().typ == itemNumber {
				n = p.number("a count", 100000)
			}
			if strings.HasPrefix(k, "WARSHIP") {
				what.Warships = n
			} else {
				what.Transports = n
			}
			break
		}
		if k, ok := p.accept("GENERAL", "ADMIRAL"); ok {
			role := game.General
			if k == "ADMIRAL" {
				role = game.Admiral
			}
			id, name := p.newLeaderName()
			what.Leader = &game.Leader{ID: id, Name: name, Role: role}
			break
		}
		p.expected(it, "what to buy: a count (24 C infantry, 2 field-gun, 3 warship), DEPOT, or GENERAL and a name", "See BUY in the orders reference.")
	default:
		p.expected(it, "what to buy: a count (24 C infantry, 2 field-gun, 3 warship), DEPOT, or GENERAL and a name", "See BUY in the orders reference.")
	}
	p.keyword("Say where the purchase appears: AT and a city you control.", "AT")
	city := p.city()
	if what.Depot {
		if _, ok := p.accept("ABOARD"); ok {
			what.Aboard = p.force("the fleet in the port that carries the depot")
		}
	}
	p.set(engine.Buy{At: p.at(), What: what, City: city})
}

// newLeaderName reads a new leader's ID and optional full name: Keith, or
// Keith "James Keith", or "James Keith" alone (the ID is then the last
// word).
func (p *parser) newLeaderName() (id, name string) {
	it := p.next()
	if it.typ != itemWord && it.typ != itemString {
		p.expected(it, "the new leader's name", `Write BUY GENERAL Keith "James Keith" AT city.`)
	}
	if n := p.peek(); n.typ == itemString {
		p.next()
		id, name = strings.TrimSpace(it.val), strings.Join(strings.Fields(n.val), " ")
	} else if it.typ == itemWord {
		id, name = it.val, it.val
	} else {
		name = strings.Join(strings.Fields(it.val), " ")
		if f := strings.Fields(name); len(f) > 0 {
			id = f[len(f)-1]
		}
	}
	if id == "" || name == "" {
		p.fail(it, "the leader's name is empty", `Write BUY GENERAL Keith "James Keith" AT city.`)
	}
	return id, name
}

// FIELD ALL | FIELD DEPOT depot | FIELD force
func parseField(p *parser) {
	if _, ok := p.accept("ALL"); ok {
		p.set(engine.Field{At: p.at(), All: true})
		return
	}
	if _, ok := p.accept("DEPOT"); ok {
		p.set(engine.Field{At: p.at(), Depot: p.depotID()})
		return
	}
	if !p.isForce() {
		p.expected(p.peek(), "ALL, DEPOT and a depot, or a force such as E2", "Write FIELD ALL to keep everything, or FIELD and each force to keep.")
	}
	p.set(engine.Field{At: p.at(), Force: p.force("a force")})
}

// DISBAND force [contents]
func parseDisband(p *parser) {
	f := p.force("the force to disband")
	d := engine.Disband{At: p.at(), Force: f}
	if !p.atEnd() {
		c := p.contents(contentsAllow{troops: true, guns: true, ships: true}, "the units to disband, such as 12 D infantry")
		d.Troops, d.Guns, d.Ships = c.Troops, c.Guns, c.Ships
	}
	p.set(d)
}

// TRANSFER force guns-and-ships TO nation | TRANSFER DEPOT depot TO nation |
// TRANSFER [GENERAL|ADMIRAL] leader TO nation
func parseTransfer(p *parser) {
	t := engine.Transfer{At: p.at()}
	switch {
	case p.acceptKw("DEPOT"):
		t.Depot = p.depotID()
	case p.acceptKw("GENERAL", "ADMIRAL"):
		t.Leader = p.leader()
	case p.isForce():
		t.Force = p.force("a force")
		c := p.contents(contentsAllow{guns: true, ships: true}, "the guns or ships to transfer, such as 2 field-gun or 3 warship", "TO")
		t.Guns, t.Ships = c.Guns, c.Ships
	default:
		t.Leader = p.leader()
	}
	p.keyword("Write TRANSFER … TO nation.", "TO")
	t.To = p.nation()
	p.set(t)
}

func (p *parser) acceptKw(options ...string) bool {
	_, ok := p.accept(options...)
	return ok
}

// TREASURY FROM city amount TO nation (year-end)
func parseTreasury(p *parser) {
	p.keyword("Write TREASURY FROM city amount TO nation.", "FROM")
	c := p.city()
	it := p.peek()
	n := p.number("the crowns to move", 10000000)
	if n == 0 {
		p.fail(it, "moving 0 crowns", "Write how many crowns to move.")
	}
	p.accept("CROWNS")
	p.keyword("Write TREASURY FROM "+c+" "+itoa(n)+" TO nation.", "TO")
	p.set(engine.MoveTreasury{At: p.at(), From: c, Amount: n, To: p.nation()})
}

// TEMPORARY CAPITOL city (year-end)
func parseTemporary(p *parser) {
	p.keyword("Write TEMPORARY CAPITOL city.", "CAPITOL", "CAPITAL")
	p.set(engine.TemporaryCapitol{At: p.at(), City: p.city()})
}

// TREATY "title" PARTIES nation, nation … TEXT, then its text lines, then
// ENDTREATY.
func parseTreaty(p *parser) {
	var title string
	if it := p.peek(); it.typ == itemString {
		p.next()
		title = strings.Join(strings.Fields(it.val), " ")
	} else {
		var words []string
		for p.peek().typ == itemWord && fold(p.peek().val) != "parties" {
			words = append(words, p.next().val)
		}
		title = strings.Join(words, " ")
	}
	if title == "" {
		p.expected(p.peek(), "the treaty's title in quotes", `Write TREATY "Peace of Altburg" PARTIES eisenmark, fromande TEXT.`)
	}
	p.keyword(`Write TREATY "title" PARTIES nation, nation TEXT.`, "PARTIES")
	var parties []game.NationID
	for {
		n := p.nation()
		for _, x := range parties {
			if x == n {
				p.fail(p.items[p.pos-1], fmt.Sprintf("%s is named twice among the parties", n), "Name each party once.")
			}
		}
		parties = append(parties, n)
		if !p.acceptComma() && !p.acceptKw("AND") {
			break
		}
	}
	if !p.lg.isTreaty {
		p.expected(p.peek(), "TEXT after the parties, then the treaty's text on the lines below, then ENDTREATY",
			"Write TEXT at the end of the TREATY line, the text below it, and ENDTREATY on a line of its own.")
	}
	p.keyword("Write TEXT after the parties.", "TEXT")
	text := strings.Trim(strings.Join(p.lg.block, "\n"), "\n")
	if p.lg.blockOpen {
		p.fail(p.peek(), "the treaty's text has no ENDTREATY line: it would run to the end of the sheet",
			"End the treaty's text with a line ENDTREATY.")
	}
	if strings.TrimSpace(text) == "" {
		p.fail(p.peek(), "the treaty has no text", "Write the treaty's clauses between the TREATY line and ENDTREATY.")
	}
	p.st.Treaty = &Treaty{Title: title, Parties: parties, Text: text}
}

// ATTEST treaty
func parseAttest(p *parser) {
	it := p.next()
	if it.typ != itemWord {
		p.expected(it, "a treaty such as T3", "Name the treaty by its ID as printed in your report.")
	}
	p.st.Attest = &Attest{Treaty: strings.ToUpper(it.val)}
}

// REQUEST "text"
func parseRequest(p *parser) {
	p.st.Request = &Request{Text: p.text("request")}
}

// PASSWORD CHANGE new
func parsePassword(p *parser) {
	p.keyword("Write PASSWORD CHANGE and the new password (one word).", "CHANGE")
	f := headerFields(p.lg.text)
	if len(f) < 3 {
		p.expected(p.peek(), "the new password", "Write PASSWORD CHANGE and the new password (one word, no spaces).")
	}
	if len(f) > 3 {
		p.fail(p.items[len(p.items)-1], "a password is one word; read more than one after PASSWORD CHANGE",
			"Write PASSWORD CHANGE and the new password (one word, no spaces).")
	}
	p.pos = len(p.items) - 1
	p.st.Password = &PasswordChange{New: f[2]}
}

// FINAL: these are the nation's last orders for the turn; when every
// nation's sheet in force says so, the turn is resolved before its
// deadline. Nothing follows the word.
func parseFinal(p *parser) { p.st.Final = &Final{} }

// FORECAST ON|OFF: whether the answer to this sheet (and to the nation's
// later sheets, until another FORECAST line) carries the forecast of the
// turn and its map. The game's default is the config's game.forecast.
func parseForecast(p *parser) {
	kw := p.keyword("Write FORECAST ON to have the forecast of your turn in the answer, FORECAST OFF to leave it out.", "ON", "OFF")
	if kw != "" {
		p.st.Forecast = &ForecastChoice{On: kw == "ON"}
	}
}
