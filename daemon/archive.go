package daemon

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/store"
)

// The game archive ("pbem export", "pbem verify"): the game's whole record
// in one text file whose turns are hash-chained, so that anyone can check,
// with pbem alone, that no turn was changed after the fact and that each
// follows from the one before by the rules.
//
// The file is JSON Lines. Line 1 is the header: {"hash": H0, "header": {...}}
// with the game, the ruleset's id and the hash of its tables, and the map as
// text (hexmap.Format). Every further line is one turn record, by turn and
// then version: {"hash": Hi, "record": {...}} with the turn, its version,
// whether it is voided, "prev" (the hash of the line before), the state
// after the turn, and for a resolved turn the orders it was resolved from
// (every nation's, an NMR nation's DEFEND stances included), the rulings,
// the seed, the dice and the events. Each line's hash is the SHA-256 (hex)
// of the bytes of its "header" or "record" object exactly as they stand in
// the file, so one byte changed anywhere breaks the line's hash, and a line
// removed, added or moved breaks the chain.
//
// Verifying checks every hash and link, and resolves every turn in force
// again with the engine — from the state of the turn in force before it,
// with its orders, rulings and seed — requiring the same state, events and
// dice, byte for byte. Voided records (set aside by a rollback or a rerun)
// are chained but not resolved again: their inputs are no longer known.
//
// The format, the chain and the verifier are one for every campaign; the
// header's ruleset chooses how a turn is written and resolved again: an
// SYW edition by the SYW path here (the treaty ledger, the NMR stances, the
// hex map), any other campaign through the seam (seam_archive.go).

// ArchiveFormat is the format name in an archive's header.
const ArchiveFormat = "pbem-archive/1"

// archiveHeader is an archive's first line's object.
type archiveHeader struct {
	Format       string `json:"format"`
	Game         string `json:"game"`
	Name         string `json:"name"`
	Ruleset      string `json:"ruleset"`
	RulesVersion string `json:"rules_version"`
	Map          string `json:"map"`
}

// archiveOrders is one nation's orders of a turn in an archive.
type archiveOrders struct {
	Nation game.NationID   `json:"nation"`
	Orders json.RawMessage `json:"orders"` // the order envelopes, as stored (engine.MarshalOrder)
}

// archiveRecord is a turn line's object.
type archiveRecord struct {
	Turn    int             `json:"turn"`
	Version int             `json:"version"`
	Voided  bool            `json:"voided,omitempty"`
	Prev    string          `json:"prev"`
	State   json.RawMessage `json:"state"`
	Orders  []archiveOrders `json:"orders,omitempty"`
	// Rulings are the referee's rulings in force for the turn and Battles
	// his tabletop results, each as its campaign stores it
	// (engine.Ruling and engine.TabletopBattle for SYW).
	Rulings []json.RawMessage `json:"rulings,omitempty"`
	Battles []json.RawMessage `json:"battles,omitempty"`
	// Treaties are the treaty ledger the turn was resolved from (the
	// treaties sent and attested by mail between turns), which the turn
	// runner puts into the state before resolving.
	Treaties []game.Treaty   `json:"treaties,omitempty"`
	Seed     uint64          `json:"seed,string"`
	Dice     json.RawMessage `json:"dice,omitempty"`
	Events   json.RawMessage `json:"events,omitempty"`
}

