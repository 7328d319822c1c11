package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestDeskActs: the console's acts are kept newest first, only the last
// few for the page, and the log the first console kept under a meta key
// moves into the table when the file is upgraded (migration 11).
func TestDeskActs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pbem.db")
	old, err := open(ctx, path, nil, migrations[:10])
	if err != nil {
		t.Fatal(err)
	}
	if err := old.CreateGame(ctx, Game{ID: "syw", Name: "SYW", Ruleset: "syw-1752", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	at := t0.Add(time.Hour)
	if err := old.SetMeta(ctx, "desk.log.syw", `[{"At":"`+at.Format(time.RFC3339Nano)+`","Who":"referee","From":"127.0.0.1","Text":"TURN 1\nDEADLINE EXTEND 2d\n","Answer":["DEADLINE EXTEND 2d — done"],"OK":true}]`); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, ok, _ := db.GetMeta(ctx, "desk.log.syw"); ok {
		t.Error("the console's log is still under its meta key after the upgrade")
	}
	moved := DeskAct{At: at, Who: "referee", From: "127.0.0.1", Text: "TURN 1\nDEADLINE EXTEND 2d\n", Answer: []string{"DEADLINE EXTEND 2d — done"}, OK: true}
	acts, err := db.DeskActs(ctx, "syw")
	if err != nil || len(acts) != 1 || !reflect.DeepEqual(acts[0], moved) {
		t.Fatalf("after the upgrade: %v %+v, want %+v", err, acts, moved)
	}
	for i := range 5 {
		a := DeskAct{At: at.Add(time.Duration(i+1) * time.Minute), Who: "referee", Text: "RESOLVE NOW\n", Answer: []string{"done"}, OK: i%2 == 0}
		if err := db.AddDeskAct(ctx, "syw", a, 3); err != nil {
			t.Fatal(err)
		}
	}
	acts, err = db.DeskActs(ctx, "syw")
	if err != nil || len(acts) != 3 {
		t.Fatalf("kept %d acts (%v), want the last 3", len(acts), err)
	}
	if want := at.Add(5 * time.Minute); !acts[0].At.Equal(want) || !acts[0].OK {
		t.Errorf("the newest act first: %+v, want at %v", acts[0], want)
	}
}
