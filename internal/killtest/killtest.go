//go:build unix

// Package killtest is the one SIGKILL harness of pbem's crash tests (the
// store's writes, the intake, the outbox's sending, the daemon's turn,
// rollback, rerun and export).
//
// A crash test runs its own test binary as a child process that runs only
// one helper "test" (Start), lets it work, kills it with SIGKILL at some
// instant — a random one (Rand), when the child says it got somewhere (a
// line on its standard output, WaitLine), or the child kills itself at a
// named step — and then checks what the child left on disk, often starting
// it again. The helper test does nothing unless the parent set its
// environment variable (Helper), so that the ordinary run skips it.
//
// Points is how many kills a test makes: small by default, so that the
// suite stays fast; $PBEM_KILL_POINTS asks for more (docs/turns.md gives
// the figures of long runs).
package killtest

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Points is how many kills a crash test makes: $PBEM_KILL_POINTS, or def.
func Points(def int) int {
	if n, err := strconv.Atoi(os.Getenv("PBEM_KILL_POINTS")); err == nil && n > 0 {
		return n
	}
	return def
}

// Rand is the source of the kill instants: seeded from the clock, so that
// every run tries other instants.
func Rand() *rand.Rand {
	return rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
}

// Helper is the child's side: the value of the environment variable env
// that the parent set, or it skips the test (which is no test on its own:
// parent names the test that runs it).
func Helper(t *testing.T, env, parent string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		t.Skip("the child process of " + parent)
	}
	return v
}

// Options vary a child.
type Options struct {
	// Stderr receives the child's standard error; nil keeps it for Stderr
	// (to show when the test fails).
	Stderr *bytes.Buffer
	// PassStderr sends the child's standard error to the parent's, so that
	// a helper's failure shows as it happens.
	PassStderr bool
}

// Child is the test binary running one helper test in a child process.
type Child struct {
	Cmd *exec.Cmd

	stderr   *bytes.Buffer
	mu       sync.Mutex
	lines    []string
	newLine  chan struct{} // closed and replaced at every line
	readDone chan struct{}
	waitOnce sync.Once
	waitErr  error
}

// Start runs this test binary as a child that runs only the test named
// helper, with env ("NAME=value") added to the environment. The child's
// standard output is read line by line (Lines, WaitLine).
func Start(t testing.TB, helper string, o Options, env ...string) *Child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	c := &Child{Cmd: cmd, stderr: o.Stderr, newLine: make(chan struct{}), readDone: make(chan struct{})}
	if c.stderr == nil {
		c.stderr = &bytes.Buffer{}
	}
	if o.PassStderr {
		cmd.Stderr = os.Stderr
	} else {
		cmd.Stderr = c.stderr
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.readDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			close(c.newLine)
			c.newLine = make(chan struct{})
			c.mu.Unlock()
		}
	}()
	return c
}

// Lines returns the lines the child has written to its standard output.
func (c *Child) Lines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

// WaitLine waits until the child writes a line that starts with prefix, and
// reports whether it did within limit (false also when the child ended).
func (c *Child) WaitLine(prefix string, limit time.Duration) bool {
	timeout := time.After(limit)
	for {
		c.mu.Lock()
		for _, l := range c.lines {
			if strings.HasPrefix(l, prefix) {
				c.mu.Unlock()
				return true
			}
		}
		next := c.newLine
		c.mu.Unlock()
		select {
		case <-next:
		case <-c.readDone:
			return false
		case <-timeout:
			return false
		}
	}
}

// Stderr is what the child wrote to its standard error (empty with
// PassStderr).
func (c *Child) Stderr() string { return c.stderr.String() }

// Wait waits for the child to end and reports whether SIGKILL ended it (the
// parent's Kill, or the child's own at a named step), and how it ended.
func (c *Child) Wait() (killed bool, err error) {
	c.waitOnce.Do(func() {
		<-c.readDone // Wait closes the pipe: read it to the end first
		c.waitErr = c.Cmd.Wait()
	})
	var ee *exec.ExitError
	if errors.As(c.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, c.waitErr
		}
	}
	return false, c.waitErr
}

// Kill kills the child with SIGKILL, waits for it, and reports whether the
// kill ended it (false: it had ended by itself before).
func (c *Child) Kill() bool {
	c.Cmd.Process.Signal(syscall.SIGKILL)
	killed, _ := c.Wait()
	return killed
}

// Stop asks the child to stop (SIGTERM) and waits up to limit; a child that
// does not stop is killed, and a child that exits with an error or not at
// all fails the test.
func (c *Child) Stop(t testing.TB, limit time.Duration) {
	t.Helper()
	c.Cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { _, err := c.Wait(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the child process exited with %v\n%s", err, c.Stderr())
		}
	case <-time.After(limit):
		c.Kill()
		t.Errorf("the child process did not stop on SIGTERM within %v", limit)
	}
}
