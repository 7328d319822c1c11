package inbox_test

import (
	"context"
	"log"
	"os/signal"
	"strings"
	"syscall"

	"github.com/syw-pbem/pbem/inbox"
)

// A host's wiring: one provider mailbox shared by several games, each
// mail moved into the folder of the game its GAME line names, where that
// game's Intake (Options.Mailbox) reads it.
func ExampleFiler_Run() {
	f := inbox.NewFiler(&inbox.Options{
		Addr:     "imap.provider.example:993",
		Username: "orders@club.example",
		Password: "app-password",
	}, func(ctx context.Context, raw []byte, tooLarge bool) (string, error) {
		ex, err := inbox.Extract(raw, inbox.Limits{})
		if err != nil {
			return "pbem-unrouted", nil
		}
		for _, line := range strings.Split(ex.Text, "\n") {
			if f := strings.Fields(line); len(f) == 2 && strings.EqualFold(f[0], "GAME") {
				return "pbem-game-" + strings.ToLower(f[1]), nil
			}
		}
		return "pbem-unrouted", nil
	})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := f.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
