package main

import (
	"flag"
	"strconv"
	"strings"

	"github.com/syw-pbem/pbem/engine"
	"github.com/syw-pbem/pbem/game"
	"github.com/syw-pbem/pbem/hexmap"
)

// noteConfigFlag records whether fs had --config set on the command line.
func (e *env) noteConfigFlag(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			e.configGiven = true
		}
	})
}

// checkNationFlag reads --nation as one of the game's nations (in any
// case), refusing any other as a usage error that lists them.
func checkNationFlag(e *env, nation string, st *engine.State) (game.NationID, int) {
	if nation == "" {
		return "", exitOK
	}
	var ids []string
	for _, n := range st.Nations {
		if strings.EqualFold(string(n.ID), nation) {
			return n.ID, exitOK
		}
		ids = append(ids, string(n.ID))
	}
	e.errorf("check: --nation %s: this game has no such nation; expected one of %s", nation, strings.Join(ids, ", "))
	return "", exitUsage
}

// checkTurnFlag reads --turn: a turn number from the current one on, or
// "year-end" for the next year-end turn. 0 means the current turn.
func checkTurnFlag(e *env, s string, st *engine.State) (int, int) {
	if s == "" {
		return 0, exitOK
	}
	if strings.EqualFold(strings.ReplaceAll(s, "-", ""), "yearend") {
		for t := st.Turn; ; t++ {
			if st.Calendar.Date(t).IsYearEnd() {
				return t, exitOK
			}
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < st.Turn {
		e.errorf("check: --turn %s: expected a turn number from %d (the turn orders are now taken for) on, or year-end", s, st.Turn)
		return 0, exitUsage
	}
	return n, exitOK
}

// setTreasuries puts crowns in every nation's treasury (its temporary
// capitol, else its capitol), for "pbem check --treasury".
func setTreasuries(st *engine.State, m *hexmap.Map, crowns int) {
	for _, ns := range st.Nations {
		city := ns.TemporaryCapitol
		if n, ok := m.Nation(ns.ID); ok && city == "" {
			city = n.Capitol
		}
		if cs, ok := st.City(city); ok {
			cs.Treasury = crowns
		}
	}
}

// parseInterleaved parses fs's flags wherever they stand among the
// arguments ("pbem check sheet.txt --nation eisenmark" as well as "pbem
// check --nation eisenmark sheet.txt"); after "--" everything is an
// argument. fs.Args() then holds the arguments, in order.
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		used := len(args) - len(rest)
		if len(rest) == 0 {
			break
		}
		if used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
