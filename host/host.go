package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/syw-pbem/pbem/config"
	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/mailserver"
)

// Options tune a Host. The zero value (or nil) means the defaults.
type Options struct {
	// Logger receives the detail, each game's lines with game=NAME.
	// Default slog.Default().
	Logger *slog.Logger
	// Now is the clock of the router's rate limits and of each game's
	// daemon (unless GameOptions sets another). Default time.Now.
	Now func() time.Time
	// Reread is how often the host reads host.yaml again to start, stop
	// and add games. Default 2s.
	Reread time.Duration
	// GameOptions, when set, gives a game's daemon options (tests: a
	// clock, a fault); the host sets their Logger when it is nil.
	GameOptions func(name string) *daemon.Options
}

// Status is what a game on a running host is doing.
type Status string

// The statuses of a game.
const (
	StatusStarting Status = "starting" // being opened (its store checked, created on first start)
	StatusRunning  Status = "running"  // served: its intake, outbox and turn runner run
	StatusStopped  Status = "stopped"  // not served, as the referee asked (host.yaml)
	StatusHeld     Status = "held"     // stopped by a failure (a panic, a damaged store); its referee was told
	StatusArchived Status = "archived" // archived: its folder is under archive/
)

// GameInfo describes one game of the host.
type GameInfo struct {
	Name    string         // its name and game.id
	Status  Status         // what it is doing
	Err     string         // why it is held ("" otherwise)
	Since   time.Time      // when it took its status
	Address string         // its own order address ("" if its config does not load)
	Dir     string         // its folder
	Config  *config.Config // its config (nil if it does not load)
}

// Host serves every game of a host folder from one process: one embedded
// mail server, and each game's daemon beside the others. Open it, Start
// it, Run it until the context ends, and Close it. Its methods are safe
// for concurrent use.
type Host struct {
	// Dir is the host folder.
	Dir string

	opts   Options
	log    *slog.Logger
	mail   *mailserver.Server
	router *router
	ext    *extMail // the router of an address at a provider (mail.external); nil otherwise

	mu       sync.Mutex
	settings *Settings
	games    map[string]*hosted
	accounts map[string]accountOwner // user → the password the first game gave it
	// mailWarned is the changed mail block last warned of.
	mailWarned string
	runCtx     context.Context
	wg         sync.WaitGroup
	// starting admits as many games' starts at once as there are CPUs: a
	// game whose store is slow to open delays no other's.
	starting chan struct{}
}

type accountOwner struct{ game, password string }

// hosted is one game's place in the host.
type hosted struct {
	name    string
	cfg     *config.Config
	status  Status
	err     string
	since   time.Time
	restart int // the host.yaml restart count it was last started at
	// cfgWarned is the config's error last logged for a running game.
	cfgWarned string
	// loaded is the config last loaded, from the file as loadedStamp
	// describes it (its path, size and time).
	loaded      *config.Config
	loadedStamp string
	d           *daemon.Daemon
	cancel      context.CancelFunc
	done        chan struct{}
}

