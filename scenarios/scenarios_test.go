package scenarios_test

import (
	"reflect"
	"testing"

	"github.com/syw-pbem/pbem/scenario"
	"github.com/syw-pbem/pbem/scenarios"
)

// TestBuiltInDefaultIsTheFolder: the default scenario built into pbem loads
// to the same starting position as the scenarios/default folder.
func TestBuiltInDefaultIsTheFolder(t *testing.T) {
	disk, err := scenario.Load("default")
	if err != nil {
		t.Fatal(err)
	}
	built, err := scenario.LoadFS(scenarios.Default(), scenarios.DefaultDir)
	if err != nil {
		t.Fatalf("the built-in scenario does not load: %v", err)
	}
	if built.Name != disk.Name || !reflect.DeepEqual(built.Nations, disk.Nations) || !reflect.DeepEqual(built.Map.Nations, disk.Map.Nations) {
		t.Errorf("the built-in scenario differs from scenarios/default")
	}
}

func TestIsDefault(t *testing.T) {
	for dir, want := range map[string]bool{
		"scenarios/default": true, "./scenarios/default/": true, "/home/ref/game/scenarios/default": true,
		"scenario": false, "myscenarios/default": false, "scenarios/other": false,
	} {
		if got := scenarios.IsDefault(dir); got != want {
			t.Errorf("IsDefault(%q) = %v, want %v", dir, got, want)
		}
	}
}
