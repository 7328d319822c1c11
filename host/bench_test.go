package host

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/daemon"
	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// BenchmarkHost is the scale of docs/hosting.md: 100 games of five
// nations in one process (PBEM_HOST_BENCH_GAMES changes the count). It
// reports the first start (every game created), the idle RSS, a burst of
// one sheet per nation of every game (500) sent to the host's one address
// at once, with the time each took to be answered, and ten games' deadlines
// falling in the same minute while sheets for other games are answered.
// Run it alone, once: go test ./host -run '^$' -bench BenchmarkHost -benchtime 1x -benchmem
func BenchmarkHost(b *testing.B) {
	n := 100
	if s := os.Getenv("PBEM_HOST_BENCH_GAMES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	var specs []gameSpec
	for i := range n {
		specs = append(specs, gameSpec{fmt.Sprintf("g%03d", i), "syw-1752"})
	}
	dir := newHostFolder(b, specs...)
	clocks := map[string]*testClock{}
	for _, s := range specs {
		clocks[s.name] = &testClock{}
	}
	// Answers seen by the server: the acknowledgement's In-Reply-To.
	var mu sync.Mutex
	answered := map[string]time.Time{}
	h, err := Open(dir, &Options{Logger: testLogger(), Reread: time.Second,
		GameOptions: func(name string) *daemon.Options { return &daemon.Options{Now: clocks[name].Now} }})
	if err != nil {
		b.Fatal(err)
	}
	h.router.observe = func(req mailserver.RouteRequest) {
		if req.Message == nil {
			return
		}
		m, err := mail.ReadMessage(bytes.NewReader(req.Message))
		if err != nil {
			return
		}
		if id := strings.Trim(m.Header.Get("In-Reply-To"), "<> "); id != "" {
			mu.Lock()
			if _, ok := answered[id]; !ok {
				answered[id] = time.Now()
			}
			mu.Unlock()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	if err := h.Start(ctx); err != nil {
		b.Fatal(err)
	}
	startup := time.Since(start)
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		h.Close()
	}()
	for _, g := range h.Games() {
		if g.Status != StatusRunning {
			b.Fatalf("game %s: %s %s", g.Name, g.Status, g.Err)
		}
	}
	settle(b, h)
	runtime.GC()
	time.Sleep(2 * time.Second)
	idleRSS := rssMB(b)
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	// What the runtime's scavenger gives back in time: the heap freed
	// after the games were created, returned to the system now.
	debug.FreeOSMemory()
	scavengedRSS := rssMB(b)
	if path := os.Getenv("PBEM_HOST_BENCH_HEAP"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}

	ms := h.Mail()
	nations := []string{"eisenmark", "fromande", "hispardia", "morgronskia", "unterreich"}
	type job struct{ game, nation string }
	send := func(jobs []job) map[string]time.Time {
		sent := map[string]time.Time{}
		var smu sync.Mutex
		ch := make(chan job)
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range ch {
					from := j.nation + "@pbem.localhost"
					g, _ := h.Game(j.game)
					sheet := fmt.Sprintf("GAME %s\nNATION %s\nPASSWORD %s\nTURN %d\nEND\n", j.game, j.nation,
						nationPassword(b, GameDir(dir, j.game), j.nation), turnOf(b, g))
					t0 := time.Now()
					id, err := post(ms.SMTPAddr(), from, mailPassword(b, dir, from), "orders@pbem.localhost", "orders", sheet)
					if err != nil {
						b.Error(err)
						continue
					}
					smu.Lock()
					sent[id] = t0
					smu.Unlock()
				}
			}()
		}
		for _, j := range jobs {
			ch <- j
		}
		close(ch)
		wg.Wait()
		return sent
	}
	wait := func(sent map[string]time.Time) []time.Duration {
		deadline := time.Now().Add(10 * time.Minute)
		for {
			mu.Lock()
			var lat []time.Duration
			for id, t0 := range sent {
				if at, ok := answered[id]; ok {
					lat = append(lat, at.Sub(t0))
				}
			}
			mu.Unlock()
			if len(lat) == len(sent) {
				slices.Sort(lat)
				return lat
			}
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d sheets answered after 10 minutes", len(lat), len(sent))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// The burst: one sheet per nation of every game, all at once.
	var burst []job
	for _, nat := range nations {
		for _, s := range specs {
			burst = append(burst, job{s.name, nat})
		}
	}
	b.ResetTimer()
	start = time.Now()
	lat := wait(send(burst))
	burstTotal := time.Since(start)
	// Again: every password has been checked once and is remembered, as
	// for every sheet but a player's first after a restart.
	start = time.Now()
	again := wait(send(burst))
	againTotal := time.Since(start)

	// Ten deadlines in the same minute, while sheets for twenty other
	// games come in.
	ten := min(10, n/2)
	start = time.Now()
	var before []int
	for i := range ten {
		g, _ := h.Game(specs[i].name)
		before = append(before, turnOf(b, g))
		clocks[specs[i].name].Advance(29 * 24 * time.Hour)
		g.WakeTurns()
	}
	var others []job
	for i := ten; i < min(n, ten+20); i++ {
		others = append(others, job{specs[i].name, "eisenmark"})
	}
	during := wait(send(others))
	for i := range ten {
		g, _ := h.Game(specs[i].name)
		waitUntil(b, specs[i].name+" resolves", func() bool { return turnOf(b, g) > before[i] })
	}
	deadlines := time.Since(start)
	b.StopTimer()

	b.ReportMetric(float64(n), "games")
	b.ReportMetric(startup.Seconds(), "first-start-s")
	b.ReportMetric(idleRSS, "idle-RSS-MB")
	b.ReportMetric(scavengedRSS, "idle-RSS-scavenged-MB")
	b.ReportMetric(againTotal.Seconds(), "burst-again-s")
	b.ReportMetric(pct(again, 50), "burst-again-p50-ms")
	b.ReportMetric(pct(again, 99), "burst-again-p99-ms")
	b.ReportMetric(float64(mem.HeapInuse)/(1<<20), "idle-heap-MB")
	b.ReportMetric(float64(mem.Sys)/(1<<20), "idle-go-sys-MB")
	b.ReportMetric(float64(mem.StackInuse)/(1<<20), "idle-stacks-MB")
	b.ReportMetric(burstTotal.Seconds(), "burst-all-s")
	b.ReportMetric(pct(lat, 50), "burst-p50-ms")
	b.ReportMetric(pct(lat, 99), "burst-p99-ms")
	b.ReportMetric(deadlines.Seconds(), "ten-deadlines-s")
	b.ReportMetric(pct(during, 99), "intake-during-turns-p99-ms")
	b.ReportMetric(rssMB(b), "RSS-after-MB")
}

// pct is the p-th percentile of sorted latencies, in milliseconds.
func pct(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := min(len(sorted)-1, (len(sorted)*p+99)/100-1)
	return float64(sorted[max(i, 0)].Microseconds()) / 1000
}

// settle waits until every game's outbox has sent what it queued (the
// starting reports).
func settle(b *testing.B, h *Host) {
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Minute)
	for _, gi := range h.Games() {
		g, _ := h.Game(gi.Name)
		for {
			rows, err := g.DB.MessagesInState(ctx, store.OutboxPending)
			if err != nil {
				b.Fatal(err)
			}
			if len(rows) == 0 {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("game %s still has %d mails to send", gi.Name, len(rows))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// rssMB is this process's resident set size, in MiB (Linux).
func rssMB(b *testing.B) float64 {
	f, err := os.Open(filepath.Join("/proc", "self", "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
