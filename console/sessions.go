package console

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Sessions, and how they outlive a restart.
//
// A session is one sign-in to one game. Its ID (the cookie's value, 32
// random bytes) is known only to the browser: the console files a session
// under the SHA-256 of its ID. A game that tells the folder of its own data
// (SessionKeeper: *daemon.Game does) has its sessions written there, in
// console-sessions.json (0600, written to a temporary file and renamed), at
// every sign-in and sign-out and at most once a minute as they are used; a
// console started again on the same folder (pbem run restarted, a hosted
// game stopped and started) reads them back, so its referee and players
// stay signed in. The file holds the IDs' digests, never the IDs: reading
// it does not sign anyone in. Each request compares the file with what the
// console last read or wrote, and reads it again when it changed or when
// the game is served anew: a game removed and another added under its name
// has a new folder without the file, so every session of the old one ends.
// A game without a folder (tests' games) keeps its sessions in memory,
// bound to the Game value it signed in to: served anew, it asks for a new
// sign-in.

// SessionKeeper is what a Game may also tell: the folder of the game's own
// data, where the console keeps the game's sessions so that they outlive a
// restart. *daemon.Game does.
type SessionKeeper interface {
	SessionDir() string
}

// sessionFileName is the file of a game's sessions in its SessionDir.
const sessionFileName = "console-sessions.json"

// session is one sign-in.
type session struct {
	id      string // the cookie's value; "" for a session read back from its file
	key     string // sessionKey(id): what it is filed under, in memory and in the file
	game    string // the game it is for
	inst    Game   // the game as served when it began or was read back
	dir     string // the folder whose file keeps it; "" for one kept in memory only
	who     string // who signed in, for the log ("referee", "nation fromande")
	nation  string // a player's session: the nation whose page it sees ("" for the referee)
	csrf    string // the token every form of the session carries
	created time.Time
	seen    time.Time
	saved   time.Time // seen, as the file last had it
	flash   *flash    // the answer to the last act, shown once
}

// flash is what an act left for the next page: the answer, or the form's
// errors by field with the values given.
type flash struct {
	Action string
	Lines  []string
	OK     bool
	Fields map[string]string // field → its error
	Values map[string]string
	Error  string // the act failed (not refused): the page says so
}

// sessions keeps the sessions: in memory, and for a SessionKeeper game in
// its folder's file.
type sessions struct {
	mu    sync.Mutex
	byKey map[string]*session
	files map[string]*sessionFile // by folder
	ttl   time.Duration
	idle  time.Duration
	now   func() time.Time
	log   *slog.Logger
}

// sessionFile is what the console knows of a folder's file: the game value
// it was read for, and its size and time as last read or written.
type sessionFile struct {
	inst  Game
	mod   time.Time
	size  int64
	there bool
}

// sessionRecord is a session as its file keeps it.
type sessionRecord struct {
	Key     string    `json:"key"` // SHA-256 of the session's ID, hex
	Who     string    `json:"who"`
	Nation  string    `json:"nation,omitempty"`
	CSRF    string    `json:"csrf"`
	Created time.Time `json:"created"`
	Seen    time.Time `json:"seen"`
}

// sessionFileData is the file: the game's ID and its sessions.
type sessionFileData struct {
	Game     string          `json:"game"`
	Sessions []sessionRecord `json:"sessions"`
}

func newSessions(ttl time.Duration, now func() time.Time, log *slog.Logger) *sessions {
	return &sessions{byKey: map[string]*session{}, files: map[string]*sessionFile{}, ttl: ttl,
		idle: max(ttl/4, 30*time.Minute), now: now, log: log}
}

// sessionKey is what a session is filed under: the digest of its ID.
func sessionKey(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:])
}

// dirOf is the folder where g's sessions are kept, "" for none.
func dirOf(g Game) string {
	if k, ok := g.(SessionKeeper); ok {
		return k.SessionDir()
	}
	return ""
}

// start makes a new session for who in game g, with a new ID and CSRF
// token; the session of old (the browser's earlier cookie), if any, ends.
func (s *sessions) start(g Game, who, nation, old string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := dirOf(g)
	if dir != "" {
		s.sync(dir, g)
	}
	now := s.now()
	if x, ok := s.byKey[sessionKey(old)]; old != "" && ok {
		delete(s.byKey, x.key)
		if x.dir != "" && x.dir != dir {
			s.save(x.dir, x.game)
		}
	}
	for k, x := range s.byKey { // the expired go
		if s.expired(x, now) {
			delete(s.byKey, k)
		}
	}
	id := randomToken()
	x := &session{id: id, key: sessionKey(id), game: g.ID(), inst: g, dir: dir, who: who, nation: nation, csrf: randomToken(),
		created: now, seen: now}
	s.byKey[x.key] = x
	if dir != "" {
		s.save(dir, g.ID())
	}
	return x
}