// Open reads the host folder's host.yaml. It starts nothing.
func Open(dir string, opts *Options) (*Host, error) {
	s, err := ReadSettings(dir)
	if err != nil {
		return nil, err
	}
	h := &Host{Dir: dir, settings: s, games: map[string]*hosted{}, accounts: map[string]accountOwner{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
	}
	if h.opts.Now == nil {
		h.opts.Now = time.Now
	}
	if h.opts.Reread <= 0 {
		h.opts.Reread = 2 * time.Second
	}
	h.log = h.opts.Logger
	h.starting = make(chan struct{}, max(2, runtime.NumCPU()))
	h.router = newRouter(s.Mail.Address, h.opts.Now)
	return h, nil
}

// Start starts the host's mail server and every game host.yaml has
// running. A game that cannot start (its config, a damaged store) is held,
// its referee told, and the others start all the same; only the mail
// server failing to start is an error.
func (h *Host) Start(ctx context.Context) error {
	s := h.settings
	if s.Mail.External != nil {
		if err := h.startExternal(ctx); err != nil {
			return fmt.Errorf("the host's address at the provider (mail.external): %w", err)
		}
		h.mu.Lock()
		h.runCtx = context.WithoutCancel(ctx)
		h.mu.Unlock()
		h.reconcile(ctx, s).Wait()
		return nil
	}
	hostPW, err := os.ReadFile(filepath.Join(h.Dir, accountSecretRel(s.Mail.Address)))
	if err != nil {
		return fmt.Errorf("the host address's password: %w", err)
	}
	h.mail, err = mailserver.New(&mailserver.Options{
		Dir:             filepath.Join(h.Dir, "data", "mail"),
		Domain:          s.Mail.Domain,
		AuthServID:      s.Mail.Domain,
		IMAPAddr:        s.Mail.IMAPListen,
		SMTPAddr:        s.Mail.SMTPListen,
		Accounts:        []mailserver.Account{{User: s.Mail.Address, Password: strings.TrimSpace(string(hostPW))}},
		MaxMessageBytes: inbox.DefaultMaxRawBytes,
		Logger:          h.log.With("part", "mailserver"),
		Route:           h.router.Route,
	})
	if err != nil {
		return err
	}
	if err := h.mail.Start(ctx); err != nil {
		return fmt.Errorf("starting the host's mail server: %w (another \"pbem run\" may use %s or %s)", err, s.Mail.IMAPListen, s.Mail.SMTPListen)
	}
	h.mu.Lock()
	h.runCtx = context.WithoutCancel(ctx)
	h.mu.Unlock()
	h.reconcile(ctx, s).Wait()
	return nil
}

// Address is the host's one order address (host.yaml's mail.address).
func (h *Host) Address() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.settings.Mail.Address
}

// External is the host's address at a provider (host.yaml's
// mail.external); nil when the host runs its own mail server.
func (h *Host) External() *ExternalMail {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.settings.Mail.External
}

// Mail is the host's mail server (nil before Start, and with the
// host's address at a provider).
func (h *Host) Mail() *mailserver.Server { return h.mail }

// Run reads host.yaml every Options.Reread, starting, stopping and adding
// games as it says, until ctx ends; then it stops every game.
func (h *Host) Run(ctx context.Context) error {
	t := time.NewTicker(h.opts.Reread)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			h.stopAll()
			return nil
		case <-t.C:
			h.Reload(ctx)
		}
	}
}

// Reload reads host.yaml now and acts on it (Run does so every
// Options.Reread).
func (h *Host) Reload(ctx context.Context) {
	s, err := ReadSettings(h.Dir)
	if err != nil {
		h.log.Error("reading host.yaml; keeping the games as they are", "err", err)
		return
	}
	h.reconcile(ctx, s)
}

