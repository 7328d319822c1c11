package console

import (
	"context"
	"net/http"
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