// archiveLine is one line of an archive.
type archiveLine struct {
	Hash   string          `json:"hash"`
	Header json.RawMessage `json:"header,omitempty"`
	Record json.RawMessage `json:"record,omitempty"`
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// turnInput returns the engine input of turn n resolved from state st: every
// nation's sheet in force, an NMR nation holding on DEFEND, the rulings in
// force, the turn's seed. It is what decideFrom gives the engine.
func (g *Game) turnInput(ctx context.Context, st *engine.State, n int) (engine.Input, error) {
	orders, err := g.SheetsInForce(ctx, n)
	if err != nil {
		return engine.Input{}, err
	}
	has := map[game.NationID]bool{}
	for _, o := range orders {
		has[o.Nation] = true
	}
	for _, ns := range st.Nations {
		if !ns.Eliminated && !has[ns.ID] {
			orders = append(orders, holdOrders(st, ns.ID, n))
		}
	}
	slices.SortFunc(orders, func(a, b engine.Orders) int { return cmp.Compare(a.Nation, b.Nation) })
	rulings, err := g.Rulings(ctx, n)
	if err != nil {
		return engine.Input{}, err
	}
	seed, err := g.turnSeed(ctx, n)
	if err != nil {
		return engine.Input{}, err
	}
	battles, err := g.tabletopResults(ctx, n)
	if err != nil {
		return engine.Input{}, err
	}
	// The treaty ledger the turn was resolved from goes into the state, as
	// decideFrom puts it there.
	l, err := ledgerOfTurn(ctx, g.DB, g.ID(), n)
	if err != nil {
		return engine.Input{}, err
	}
	if l.present {
		st = st.Clone()
		st.Treaties = l.treaties
		st.Normalize()
	}
	return engine.Input{Map: g.Map, Rules: g.Rules, State: st, Orders: orders, Rulings: rulings, Seed: seed, Battles: battles}, nil
}

// resolvedBytes resolves in and returns the state, events and dice as the
// turn runner stores them.
func resolvedBytes(in engine.Input) (state, events, dice []byte, err error) {
	res, err := engine.Resolve(in)
	if err != nil {
		return nil, nil, nil, err
	}
	if state, err = json.Marshal(res.State); err != nil {
		return nil, nil, nil, err
	}
	if events, err = engine.MarshalEvents(res.Events); err != nil {
		return nil, nil, nil, err
	}
	dice, err = json.Marshal(res.Rolls)
	return state, events, dice, err
}

// Export writes the game's archive to w and returns how many turn records
// it holds. It first resolves every turn in force again from its stored
// inputs: a turn whose sheets or rulings were changed after it was resolved
// (and not run again) is an error naming it, since its archive would not
// verify.
func (g *Game) Export(ctx context.Context, w io.Writer) (int, error) {
	if err := g.ensureSeedKey(ctx); err != nil {
		return 0, err
	}
	header := g.archiveSYWHeader
	if g.seamOnly != nil {
		header = g.archiveCampaignHeader // seam_archive.go
	}
	h, err := header()
	if err != nil {
		return 0, err
	}
	head, err := json.Marshal(h)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	prev := hashHex(head)
	if err := writeArchiveLine(bw, archiveLine{Hash: prev, Header: head}); err != nil {
		return 0, err
	}
	recs, err := g.DB.TurnVersions(ctx, g.ID())
	if err != nil {
		return 0, err
	}
	turn := g.archiveSYWTurn
	if g.seamOnly != nil {
		turn = g.archiveCampaignTurn // seam_archive.go
	}
	var before *store.TurnRecord // the turn in force before the record
	for i := range recs {
		rec := recs[i]
		ar := archiveRecord{Turn: rec.Turn, Version: rec.Version, Voided: rec.Status == store.TurnVoided, Prev: prev,
			State: json.RawMessage(rec.State)}
		if rec.Status == store.TurnResolved {
			if before == nil || before.Turn != rec.Turn-1 {
				return 0, fmt.Errorf("turn %d: no turn %d in force before it", rec.Turn, rec.Turn-1)
			}
			if err := turn(ctx, *before, rec, &ar); err != nil {
				return 0, err
			}
		}
		body, err := json.Marshal(ar)
		if err != nil {
			return 0, err
		}
		prev = hashHex(body)
		if err := writeArchiveLine(bw, archiveLine{Hash: prev, Record: body}); err != nil {
			return 0, err
		}
		if rec.Status != store.TurnVoided {
			before = &recs[i]
		}
	}
	return len(recs), bw.Flush()
}

// archiveSYWHeader is an SYW game's archive header: the edition, the hash
// of its tables and the hex map.
func (g *Game) archiveSYWHeader() (archiveHeader, error) {
	var mapText bytes.Buffer
	if err := hexmap.Format(&mapText, g.Map); err != nil {
		return archiveHeader{}, err
	}
	return archiveHeader{Format: ArchiveFormat, Game: g.ID(), Name: g.Config.Game.Name, Ruleset: g.Rules.ID,
		RulesVersion: g.rulesVersion(), Map: mapText.String()}, nil
}

// archiveSYWTurn fills in the archive record of an SYW turn resolved from
// before's state: its inputs, resolved again first to the stored bytes.
func (g *Game) archiveSYWTurn(ctx context.Context, before, rec store.TurnRecord, ar *archiveRecord) error {
	st, err := g.decoded(before)
	if err != nil {
		return err
	}
	in, err := g.turnInput(ctx, st, rec.Turn)
	if err != nil {
		return fmt.Errorf("turn %d: %w", rec.Turn, err)
	}
	if in.Seed != rec.Seed {
		return fmt.Errorf("turn %d was resolved with seed %d, but the game's dice key gives %d", rec.Turn, rec.Seed, in.Seed)
	}
	state, events, dice, err := resolvedBytes(in)
	if err != nil {
		return fmt.Errorf("resolving turn %d again: %w", rec.Turn, err)
	}
	if err := storedInputsGive(rec, state, events, dice); err != nil {
		return err
	}
	for _, o := range in.Orders {
		js, err := encodeOrders(o.List)
		if err != nil {
			return err
		}
		ar.Orders = append(ar.Orders, archiveOrders{Nation: o.Nation, Orders: js})
	}
	if ar.Rulings, err = rawEach(in.Rulings); err != nil {
		return err
	}
	if ar.Battles, err = rawEach(in.Battles); err != nil {
		return err
	}
	ar.Seed = rec.Seed
	if !slices.EqualFunc(in.State.Treaties, st.Treaties, func(a, b game.Treaty) bool { return reflect.DeepEqual(a, b) }) {
		ar.Treaties = in.State.Treaties
	}
	ar.Dice, ar.Events = json.RawMessage(rec.Dice), json.RawMessage(rec.EventLog)
	return nil
}

// storedInputsGive checks that a turn resolved again from its stored
// inputs gives its stored record, byte for byte: otherwise its archive
// would not verify.
func storedInputsGive(rec store.TurnRecord, state, events, dice []byte) error {
	if what := differs(state, events, dice, rec.State, rec.EventLog, rec.Dice); what != "" {
		return fmt.Errorf("turn %d (version %d): its stored inputs no longer give its stored result (%s differ): its sheets or "+
			"rulings changed after it was resolved; RERUN %d first", rec.Turn, rec.Version, what, rec.Turn)
	}
	return nil
}

// rawEach writes each value as JSON, as the archive keeps it.
func rawEach[T any](xs []T) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, x := range xs {
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// ExportFile writes the game's archive (Export) to the file path and
// returns how many turn records it holds. The file at path is replaced
// whole or not at all: the archive is written to a temporary file beside it,
// flushed to disk (fsync), renamed over path, and the directory flushed too,
// so that a crash or kill at any instant leaves at path either what was
// there before (a good archive is never truncated) or the complete new
// archive, never a part of one that "pbem verify" could take for a
// complete but shorter game. A temporary file a kill leaves behind is named
// ".NAME.*.tmp" (NAME the target's base name) and may be deleted.
func (g *Game) ExportFile(ctx context.Context, path string) (n int, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if n, err = g.Export(ctx, f); err != nil {
		return 0, err
	}
	if err = f.Chmod(0o644); err != nil {
		return 0, err
	}
	if err = f.Sync(); err != nil {
		return 0, fmt.Errorf("flushing the archive to disk: %w", err)
	}
	if err = f.Close(); err != nil {
		return 0, err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return 0, err
	}
	return n, syncDir(dir)
}

// syncDir flushes a directory to disk, so that a rename in it survives a
// power loss.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("flushing directory %s to disk: %w", dir, err)
	}
	return nil
}