// reconcile brings the games to the states s asks for. The games it starts
// start in the background; the WaitGroup tells when they have.
func (h *Host) reconcile(ctx context.Context, s *Settings) *sync.WaitGroup {
	var launched sync.WaitGroup
	h.mu.Lock()
	if old := h.settings; old != nil && old != s && !sameMail(old.Mail, s.Mail) {
		// The mail server (or the provider's router) runs as it started:
		// a change of host.yaml's mail block takes effect at the next start.
		if h.mailWarned != fmt.Sprint(s.Mail) {
			h.mailWarned = fmt.Sprint(s.Mail)
			h.log.Warn("host.yaml's mail settings changed; they take effect when the host is started again")
		}
		s.Mail = old.Mail
	}
	h.settings = s
	h.mu.Unlock()
	for name, g := range h.snapshot() {
		if e := s.Games[name]; e == nil || e.State != StateRunning {
			if g.status == StatusRunning {
				h.stop(name)
			}
		}
	}
	var routes []*routeGame
	for _, name := range s.Names() {
		e := s.Games[name]
		h.mu.Lock()
		g := h.games[name]
		if g == nil {
			g = &hosted{name: name, status: StatusStopped, restart: -1}
			h.games[name] = g
		}
		h.mu.Unlock()
		if e.State == StateArchived {
			h.setStatus(g, StatusArchived, "")
			continue
		}
		cfg, err := h.loadConfig(g, ConfigPath(h.Dir, name, e))
		if err == nil && cfg.Game.ID != name {
			err = fmt.Errorf("its game.id is %s, not its name %s: set game.id to %s", cfg.Game.ID, name, name)
		}
		// The game's status as it is now; only this loop starts a game, so
		// it can only have moved on from starting since.
		h.mu.Lock()
		status, restart := g.status, g.restart
		retry := restart != e.Restart
		if status != StatusRunning && status != StatusStarting {
			g.restart = e.Restart
		}
		h.mu.Unlock()
		active := status == StatusRunning || status == StatusStarting
		if err != nil && active {
			// Served with the config it started with; the new one is
			// refused until it loads (a stop and start picks it up).
			h.mu.Lock()
			if g.cfgWarned != err.Error() { // once, not at every read
				g.cfgWarned = err.Error()
				h.log.Warn("the game's config no longer loads; the game runs on as it started", "game", name, "err", err)
			}
			if g.cfg != nil {
				routes = append(routes, s.routeGameOf(name, g.cfg))
			}
			h.mu.Unlock()
			continue
		}
		if err != nil {
			if status != StatusHeld || retry {
				h.hold(g, fmt.Errorf("its config: %w", err))
			}
			continue
		}
		if !active {
			h.mu.Lock()
			g.cfg = cfg // a running game keeps the config it started with
			h.mu.Unlock()
		}
		routes = append(routes, s.routeGameOf(name, cfg))
		if e.State == StateRunning && !active && (status != StatusHeld || retry) {
			h.setStatus(g, StatusStarting, "")
			launched.Add(1)
			h.wg.Add(1)
			go func() {
				defer h.wg.Done()
				defer launched.Done()
				h.starting <- struct{}{}
				defer func() { <-h.starting }()
				h.start(ctx, g, cfg)
			}()
		}
		if e.State == StateStopped && status == StatusHeld {
			h.setStatus(g, StatusStopped, "")
		}
	}
	h.router.set(routes)
	return &launched
}

// loadConfig loads a game's config, or gives the one loaded last when the
// file has not changed since (a host of a hundred games rereads host.yaml
// every two seconds, not a hundred configs).
func (h *Host) loadConfig(g *hosted, path string) (*config.Config, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	stamp := fmt.Sprintf("%s %d %d", path, fi.Size(), fi.ModTime().UnixNano())
	h.mu.Lock()
	if g.loaded != nil && g.loadedStamp == stamp {
		cfg := g.loaded
		h.mu.Unlock()
		return cfg, nil
	}
	h.mu.Unlock()
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	g.loaded, g.loadedStamp = cfg, stamp
	h.mu.Unlock()
	return cfg, nil
}

// snapshot copies the games map.
func (h *Host) snapshot() map[string]hosted {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]hosted, len(h.games))
	for n, g := range h.games {
		out[n] = *g
	}
	return out
}

// start starts one game's daemon on the host's server.
func (h *Host) start(ctx context.Context, g *hosted, cfg *config.Config) {
	log := h.log.With("game", g.name)
	if ctx.Err() != nil {
		h.setStatus(g, StatusStopped, "")
		return
	}
	if cfg.Mail.Mode == config.ModeEmbedded {
		if err := h.addAccounts(ctx, g.name, cfg); err != nil {
			h.hold(g, err)
			return
		}
	}
	o := &daemon.Options{}
	if h.opts.GameOptions != nil {
		if x := h.opts.GameOptions(g.name); x != nil {
			*o = *x
		}
	}
	if o.Logger == nil {
		o.Logger = log
	}
	if o.Now == nil && h.opts.Now != nil {
		o.Now = h.opts.Now
	}
	var d *daemon.Daemon
	var err error
	if h.mail == nil { // the host's address is at a provider: so is the game's
		d, err = startAlone(ctx, cfg, o)
	} else {
		d, err = startHosted(ctx, cfg, o, h.mail)
	}
	if err != nil && ctx.Err() != nil {
		h.setStatus(g, StatusStopped, "") // the host is stopping
		return
	}
	if err != nil {
		h.hold(g, fmt.Errorf("starting: %w", err))
		return
	}
	h.mu.Lock()
	runCtx, cancel := context.WithCancel(h.runCtx)
	g.cfg, g.d, g.cancel, g.done = cfg, d, cancel, make(chan struct{})
	done := g.done
	h.mu.Unlock()
	h.setStatus(g, StatusRunning, "")
	log.Info("game started", "address", cfg.Mail.Address)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer close(done)
		err := runGuarded(runCtx, d)
		d.Close()
		h.mu.Lock()
		g.d = nil
		h.mu.Unlock()
		if runCtx.Err() != nil && err == nil {
			h.setStatus(g, StatusStopped, "")
			log.Info("game stopped")
			return
		}
		if err == nil {
			err = errors.New("its daemon stopped by itself")
		}
		h.hold(g, err)
	}()
}

