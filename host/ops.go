package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
)

// The host commands that change a game's state. Each changes host.yaml
// (under the folder's lock); a running host acts on it at its next read
// (Options.Reread), and the commands that must not touch a game still
// served (archive, remove) wait until no process runs it.

// change applies fn to the named game's entry and writes host.yaml.
func change(dir, name string, fn func(e *GameEntry) error) error {
	unlock, err := lockFolder(dir)
	if err != nil {
		return err
	}
	defer unlock()
	s, err := ReadSettings(dir)
	if err != nil {
		return err
	}
	e := s.Games[name]
	if e == nil {
		return fmt.Errorf("the host has no game %s (pbem host list shows its games)", name)
	}
	if err := fn(e); err != nil {
		return err
	}
	return WriteSettings(dir, s)
}

// StopGame asks the host to stop serving a game; its mail waits in its
// mailbox until it is started again.
func StopGame(dir, name string) error {
	return change(dir, name, func(e *GameEntry) error {
		if e.State == StateArchived {
			return fmt.Errorf("game %s is archived", name)
		}
		e.State = StateStopped
		return nil
	})
}

// StartGame asks the host to serve a game again: a stopped one, or one held
// by a failure (started again even if host.yaml says running already).
func StartGame(dir, name string) error {
	return change(dir, name, func(e *GameEntry) error {
		if e.State == StateArchived {
			return fmt.Errorf("game %s is archived: its folder is in archive/%s; move it back to games/%s and set its state to stopped in host.yaml to serve it again", name, name, name)
		}
		e.State = StateRunning
		e.Restart++
		return nil
	})
}

// WaitStopped waits until no process serves the game (its store's record
// of runs says so), or ctx ends.
func WaitStopped(ctx context.Context, dir, name string) error {
	s, err := ReadSettings(dir)
	if err != nil {
		return err
	}
	path := ConfigPath(dir, name, s.Games[name])
	cfg, err := config.Load(path)
	if err != nil {
		return nil // a game whose config does not load is served by no one
	}
	if _, err := os.Stat(cfg.StorePath()); err != nil {
		return nil // never created
	}
	for {
		// The running host's word (a game it is still starting has no
		// run recorded yet), then the store's.
		sf, live := readStatus(dir)
		busy := live && (sf.Games[name].Status == StatusRunning || sf.Games[name].Status == StatusStarting)
		running, err := gameRunning(ctx, cfg)
		if err != nil {
			return err
		}
		if !busy && !running {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("game %s is still served (is \"pbem run --host\" reading host.yaml?): %w", name, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func gameRunning(ctx context.Context, cfg *config.Config) (bool, error) {
	g, err := daemon.Open(ctx, cfg, nil)
	if err != nil {
		return false, err
	}
	defer g.Close()
	return g.Running(ctx)
}

// ArchiveGame stops a game, writes its archive ("pbem export") to
// archive/NAME.jsonl, and moves its folder to archive/NAME. It returns the
// archive file and how many turn records it holds.
func ArchiveGame(ctx context.Context, dir, name string) (string, int, error) {
	if err := StopGame(dir, name); err != nil {
		return "", 0, err
	}
	if err := WaitStopped(ctx, dir, name); err != nil {
		return "", 0, err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return "", 0, err
	}
	defer unlock()
	s, err := ReadSettings(dir)
	if err != nil {
		return "", 0, err
	}
	e := s.Games[name]
	if e == nil || e.State == StateArchived {
		return "", 0, fmt.Errorf("game %s is not on the host, or archived already", name)
	}
	cfg, err := config.Load(ConfigPath(dir, name, e))
	if err != nil {
		return "", 0, fmt.Errorf("game %s: %w", name, err)
	}
	out := filepath.Join(dir, "archive", name+".jsonl")
	n := 0
	if _, err := os.Stat(cfg.StorePath()); err == nil {
		g, err := daemon.Open(ctx, cfg, nil)
		if err != nil {
			return "", 0, err
		}
		n, err = g.ExportFile(ctx, out)
		g.Close()
		if err != nil {
			return "", 0, fmt.Errorf("exporting game %s: %w", name, err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "archive"), 0o755); err != nil {
		return "", 0, err
	}
	if err := os.Rename(GameDir(dir, name), ArchiveDir(dir, name)); err != nil {
		return "", 0, err
	}
	e.State = StateArchived
	return out, n, WriteSettings(dir, s)
}

// RemoveGame takes a stopped or archived game off the host: its folder
// (store, secrets, scenario) is deleted and its entry leaves host.yaml.
// An archive written by ArchiveGame stays. A running game is refused:
// stop or archive it first.
func RemoveGame(ctx context.Context, dir, name string) error {
	s, err := ReadSettings(dir)
	if err != nil {
		return err
	}
	e := s.Games[name]
	if e == nil {
		return fmt.Errorf("the host has no game %s (pbem host list shows its games)", name)
	}
	if e.State == StateRunning {
		return fmt.Errorf("game %s is running: stop it (pbem host stop %s) or archive it (pbem host archive %s) first", name, name, name)
	}
	if err := WaitStopped(ctx, dir, name); err != nil {
		return err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return err
	}
	defer unlock()
	if s, err = ReadSettings(dir); err != nil {
		return err
	}
	if e = s.Games[name]; e == nil {
		return nil
	}
	if err := os.RemoveAll(filepath.Dir(ConfigPath(dir, name, e))); err != nil {
		return err
	}
	delete(s.Games, name)
	return WriteSettings(dir, s)
}

// Listed is one game as "pbem host list" shows it: host.yaml's state, and
// what a running host says it is doing.
type Listed struct {
	Name    string
	State   string // host.yaml's
	Status  Status // the running host's; "" when no host runs
	Err     string
	Address string
	Ruleset string
}

// List reads the host folder: every game, with what the running host (if
// any) reports of it.
func List(dir string) ([]Listed, bool, error) {
	s, err := ReadSettings(dir)
	if err != nil {
		return nil, false, err
	}
	sf, live := readStatus(dir)
	var out []Listed
	for _, name := range s.Names() {
		e := s.Games[name]
		l := Listed{Name: name, State: e.State}
		if cfg, err := config.Load(ConfigPath(dir, name, e)); err == nil {
			l.Address, l.Ruleset = s.ownAddress(name, cfg), cfg.Game.Ruleset
		} else {
			l.Err = "config: " + err.Error()
		}
		if gs, ok := sf.Games[name]; ok && live {
			l.Status, l.Err = gs.Status, gs.Err
		}
		out = append(out, l)
	}
	return out, live, nil
}
