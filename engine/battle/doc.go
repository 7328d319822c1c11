// Package battle fights the campaign's land battles and applies the
// post-battle rules. It is pure like the engine: no I/O, no clock, no
// globals that change; every die comes from the Dice the engine passes in
// (the engine's seeded, recording dice), so the same setup and dice give the
// same battle.
//
// The engine's battle step builds a Setup (the two blocs of allied nations,
// their forces formed into units by FormUnits, the hex's terrain and city,
// fieldworks, the senior generals and their staff, supply and exhaustion,
// national traits, and the setup advantage from Advantages), asks the
// ruleset's Model to Fight it, and hands the Result to Aftermath, which
// applies each edition's regaining, capture of the surrounded, pursuit, gun
// losses, exhaustion, experience and field promotions to the forces. A
// Result is plain data with a JSON form, so a battle the referee fought on
// the table goes through the same Aftermath.
//
// Two models implement Model:
//
//   - Simulation (the default) plays the SYW tabletop rules (001) without a
//     table: slots along the front, a battalion's frontage each, and in each
//     the inches between the two sides' units. Each side draws up in two
//     lines with skirmishers ahead and batteries along the line; cover is the
//     ground's — the positions of a defender's line, rolled by the hex's
//     terrain, the city's front, fieldworks by their length — so the unit on
//     a position has it and the unit that leaves it does not. Bounds follow
//     001's sequence: the mover rallies (its generals attaching to rally, the
//     only time but leading a charge that a general is with a unit and at
//     risk), routs run, the mover moves (a side on attack closes at 001's
//     rates, striking where the ground is open and sending in no more than
//     one volley could shake without breaking it), the other side fires
//     (2d6 and factors; the target tests its morale), the mover charges (the
//     charged unit stands, counter-charges or evades, as 001 6.2 lets it)
//     and melees.
//     After each bound the passive side's army morale is checked by the
//     edition's rule; after the 8th turn a losing attacker calls its attack
//     off; the day ends at the 16th turn, V4 goes on for more days (or a
//     side takes its free withdrawal: Result.Withdrawn).
//   - LGG adapts La Grande Guerre (002): a dozen or so big units, command
//     dice by the commander's experience, actions spent on attacks,
//     bombardment, rally and recovery, d10 combat totals; the day's length
//     from the season.
//
// Both are calibrated by one test over 500 seeds a cell
// (calibration_test.go), whose table docs/battles.md carries.
//
// docs/battles.md explains every parameter and why it has its value.
package battle