// startHosted is daemon.StartHosted with any panic in it turned into an
// error.
func startHosted(ctx context.Context, cfg *config.Config, o *daemon.Options, ms *mailserver.Server) (d *daemon.Daemon, err error) {
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return daemon.StartHosted(ctx, cfg, o, ms)
}

// startAlone is daemon.Start with any panic in it turned into an error: a
// game in external mode, reaching its provider itself.
func startAlone(ctx context.Context, cfg *config.Config, o *daemon.Options) (d *daemon.Daemon, err error) {
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return daemon.Start(ctx, cfg, o)
}

// runGuarded is d.Run with any panic turned into an error (the daemon
// recovers its parts' panics itself; this is the last net).
func runGuarded(ctx context.Context, d *daemon.Daemon) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return d.Run(ctx)
}

// addAccounts puts a game's accounts on the host's server. An address has
// one password on the whole host: a game that gives another for an
// address an earlier game has is held until its config agrees.
func (h *Host) addAccounts(ctx context.Context, name string, cfg *config.Config) error {
	for i, a := range cfg.Mail.Embedded.Accounts {
		pw, err := a.Secret.Value()
		if err != nil {
			return fmt.Errorf("mail.embedded.accounts[%d] (%s): %w", i, a.User, err)
		}
		user := strings.ToLower(a.User)
		h.mu.Lock()
		prev, seen := h.accounts[user]
		if !seen {
			h.accounts[user] = accountOwner{game: name, password: pw.Reveal()}
		}
		h.mu.Unlock()
		if seen && prev.password != pw.Reveal() {
			return fmt.Errorf("mail.embedded.accounts[%d]: %s has another password in game %s; an address has one password on the host (use the same password_file, as \"pbem host add\" does)", i, a.User, prev.game)
		}
		if err := h.mail.EnsureAccount(ctx, user, pw.Reveal()); err != nil {
			return fmt.Errorf("mail.embedded.accounts[%d] (%s): %w", i, a.User, err)
		}
	}
	return nil
}

// stop stops one game's daemon and waits for it.
func (h *Host) stop(name string) {
	h.mu.Lock()
	g := h.games[name]
	var cancel context.CancelFunc
	var done chan struct{}
	if g != nil {
		cancel, done = g.cancel, g.done
	}
	h.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

func (h *Host) stopAll() {
	for name := range h.snapshot() {
		h.stop(name)
	}
	h.wg.Wait()
	for name := range h.snapshot() {
		h.stop(name) // a game whose start ended meanwhile
	}
	h.writeStatus()
}

// hold marks a game held by a failure, logs it and tells its referee.
func (h *Host) hold(g *hosted, err error) {
	h.setStatus(g, StatusHeld, err.Error())
	attrs := []any{"game", g.name, "err", err}
	var pe *daemon.PanicError
	if errors.As(err, &pe) {
		attrs = append(attrs, "stack", pe.Stack)
	}
	h.log.Error("game held: the other games carry on", attrs...)
	h.tellReferee(g, err)
}

// tellReferee mails the game's referee (an account on the host's server)
// that the game is held, and why.
func (h *Host) tellReferee(g *hosted, cause error) {
	h.mu.Lock()
	cfg := g.cfg
	h.mu.Unlock()
	if cfg != nil && h.ext != nil {
		h.tellRefereeExternal(g.name, cfg.Game.Referee, cause)
		return
	}
	if cfg == nil || h.mail == nil {
		return
	}
	to := strings.ToLower(cfg.Game.Referee)
	if !strings.HasSuffix(to, "@"+strings.ToLower(h.mail.Domain())) {
		h.log.Warn("the held game's referee is not on the host's server; told in the log only", "game", g.name, "referee", to)
		return
	}
	now := time.Now()
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: [%s] game %s is held: the host stopped serving it\r\nDate: %s\r\n"+
		"Message-ID: <held.%s.%d.%s>\r\nAuto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"+
		"The host stopped serving game %s after this failure:\r\n\r\n  %s\r\n\r\n"+
		"The host's other games carry on. Mail to the game waits in its mailbox; nothing of the game was changed\r\n"+
		"by the failure (what was not committed is done again when it runs). Look at the host's log (game=%s),\r\n"+
		"fix the cause, then start the game again: pbem host start %s\r\n",
		h.Address(), to, g.name, g.name, now.Format(time.RFC1123Z), g.name, now.UnixNano(), h.mail.Domain(),
		g.name, strings.ReplaceAll(cause.Error(), "\n", "\r\n  "), g.name, g.name)
	if err := h.mail.Deliver(context.Background(), to, []byte(msg)); err != nil {
		h.log.Error("telling the referee that the game is held", "game", g.name, "err", err)
	}
}

