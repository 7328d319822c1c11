package demo

import (
	"slices"
	"testing"
)

// TestTreatyProposalLine: the demo tells a treaty proposed by its title and
// parties, with no dangling TEXT (the articles follow on the sheet's next
// lines).
func TestTreatyProposalLine(t *testing.T) {
	t.Parallel()
	title, parties := treatyProposal(`TREATY "Peace of Garzow" PARTIES eisenmark, fromande TEXT`)
	if got, want := treatyStep(title, parties), `"Peace of Garzow" between eisenmark and fromande`; got != want {
		t.Errorf("the demo's line: %q, want %q", got, want)
	}
	if !slices.Equal(parties, []string{"eisenmark", "fromande"}) {
		t.Errorf("parties %q", parties)
	}
}
