//go:build unix

package host

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
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

const (
	filerChildEnv = "PBEM_HOST_FILER_CHILD"
	// filerKillEnv is "N/µs": the child kills itself that many
	// microseconds after it decided its Nth mail.
	filerKillEnv = "PBEM_HOST_FILER_KILL"
)

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
		// The child kills itself a random 0-3 ms after deciding mail at:
		// anywhere in the decision or the MOVE. Timed in the child, the
		// kill does not drift past the filing when the parent is slow to
		// read the child's lines on a loaded machine.
		at := 1 + rnd.IntN(perPoint-1)
		after := time.Duration(rnd.IntN(3000)) * time.Microsecond
		c := killtest.Start(t, "TestExternalRouterFilerChild", killtest.Options{},
			filerChildEnv+"="+p.IMAPAddr(), fmt.Sprintf("%s=%d/%d", filerKillEnv, at, after.Microseconds()))
		if killed, _ := c.Wait(); !killed {
			t.Fatalf("the child was not killed at mail %d: %s", at, c.Stderr())
		}
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
	var at, us int
	if _, err := fmt.Sscanf(os.Getenv(filerKillEnv), "%d/%d", &at, &us); err != nil {
		t.Fatalf("%s: %v", filerKillEnv, err)
	}
	f := inbox.NewFiler(filerOptions(addr), fileByGameLine(func(n int) {
		if n == at {
			time.AfterFunc(time.Duration(us)*time.Microsecond, func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) })
		}
	}))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := f.Run(ctx); err != nil {
		t.Fatal(err)
	}
}
