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
//   - Simulation (the default) plays the SYW tabletop rules without a table.
//     Each side stands in a line of slots (cavalry on the wings, infantry in
//     the centre, the smaller side's width plus a slot of overlap each side),
//     with skirmishers ahead, batteries along the line and the rest in
//     reserve. The lines start at long range; the side on attack advances a
//     band (long, medium, close) each bound. Bounds alternate as on the
//     table: the mover rallies, fills gaps from the reserve and advances; the
//     other side fires (2d6 + factors: 7–11 one strength point, 12+ two; the
//     target tests morale on the same score); at close range the mover
//     charges (1d6 + factors against the target's morale index, else
//     melee). Generals steady and rally units and risk death, wounds and
//     capture. After each bound the passive side's army morale is checked by
//     the edition's rule; the day ends at the 16th turn, and the winner is
//     decided by the attack/defend conditions (V4: further days).
//   - LGG adapts La Grande Guerre: few big units, command dice by the
//     commander's experience, actions spent on attacks, bombardment, rally
//     and recovery, d10 combat totals; the day's length from the season.
//
// docs/battles.md explains every parameter and why it has its value.
package battle