func writeArchiveLine(w *bufio.Writer, l archiveLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	w.Write(b)
	return w.WriteByte('\n')
}

// differs names what of a resolution differs from a record: "", or "the
// state", "the events", "the dice", joined.
func differs(state, events, dice, wantState, wantEvents, wantDice []byte) string {
	var out []string
	for _, c := range []struct {
		name      string
		got, want []byte
	}{{"the state", state, wantState}, {"the events", events, wantEvents}, {"the dice", dice, wantDice}} {
		if !bytes.Equal(c.got, c.want) {
			out = append(out, c.name+firstDiff(c.got, c.want))
		}
	}
	return strings.Join(out, ", ")
}

// firstDiff shows where two byte strings first part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	cut := func(b []byte) string {
		s := b[max(0, i-20):min(len(b), i+40)]
		return string(s)
	}
	return fmt.Sprintf(" from byte %d: the archive has %q, the engine gives %q", i, cut(want), cut(got))
}

// ArchiveError is a verification failure: the line of the archive and what
// is wrong.
type ArchiveError struct {
	Line int    // the archive's line, from 1
	Turn int    // the turn of the line (-1: the header or unknown)
	What string // what differs
}

func (e *ArchiveError) Error() string {
	if e.Turn >= 0 {
		return fmt.Sprintf("line %d (turn %d): %s", e.Line, e.Turn, e.What)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.What)
}

