package host_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/syw-pbem/pbem/host"
)

// A host folder with two games, and the games as other code (a console)
// lists them: before Start every game is stopped; after it, Game gives
// each running game's *daemon.Game.
func Example() {
	dir, err := os.MkdirTemp("", "host-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := host.Init(dir, "club.example"); err != nil {
		log.Fatal(err)
	}
	scen, _ := filepath.Abs("../scenarios/default")
	for _, g := range []struct{ name, rules string }{{"ypres", "syw-1752"}, {"minden", "syw-v4"}} {
		if _, err := host.AddGame(dir, g.name, host.AddOptions{Scenario: scen, Ruleset: g.rules}); err != nil {
			log.Fatal(err)
		}
	}
	h, err := host.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("orders to", h.Address())
	for _, g := range h.Games() {
		fmt.Println(g.Name, g.Status, filepath.Base(g.Dir))
	}
	_, running := h.Game("ypres")
	fmt.Println("ypres running:", running)
	// Output:
	// orders to orders@club.example
	// minden stopped minden
	// ypres stopped ypres
	// ypres running: false
}
