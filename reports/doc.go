// Package reports builds what players and the referee read after each turn:
// each nation's report (a PDF, a plain-text mail body and a JSON view), the
// starting report of the opening position, and the referee's master report.
//
// # Fog of war
//
// A nation's report is a Model, and Build is the only way to make one: it
// takes engine.View of the state and engine.EventsFor of the turn's events
// for that nation, and nothing else of the game (besides the map, the
// ruleset, the calendar, the deadline and the referee's rulings that are
// public or name the nation). A foreign force's ID is kept only when one of
// the nation's events named it (a contact, a scouting report, an overrun), or
// the nation scouted it; its contents only as far as the scouting level
// reached. Last-seen intelligence is carried from the nation's previous
// report, never from the state. The PDF, the text and the JSON are all
// rendered from the Model alone, so they cannot show more than it holds.
//
// # Events in words
//
// Every event kind is told in words by one entry of the event text registry
// (EventText, in the family files text_orders.go, text_fighting.go,
// text_sieges.go, text_yearend.go and text_trossian.go): its sentence for
// a nation that saw it (the copy engine.EventFor gives the nation), its
// sentence for the referee (the third person, every side named and
// whole), and its category — the Section of the report that tells it, the
// heading of its place, the set piece it belongs to, its line on the
// referee's first page. Narrate, Build, BuildReferee, Sentence and
// EventLines read the registry and nothing else; the battles are told as
// stories by package reports/narrative, reached through their kind's
// Story. TestEventTextComplete holds every registered kind to it.
//
// # Rendering
//
// Render draws the PDF with fpdf and the embedded DejaVu fonts: a cover,
// the masked map on a landscape page (reports/mapdraw with provinces tinted
// by controller, counters, battle marks and a legend), a page zoomed round
// the nation's forces (at most 17 × 13 hexes, so hex numbers read on A4),
// the forces and fleets tables, scouting and foreign forces, narratives,
// treasury, treaties and rulings, and the order template. Text and JSON
// render the same model for the mail body and the attachment.
//
// # Determinism
//
// Every list in a Model is in the engine's canonical order or event order;
// maps are only looked up or used as sets. PDFs are stamped with a fixed
// creation date (Options.CreationDate, default mapdraw.DefaultCreationDate)
// and a sorted catalog, so the same model gives the same bytes.
package reports