// ArchiveSummary is what a verified archive holds.
type ArchiveSummary struct {
	Game     string
	Ruleset  string
	Records  int // turn records, voided ones included
	Resolved int // turns resolved again and found the same
	Voided   int
}

// VerifyArchive checks an archive (see Export): every line's hash, the
// chain, and every turn in force resolved again by the engine to the same
// bytes. The first failure is an *ArchiveError.
func VerifyArchive(r io.Reader) (ArchiveSummary, error) {
	var sum ArchiveSummary
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	var (
		head    archiveHeader
		resolve turnResolver
		prev    string
		before  *archiveRecord
		n       int
	)
	for sc.Scan() {
		n++
		var l archiveLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return sum, &ArchiveError{n, -1, fmt.Sprintf("not an archive line (%v)", err)}
		}
		if n == 1 {
			if len(l.Header) == 0 {
				return sum, &ArchiveError{n, -1, "expected the archive's header, a line with \"header\""}
			}
			if got := hashHex(l.Header); got != l.Hash {
				return sum, &ArchiveError{n, -1, fmt.Sprintf("the header's hash is %s, but its bytes hash to %s: the header was changed", l.Hash, got)}
			}
			if err := json.Unmarshal(l.Header, &head); err != nil || head.Format != ArchiveFormat {
				return sum, &ArchiveError{n, -1, fmt.Sprintf("not a %s header (format %q, %v)", ArchiveFormat, head.Format, err)}
			}
			var err error
			if resolve, err = openArchive(head); err != nil {
				return sum, &ArchiveError{n, -1, err.Error()}
			}
			sum.Game, sum.Ruleset, prev = head.Game, head.Ruleset, l.Hash
			continue
		}
		if len(l.Record) == 0 {
			return sum, &ArchiveError{n, -1, "expected a turn record, a line with \"record\""}
		}
		var rec archiveRecord
		if err := json.Unmarshal(l.Record, &rec); err != nil {
			return sum, &ArchiveError{n, -1, fmt.Sprintf("the turn record cannot be read: %v", err)}
		}
		if got := hashHex(l.Record); got != l.Hash {
			return sum, &ArchiveError{n, rec.Turn, fmt.Sprintf("the record's hash is %s, but its bytes hash to %s: the record was changed", l.Hash, got)}
		}
		if rec.Prev != prev {
			return sum, &ArchiveError{n, rec.Turn, fmt.Sprintf("the record follows %s, but the line before hashes to %s: a line was changed, added or removed", rec.Prev, prev)}
		}
		prev = l.Hash
		sum.Records++
		switch {
		case rec.Voided:
			sum.Voided++
			continue
		case rec.Turn == 0 && before == nil:
		case before == nil || before.Turn != rec.Turn-1:
			return sum, &ArchiveError{n, rec.Turn, "no turn in force before it in the archive"}
		default:
			if err := resolve(before, &rec); err != nil {
				return sum, &ArchiveError{n, rec.Turn, err.Error()}
			}
			sum.Resolved++
		}
		r := rec
		before = &r
	}
	if err := sc.Err(); err != nil {
		return sum, &ArchiveError{n + 1, -1, err.Error()}
	}
	if n == 0 {
		return sum, &ArchiveError{1, -1, "the archive is empty"}
	}
	return sum, nil
}

