package daemon

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestMaskedCopyAfterHandlingIsTheSame: the masked copy the intake makes
// right after handling a mail (from the handler's reading of it) is the
// copy made from the mail's bytes alone, with the password masked.
func TestMaskedCopyAfterHandlingIsTheSame(t *testing.T) {
	t.Parallel()
	d, _ := startGame(t, t.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	m := storeMail(t, g, 1, "eisenmark@pbem.localhost", sheetMail("copy@x", ""), time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC))
	if err := g.HandleMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	first, err := g.maskedCopy(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	again, err := g.maskedCopy(ctx, m) // read anew: the handler's reading was used once
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Errorf("the copy made after handling differs from one made from the bytes:\n%s\n---\n%s", first, again)
	}
	if strings.Contains(string(first), "demo-eisenmark") || !strings.Contains(string(first), "****") {
		t.Errorf("the password is not masked in the copy:\n%s", first)
	}
}
