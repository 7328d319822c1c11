package console

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// BenchmarkDeskPage is the desk of a live game (the default scenario, one
// sheet in, one request) built and sent: what a reload costs.
func BenchmarkDeskPage(b *testing.B) {
	l := startLiveGame(b)
	l.sendRequest()
	r := newRigFor(b, New(Single(l.d.Game), nil))
	r.signInWith(liveRefereePassword)
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := r.get("/g/syw/")
		if resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}

// BenchmarkDeskView is the game read for the desk (daemon.Game.Desk), what
// the page's script asks for every 15 seconds.
func BenchmarkDeskView(b *testing.B) {
	l := startLiveGame(b)
	l.sendRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.d.Game.Desk(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMapImage is the referee's map image of the opening drawn.
func BenchmarkMapImage(b *testing.B) {
	l := startLiveGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.d.Game.DeskMapSVG(context.Background(), 0, "referee"); err != nil {
			b.Fatal(err)
		}
	}
}

// hundredGames is a host's console of 100 made-up games, game000 to
// game099, each with its own referee password.
func hundredGames(b *testing.B) *rig {
	hg := &hostGames{}
	var gs []Game
	for i := range 100 {
		g := newFakeGame()
		g.id, g.password = fmt.Sprintf("game%03d", i), fmt.Sprintf("referee-%03d", i)
		gs = append(gs, g)
	}
	hg.set(gs)
	return newRigFor(b, New(hg, nil))
}

// BenchmarkHostList is the list of a host's 100 games built and sent.
func BenchmarkHostList(b *testing.B) {
	r := hundredGames(b)
	b.ReportAllocs()
	for b.Loop() {
		if resp, _ := r.get("/"); resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}

// BenchmarkHostGameLookup is the page the desk's script asks for (its
// version) of the last of a host's 100 games: the console's cost of
// finding a game among many, on top of the game's own reading.
func BenchmarkHostGameLookup(b *testing.B) {
	r := hundredGames(b)
	_, page := r.get("/g/game099/login")
	if resp, _ := r.post("/g/game099/login", url.Values{"csrf": {r.csrf(page)}, "password": {"referee-099"}}); resp.StatusCode != http.StatusSeeOther {
		b.Fatal(resp.Status)
	}
	b.ReportAllocs()
	for b.Loop() {
		if resp, _ := r.get("/g/game099/version"); resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}
