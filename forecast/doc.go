// Package forecast says what a nation's order sheet would do this turn, for
// the answer to the sheet: where each force ends up and why it stops, the
// supply state it will be in and the attrition that brings, fleets' voyages
// and their cargo, landings, sieges and what they need, and the crowns the
// sheet spends against the treasury — with a map of the planned paths.
//
// The algorithm is the engine's own: Make turns the nation's view
// (engine.View, the one fog of war) into a State (engine.StateOfView: its
// own forces, depots, treasuries and every city's public standing) and
// resolves the turn on it with the nation's orders alone
// (engine.ResolveSteps), as if no foreign force moved. Nothing here
// re-implements a rule: paths, MP, stops, supply, embarking and landing,
// captures and costs are read off the events and the state that resolution
// gives. What the engine would decide with dice is told as odds from the
// engine's tables (engine/odds.go), never as the one result its dice happened
// to give. What others decide is told as a risk, from what the view holds of
// them:
//
//   - contact: a known foreign force stands in a hex a force enters or ends
//     in (or a fleet's sea area): "contact likely";
//   - supply: the supply step is run a second time with every hostile
//     foreign force the view shows added where it stands, at the least
//     strength its size class allows (exact where scouting counted it); a
//     force supplied in the first run and not in the second has a line
//     that those forces cut unless they move;
//   - sieges: the garrison is what the view holds of the forces in the city.
//
// A forecast is built only from a *engine.NationView and the nation's
// orders, so it cannot name what the nation may not know. The picture
// (Picture) is the reports' map drawing in the nation's fog with the
// planned paths drawn by mapdraw's Options.Paths.
package forecast