func (s *sessions) expired(x *session, now time.Time) bool {
	return now.Sub(x.created) >= s.ttl || now.Sub(x.seen) >= s.idle
}

// get returns the live session of id for game g and marks it seen: begun
// for this game — in its folder, for a game that keeps its sessions; as it
// is served now, for one that does not.
func (s *sessions) get(id string, g Game) (*session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := dirOf(g)
	if dir != "" {
		s.sync(dir, g)
	}
	x, ok := s.byKey[sessionKey(id)]
	if !ok {
		return nil, false
	}
	now := s.now()
	if s.expired(x, now) {
		delete(s.byKey, x.key)
		if x.dir != "" {
			s.save(x.dir, x.game)
		}
		return nil, false
	}
	if x.game != g.ID() || x.dir != dir || (dir == "" && x.inst != g) {
		return nil, false
	}
	x.seen = now
	if dir != "" && now.Sub(x.saved) >= time.Minute {
		s.save(dir, x.game)
	}
	return x, true
}

// end ends session x, in its file too.
func (s *sessions) end(x *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x.dir != "" {
		s.sync(x.dir, x.inst)
	}
	delete(s.byKey, x.key)
	if x.dir != "" {
		s.save(x.dir, x.game)
	}
}

// sync reads dir's file again when it changed since the console last read
// or wrote it, or when g is served anew: the sessions filed under dir are
// then the file's, those of g's game that have not expired (a session in
// memory keeps its answer to show).
func (s *sessions) sync(dir string, g Game) {
	path := filepath.Join(dir, sessionFileName)
	fi, err := os.Stat(path)
	there := err == nil
	f := s.files[dir]
	if f != nil && f.inst == g && f.there == there && (!there || (fi.ModTime().Equal(f.mod) && fi.Size() == f.size)) {
		return
	}
	kept := map[string]*session{}
	for k, x := range s.byKey {
		if x.dir == dir {
			kept[k] = x
			delete(s.byKey, k)
		}
	}
	f = &sessionFile{inst: g, there: there}
	s.files[dir] = f
	if !there {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log.Error("console: the sessions file cannot be read; its sessions end", "file", path, "err", err)
		}
		return
	}
	f.mod, f.size = fi.ModTime(), fi.Size()
	b, err := os.ReadFile(path)
	var data sessionFileData
	if err == nil {
		err = json.Unmarshal(b, &data)
	}
	if err != nil {
		s.log.Error("console: the sessions file cannot be read; its sessions end", "file", path, "err", err)
		return
	}
	if data.Game != g.ID() {
		return
	}
	now := s.now()
	for _, r := range data.Sessions {
		x := &session{key: r.Key, game: data.Game, inst: g, dir: dir, who: r.Who, nation: r.Nation, csrf: r.CSRF,
			created: r.Created, seen: r.Seen, saved: r.Seen}
		if r.Key == "" || r.CSRF == "" || s.expired(x, now) {
			continue
		}
		if old, ok := kept[r.Key]; ok {
			x.id, x.flash = old.id, old.flash
		}
		s.byKey[x.key] = x
	}
}

// save writes dir's file with the sessions of game filed under it: a
// temporary file, synced, renamed over the old. A failure is logged; the
// sessions go on in memory.
func (s *sessions) save(dir, game string) {
	data := sessionFileData{Game: game, Sessions: []sessionRecord{}}
	var saved []*session
	now := s.now()
	for _, x := range s.byKey {
		if x.dir == dir && x.game == game && !s.expired(x, now) {
			data.Sessions = append(data.Sessions, sessionRecord{Key: x.key, Who: x.who, Nation: x.nation, CSRF: x.csrf,
				Created: x.created, Seen: x.seen})
			saved = append(saved, x)
		}
	}
	slices.SortFunc(data.Sessions, func(a, b sessionRecord) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.Key, b.Key))
	})
	path := filepath.Join(dir, sessionFileName)
	if err := writeFileAtomic(path, data); err != nil {
		s.log.Error("console: the sessions could not be saved; they last until the console stops", "file", path, "err", err)
		return
	}
	for _, x := range saved {
		x.saved = x.seen
	}
	f := &sessionFile{inst: nil, there: true}
	if old := s.files[dir]; old != nil {
		f.inst = old.inst
	}
	if fi, err := os.Stat(path); err == nil {
		f.mod, f.size = fi.ModTime(), fi.Size()
	}
	s.files[dir] = f
}

// writeFileAtomic writes v as JSON to path, readable by its owner only.
func writeFileAtomic(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// setFlash and takeFlash pass an act's answer to the next page.
func (s *sessions) setFlash(x *session, f *flash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x.flash = f
}

func (s *sessions) takeFlash(x *session) *flash {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := x.flash
	x.flash = nil
	return f
}