// turnResolver resolves a record's turn again from the state of the record
// before it, with the record's inputs, and says what differs from the
// record; nil when nothing does.
type turnResolver func(before, rec *archiveRecord) error

// openArchive opens the rules an archive's header names: an SYW edition
// with its hex map, or a campaign played through the seam (seam_archive.go).
// The rules' tables must be the header's.
func openArchive(head archiveHeader) (turnResolver, error) {
	if _, isCampaign := seamCampaign(head.Ruleset); isCampaign {
		return openCampaignArchive(head)
	}
	rules, err := ruleset.ByID(head.Ruleset)
	if err != nil {
		return nil, err
	}
	if err := sameTables(head, rulesVersion(rules)); err != nil {
		return nil, err
	}
	m, err := hexmap.Parse(strings.NewReader(head.Map), "the archive's map")
	if err != nil {
		return nil, errors.New("the map: " + err.Error())
	}
	return func(before, rec *archiveRecord) error { return reresolve(m, rules, before, rec) }, nil
}

// sameTables checks that the archive was made under the rule tables this
// pbem has (version: their hash here).
func sameTables(head archiveHeader, version string) error {
	if version != head.RulesVersion {
		return fmt.Errorf("the archive was made under other tables of %s (%s; this pbem has %s): "+
			"verify it with the pbem that made it", head.Ruleset, head.RulesVersion, version)
	}
	return nil
}

// reresolve resolves rec's turn of an SYW game from before's state with
// rec's inputs and compares the result with rec.
func reresolve(m *hexmap.Map, rules *ruleset.Ruleset, before, rec *archiveRecord) error {
	var st engine.State
	if err := json.Unmarshal(before.State, &st); err != nil {
		return fmt.Errorf("the state of turn %d cannot be read: %v", before.Turn, err)
	}
	if rec.Treaties != nil {
		st.Treaties = rec.Treaties
		st.Normalize()
	}
	in := engine.Input{Map: m, Rules: rules, State: &st, Seed: rec.Seed}
	for i, raw := range rec.Rulings {
		var r engine.Ruling
		if err := json.Unmarshal(raw, &r); err != nil {
			return fmt.Errorf("ruling %d cannot be read: %v", i+1, err)
		}
		in.Rulings = append(in.Rulings, r)
	}
	for i, raw := range rec.Battles {
		var b engine.TabletopBattle
		if err := json.Unmarshal(raw, &b); err != nil {
			return fmt.Errorf("tabletop result %d cannot be read: %v", i+1, err)
		}
		in.Battles = append(in.Battles, b)
	}
	for _, o := range rec.Orders {
		list, err := decodeOrders(o.Orders)
		if err != nil {
			return fmt.Errorf("the orders of %s cannot be read: %v", o.Nation, err)
		}
		in.Orders = append(in.Orders, engine.Orders{Nation: o.Nation, Turn: rec.Turn, List: list})
	}
	state, events, dice, err := resolvedBytes(in)
	if err != nil {
		return fmt.Errorf("the engine cannot resolve it: %v", err)
	}
	if what := differs(state, events, dice, rec.State, rec.Events, rec.Dice); what != "" {
		return errors.New("resolved again, " + what)
	}
	return nil
}
