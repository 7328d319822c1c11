package mailserver

import (
	"sort"
	"strings"

	"github.com/emersion/go-imap/v2"
)

// systemFlags are the flags a message may carry besides keywords, in their
// canonical spelling. \Recent is not here: it is a session property that
// this server does not track (it reports no message as recent).
var systemFlags = []imap.Flag{
	imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft,
}

// canonicalFlag spells a system flag the standard way and leaves keywords
// as given (case preserved). ok is false for a flag that cannot be stored:
// \Recent, an unknown system flag or \*.
func canonicalFlag(f imap.Flag) (imap.Flag, bool) {
	if !strings.HasPrefix(string(f), `\`) {
		return f, f != ""
	}
	for _, sf := range systemFlags {
		if strings.EqualFold(string(f), string(sf)) {
			return sf, true
		}
	}
	return "", false
}

// flagKey is the case-insensitive identity of a flag: IMAP flags and
// keywords compare without regard to case.
func flagKey(f imap.Flag) string { return strings.ToLower(string(f)) }

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	k := flagKey(f)
	for _, g := range flags {
		if flagKey(g) == k {
			return true
		}
	}
	return false
}

// applyStore returns the flags a message has after a STORE, and whether
// they differ from before. The input slice is never modified (snapshots
// taken by FETCH share it). A keyword already present keeps its spelling.
func applyStore(old []imap.Flag, op imap.StoreFlagsOp, given []imap.Flag) ([]imap.Flag, bool) {
	var out []imap.Flag
	switch op {
	case imap.StoreFlagsSet:
		out = addFlags(nil, given)
	case imap.StoreFlagsAdd:
		out = addFlags(append([]imap.Flag(nil), old...), given)
	case imap.StoreFlagsDel:
		for _, f := range old {
			if !hasFlag(given, f) {
				out = append(out, f)
			}
		}
	}
	out = sortFlags(out)
	return out, !sameFlags(old, out)
}

// sortFlags orders flags the way this server always reports them: system
// flags in the order of systemFlags, then keywords without regard to case.
// It sorts in place and returns its argument.
func sortFlags(flags []imap.Flag) []imap.Flag {
	rank := func(f imap.Flag) int {
		for i, sf := range systemFlags {
			if f == sf {
				return i
			}
		}
		return len(systemFlags)
	}
	sort.SliceStable(flags, func(i, j int) bool {
		ri, rj := rank(flags[i]), rank(flags[j])
		if ri != rj {
			return ri < rj
		}
		return flagKey(flags[i]) < flagKey(flags[j])
	})
	return flags
}

// addFlags appends the storable flags of given that list lacks, and sorts.
func addFlags(list, given []imap.Flag) []imap.Flag {
	for _, f := range given {
		f, ok := canonicalFlag(f)
		if ok && !hasFlag(list, f) {
			list = append(list, f)
		}
	}
	return sortFlags(list)
}

func sameFlags(a, b []imap.Flag) bool {
	if len(a) != len(b) {
		return false
	}
	for _, f := range a {
		if !hasFlag(b, f) {
			return false
		}
	}
	return true
}

// mailboxFlags lists the system flags and every keyword used in the
// mailbox, sorted, for the FLAGS and PERMANENTFLAGS answers to SELECT.
func mailboxFlags(msgs []*message) []imap.Flag {
	flags := append([]imap.Flag(nil), systemFlags...)
	for _, m := range msgs {
		for _, f := range m.flags {
			if !hasFlag(flags, f) {
				flags = append(flags, f)
			}
		}
	}
	keywords := flags[len(systemFlags):]
	sort.Slice(keywords, func(i, j int) bool { return flagKey(keywords[i]) < flagKey(keywords[j]) })
	return flags
}
