// Package gamecheck checks the invariants of a played game, turn by turn:
// the property test TestGameInvariants and the tools it is made of.
//
// The algorithm. Play plays a game in memory as the daemon plays it by mail,
// without the mail: the demo's scripted players (demo.Script) write each
// nation's sheet from its own View, the order checker answers it
// (parser.Check; a sheet written with a mistake is corrected, refused lines
// are struck out), treaties and attestations go into the ledger at once, the
// referee approves every request, the engine resolves the accepted orders,
// and every nation's report model, its JSON and the referee's model are
// built (reports.Build, BuildReferee; no PDF). Two games are played: the
// default scenario's year (the demo's set pieces, then the general rule,
// the year-end buy included) and enginegen's 40-nation game (the
// generator's first orders, written out as sheets; then the general rule).
//
// Check then reads one resolved turn — the state before and after, the
// events, the sheets with the checker's answers, every report model — and
// returns each invariant broken as a Fault that names the game, seed,
// edition, battle model, turn, nation and the fact:
//
//   - money: every crown lies in exactly one treasury (its holder's, the
//     city's controller: engine.TreasuryHolder) in every report, each
//     Treasury.Total is the sum of its cities, the referee's treasuries are
//     the nations', and each nation's holding changed by the sum of its
//     ledger's lines and of its money events;
//   - forces: no force, figure, gun, ship or leader appears or vanishes
//     without an event naming it, and a nation grows only by an event that
//     brings what it gained;
//   - orders: an order acknowledged without a warning shows its effect in the
//     state or its event, or was stopped by an enemy acting on its force in
//     its step or before (a contact, a battle, a siege, the loss of the force)
//     and the nation's report says why; anything else is the checker and the
//     engine disagreeing, or an order dropped;
//   - reports: a nation's report agrees with the referee's on its own forces
//     and the cities, its JSON reads back as the model, and every sentence it
//     is told about an event carries the referee's numbers or roundings of
//     them (fog may round, never falsify);
//   - statuses: the controller and siege status each report prints are the
//     state's, a siege recorded is a city masked or besieged by a nation
//     other than its holder, and the last siege status or capture the events
//     announce is the state's;
//   - labels: the checker's answers are for the turn resolved, each report for
//     the next turn with the resolved one named, last-seen intelligence no
//     newer than the turn.
//
// TestDemoBattlesReadAsBattles reads the demo games' land battles as a
// referee would sign them (Battle.Read): no field battle against a garrison
// behind its walls, no army of twice the enemy's strength broken after
// losing fewer than it inflicted unless its commander fell while attached,
// and repulses or battles of more than one day among them; it logs the
// counts per edition and model (BattleCounts).
//
// A fault that belongs to an open issue another piece of work owns is
// marked Known with the issue; the test logs those and fails on the others.
// The mutation tests show that Check sees the faults it is for: a crown
// counted in two treasuries or appearing from nowhere, an acknowledged order
// dropped or refused with no enemy to blame.
package gamecheck
