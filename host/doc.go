// Package host serves many games from one process: a club's or a host's
// campaigns, each sealed from the others.
//
// A host folder (folder.go) holds host.yaml — the host's mail server, its
// limits, and each game with the state its referee wants (running, stopped,
// archived) — and a folder per game under games/, each a game folder as
// "pbem init" writes one, with its own config, secrets, scenario and store
// (data/pbem.db). "pbem host add" writes one (add.go).
//
// A Host (host.go) starts one embedded mail server for all the games and
// each game's daemon beside the others (daemon.StartHosted): its own intake
// reading its own address's mailbox, its own outbox and turn runner, its
// own store. Nothing is shared between games but the mail server and the
// process, so one game's turn, a damaged store or a stuck mailbox holds up
// no other game, and a game's mail, dice, archive and reports are the same
// bytes as when the game runs alone. A game whose daemon fails — a panic in
// any of its parts, a store that will not open — is held: logged, its
// referee mailed, the others untouched; "pbem host start NAME" tries again.
//
// Every game has its own address on the server (orders+NAME@); the host's
// one address (orders@) is routed by the sheet's GAME line before the mail
// is stored (router.go), and a sender the router cannot place is answered
// with the games they play in. Each game's limits on mail size and rate are
// applied at SMTP, before anything is stored.
//
// A host whose one address is at a mail provider (host.yaml's
// mail.external, extmail.go) runs no mail server: its router reads the
// provider account's INBOX and moves each mail, unchanged and with one
// IMAP MOVE, into the folder of the game it is for (extroute.go,
// inbox.Filer), where that game's intake reads it; the games send through
// the provider from the shared address.
//
// The host reads host.yaml every few seconds (Options.Reread), so the host
// commands in another process (ops.go: stop, start, archive, remove, add)
// take effect while the other games run. Games and Game give other code (a
// web console) the games and each running game's *daemon.Game.
package host
