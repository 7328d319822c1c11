package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/internal/english"
)

// checkClock reports the time in the game's zone and whether the system
// clock is kept synchronised: deadlines are taken from it.
func checkClock(r *report, cfg *config.Config, o Options) {
	now := o.Now()
	loc, err := cfg.Location()
	if err != nil {
		r.fail("time zone", ClassConfig, fmt.Sprintf("game.timezone %q: %v", cfg.Game.Timezone, err), "Give an IANA zone name such as Europe/London.")
	} else {
		r.ok("time zone", "%s: it is now %s there (%s UTC); deadlines are set and shown in this zone",
			cfg.Game.Timezone, now.In(loc).Format("Mon 2 Jan 2006 15:04 MST"), now.UTC().Format("15:04"))
	}
	synced, known := clockSynchronised()
	switch {
	case !known:
		r.warn("clock", "cannot tell whether the system clock is synchronised on this system",
			"Keep it synchronised with NTP (deadlines and the time on replies come from it).")
	case !synced:
		r.warn("clock", "the kernel says the system clock is not synchronised (no NTP)",
			"Turn on time synchronisation (timedatectl set-ntp true, or chrony/ntpd): deadlines are taken from this clock.")
	default:
		r.ok("clock", "the system clock is synchronised (NTP)")
	}
}

// checkScenario opens the game without its store: the map validates and
// the scenario loads for the ruleset.
func checkScenario(ctx context.Context, r *report, cfg *config.Config) {
	g, err := daemon.Open(ctx, cfg, &daemon.Options{NoStore: true})
	if err != nil {
		class := ClassRuntime
		var ce *daemon.ConfigError
		if errors.As(err, &ce) {
			class = ClassConfig
		}
		r.fail("map and scenario", class, err.Error(), fmt.Sprintf("Fix the scenario in %s (\"pbem map validate\" lists the map's problems).", cfg.ScenarioDir()))
		return
	}
	defer g.Close()
	st, err := g.State(ctx)
	if err != nil {
		r.fail("map and scenario", ClassRuntime, err.Error(), "")
		return
	}
	where := cfg.ScenarioDir()
	if daemon.UsesBuiltInScenario(cfg) {
		where = "the default scenario (built into pbem; there is no " + where + ")"
	}
	r.ok("map and scenario", "%s validates: %s, %s, %s, %s", where, g.Map.Name, english.Count(len(st.Nations), "nation"), english.Count(len(st.Forces), "force"), g.Rules.Name)
}

// checkDataDir checks that the data folder is (or can be made) writable.
func checkDataDir(r *report, cfg *config.Config) {
	dir := cfg.Path(cfg.DataDir)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		parent := filepath.Dir(dir)
		if err := writable(parent); err != nil {
			r.fail("data folder", ClassRuntime, fmt.Sprintf("%s does not exist, and %s is not writable: %v", dir, parent, err),
				"Create the folder (mkdir -p) with write permission for pbem's user, or set data_dir to one.")
			return
		}
		r.ok("data folder", "%s does not exist yet; pbem creates it at the first start (%s is writable)", dir, parent)
		return
	case err != nil:
		r.fail("data folder", ClassRuntime, err.Error(), "Set data_dir to a folder pbem's user can write.")
		return
	case !st.IsDir():
		r.fail("data folder", ClassConfig, dir+" is not a folder", "Set data_dir to a folder.")
		return
	}
	if err := writable(dir); err != nil {
		r.fail("data folder", ClassRuntime, fmt.Sprintf("%s is not writable: %v", dir, err), "Give pbem's user write permission on it (the store and the mail live there).")
		return
	}
	r.ok("data folder", "%s is writable", dir)
}

// writable creates and removes a file in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".pbem-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
