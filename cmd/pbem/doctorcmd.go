package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/syw-pbem/pbem/doctor"
	"github.com/syw-pbem/pbem/internal/english"
)

func runDoctor(e *env, c *command, args []string) int {
	fs := newFlags(e, c)
	noSend := fs.Bool("no-send", false, "do not send the test message to the referee (and so do not check DKIM)")
	if code, ok := parseNoArgs(e, c, fs, args); !ok {
		return code
	}
	cfg, code := loadConfig(e)
	if code != exitOK {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(e.stdout, "pbem doctor: checking %s (mail.mode: %s)\n\n", e.configPath, cfg.Mail.Mode)
	lines := doctor.Run(ctx, cfg, &doctor.Options{NoSend: *noSend}, e.stdout)
	counts := map[doctor.Status]int{}
	for _, l := range lines {
		counts[l.Status]++
	}
	code = doctor.ExitCode(lines)
	verdict := "everything pbem needs works"
	switch code {
	case exitConfig:
		verdict = "fix the configuration as the FAIL lines say, then run pbem doctor again"
	case exitFailure:
		verdict = "a service or this machine fails as the FAIL lines say; fix it and run pbem doctor again"
	}
	fmt.Fprintf(e.stdout, "\n%d ok, %s, %d failed, %d skipped: %s\n", counts[doctor.OK], english.Count(counts[doctor.Warn], "warning"), counts[doctor.Fail], counts[doctor.Skip], verdict)
	return code
}
