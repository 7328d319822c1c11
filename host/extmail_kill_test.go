//go:build unix

package host

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/inbox"
	"github.com/syw-pbem/pbem/internal/imaptest"
	"github.com/syw-pbem/pbem/internal/killtest"
)

// The router killed with SIGKILL at a random instant while it files the
// shared INBOX — between deciding and moving, in the middle of a MOVE,
// between two — and started again: every mail is then in its game's
// folder exactly once, none left behind, none twice.

const filerChildEnv = "PBEM_HOST_FILER_CHILD"

func TestExternalRouterKilledMidFilingThenRestart(t *testing.T) {
	t.Parallel()
	p := imaptest.StartProvider(t, imaptest.ProviderOptions{Users: extUsers})
	rnd := killtest.Rand()
	const perPoint = 12
	var ids []string
	leftAfterKills := 0
	for point := 0; point < killtest.Points(3); point++ {
		for i := 0; i < perPoint; i++ {
			ids = append(ids, extSend(t, p, "eisenmark@provider.test", "orders@provider.test", fmt.Sprintf("sheet %d.%d", point, i), fmt.Sprintf("GAME g%d\n", i%3)))
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		if err := p.WaitDelivered(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		c := killtest.Start(t, "TestExternalRouterFilerChild", killtest.Options{}, filerChildEnv+"="+p.IMAPAddr())
		at := 1 + rnd.IntN(perPoint-1)
		if !c.WaitLine(fmt.Sprintf("filing %d", at), waitLimit) {
			c.Kill()
			t.Fatalf("the child did not reach mail %d: %s", at, c.Stderr())
		}
		time.Sleep(time.Duration(rnd.IntN(3000)) * time.Microsecond) // anywhere in the decision or the MOVE
		c.Kill()
		leftAfterKills += len(folder(t, p, "INBOX"))

		// The next start files what is left.
		ctx, cancel = context.WithTimeout(context.Background(), waitLimit)
		if err := inbox.NewFiler(filerOptions(p.IMAPAddr()), fileByGameLine(nil)).PollOnce(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		if n := len(folder(t, p, "INBOX")); n != 0 {
			t.Fatalf("point %d (killed at mail %d): %d mails left in the INBOX", point, at, n)
		}
		seen := map[string]int{}
		for g := 0; g < 3; g++ {
			for _, m := range folder(t, p, GameFolder(fmt.Sprintf("g%d", g))) {
				id := strings.Trim(header(m, "Message-ID"), "<>")
				seen[id]++
				if want := fmt.Sprintf("GAME g%d", g); !strings.Contains(m, want) {
					t.Errorf("mail %s filed in g%d's folder, its sheet says otherwise", id, g)
				}
			}
		}
		for _, id := range ids {
			if seen[id] != 1 {
				t.Errorf("point %d (killed at mail %d): mail %s is filed %d times, want once", point, at, id, seen[id])
			}
		}
	}
	if leftAfterKills == 0 {
		t.Error("no kill left mail in the INBOX: the kills came after the filing, and tested nothing")
	}
}

func filerOptions(addr string) *inbox.Options {
	return &inbox.Options{Addr: addr, Security: "none", Username: "orders@provider.test", Password: "pw-orders",
		Logger: testLogger(), BackoffInitial: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond}
}

// fileByGameLine files by the GAME line, telling each decision on out.
func fileByGameLine(out func(n int)) inbox.FileFunc {
	n := 0
	return func(_ context.Context, raw []byte, _ bool) (string, error) {
		n++
		if out != nil {
			out(n)
		}
		ex, err := inbox.Extract(raw, inbox.Limits{})
		if err != nil {
			return "", err
		}
		name, _ := gameLine(ex)
		return GameFolder(name), nil
	}
}

// TestExternalRouterFilerChild is the child of
// TestExternalRouterKilledMidFilingThenRestart: it files until killed.
func TestExternalRouterFilerChild(t *testing.T) {
	addr := killtest.Helper(t, filerChildEnv, "TestExternalRouterKilledMidFilingThenRestart")
	f := inbox.NewFiler(filerOptions(addr), fileByGameLine(func(n int) { fmt.Printf("filing %d\n", n) }))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := f.Run(ctx); err != nil {
		t.Fatal(err)
	}
}
