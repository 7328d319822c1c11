package daemon

// DeskTitle is the game's name for people (game.name), as the console's
// list of a host's games shows it.
func (g *Game) DeskTitle() string { return g.Config.Game.Name }