func (h *Host) setStatus(g *hosted, st Status, why string) {
	h.mu.Lock()
	changed := g.status != st || g.err != why
	g.status, g.err = st, why
	if changed {
		g.since = time.Now()
	}
	h.mu.Unlock()
	if changed {
		h.writeStatus()
	}
}

// Games lists the host's games, by name.
func (h *Host) Games() []GameInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []GameInfo
	for _, name := range h.settings.Names() {
		g := h.games[name]
		info := GameInfo{Name: name, Status: StatusStopped, Dir: filepath.Dir(ConfigPath(h.Dir, name, h.settings.Games[name]))}
		if g != nil {
			info.Status, info.Err, info.Since, info.Config = g.status, g.err, g.since, g.cfg
			if g.cfg != nil {
				info.Address = h.settings.ownAddress(name, g.cfg)
			}
		}
		out = append(out, info)
	}
	return out
}

// Game returns a game the host is serving now, with its store open: what a
// console or a tool reads the game's status and reports from, or sends it
// commands through. ok is false for a game not running.
func (h *Host) Game(name string) (g *daemon.Game, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if x := h.games[name]; x != nil && x.d != nil && x.status == StatusRunning {
		return x.d.Game, true
	}
	return nil, false
}

// Daemon returns the running daemon of a game (its intake and outbox
// beside the game), for tests and tools.
func (h *Host) Daemon(name string) (*daemon.Daemon, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if x := h.games[name]; x != nil && x.d != nil {
		return x.d, true
	}
	return nil, false
}

// Close stops every game and the mail server. Call it after Run has
// returned (or instead of Run).
func (h *Host) Close() error {
	h.stopAll()
	if h.ext != nil {
		h.ext.close()
		h.ext = nil
	}
	if h.mail != nil {
		return h.mail.Close()
	}
	return nil
}

// StatusFile is where a running host writes what each game is doing, for
// "pbem host list" in another process.
const StatusFile = "status.json"

// statusFile is status.json.
type statusFile struct {
	PID     int                   `json:"pid"`
	Written time.Time             `json:"written"`
	Games   map[string]gameStatus `json:"games"`
}

type gameStatus struct {
	Status Status    `json:"status"`
	Err    string    `json:"error,omitempty"`
	Since  time.Time `json:"since"`
}

// writeStatus writes status.json (best effort: it is only for list).
func (h *Host) writeStatus() {
	sf := statusFile{PID: os.Getpid(), Written: time.Now().UTC(), Games: map[string]gameStatus{}}
	h.mu.Lock()
	for n, g := range h.games {
		sf.Games[n] = gameStatus{Status: g.status, Err: g.err, Since: g.since.UTC()}
	}
	h.mu.Unlock()
	b, err := json.MarshalIndent(sf, "", "  ")
	if err != nil {
		return
	}
	if err := writeAtomic(filepath.Join(h.Dir, StatusFile), b, 0o644); err != nil {
		h.log.Warn("writing status.json", "err", err)
	}
}
