package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/mailserver"
)

// BenchmarkRunMemory runs the built "pbem run" on the shipped config and
// sends it, in three phases: all at once, three 30 MB mails (from three
// nations) and the bomb set (deep nesting, thousands of parts, a huge
// header, broken base64 and quoted-printable, unknown charsets, HTML tag
// soup, a 100,000-line sheet) from the other two; then six order sheets
// with a map attached that the server accepts, of 9 MiB and just under the
// 10 MiB limit, at once; then the bomb series again, back to back. After
// each phase it waits until every mail is answered — by pbem in the
// sender's mailbox, or refused by the server at SMTP — and logs the
// process's peak resident memory in the phase (VmHWM, reset before each);
// it reports the highest. Run with -benchtime=1x; figures in
// docs/intake.md.
func BenchmarkRunMemory(b *testing.B) {
	dir := b.TempDir()
	bin := builtPbem(b)
	repo, _ := filepath.Abs("../..")
	conf, err := os.ReadFile(filepath.Join(repo, "config.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	imapPort, smtpPort := freePort(b), freePort(b)
	text := strings.NewReplacer(
		"scenario: scenarios/default", "scenario: "+filepath.Join(repo, "scenarios/default"),
		"127.0.0.1:1143", fmt.Sprintf("127.0.0.1:%d", imapPort),
		"127.0.0.1:2525", fmt.Sprintf("127.0.0.1:%d", smtpPort),
		"poll_interval: 2m", "poll_interval: 2s",
		"log_level: info", "log_level: "+benchLogLevel(),
	).Replace(string(conf))
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		os.RemoveAll(filepath.Join(dir, "data"))
		cmd := exec.Command(bin, "--config", cfgPath, "run")
		var log syncLog
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		for deadline := time.Now().Add(waitLimit); !strings.Contains(log.String(), "running"); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				b.Fatalf("pbem run did not start:\n%s", log.String())
			}
		}
		r := &memRun{b: b, pid: cmd.Process.Pid, log: &log, accepted: map[string]int{},
			smtp: fmt.Sprintf("127.0.0.1:%d", smtpPort), imap: fmt.Sprintf("127.0.0.1:%d", imapPort)}
		stopTrace := traceMemory(b, cmd.Process.Pid, &log)
		b.ResetTimer()

		// 1. At once: three 30 MB mails (refused at SMTP) and the bomb set.
		var jobs []memJob
		for _, n := range []string{"eisenmark", "morgronskia", "unterreich"} {
			jobs = append(jobs, memJob{n, bigMail(n, 30<<20, "")})
		}
		jobs = append(jobs, bombJobs()...)
		r.phase("at once: three 30 MB mails and the bomb set", jobs, true)

		// 2. Accepted mail up to the limit, at once: from three nations an
		// order sheet with a map attached, 9 MiB and just under 10 MiB.
		jobs = nil
		for k, n := range []string{"eisenmark", "morgronskia", "unterreich"} {
			jobs = append(jobs, memJob{n, bigMail(n, 9<<20, "a")}, memJob{n, bigMail(n, nearLimit-k*4096, "b")})
		}
		r.phase("accepted mail of 9 and 10 MiB, six at once", jobs, true)

		// 3. The bomb series back to back: each mail sent as soon as the
		// server took the one before.
		r.phase("the bomb series back to back", bombJobs(), false)

		b.StopTimer()
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		stopTrace()
		b.ReportMetric(r.peak, "peak-RSS-MB")
		b.ReportMetric(float64(r.answered), "answered")
		b.ReportMetric(float64(r.refused), "refused-at-SMTP")
	}
}

// nearLimit is the size of the largest accepted mail of the benchmark: the
// embedded server's limit (inbox.DefaultMaxRawBytes, 10 MiB) less room for
// the trace fields the server puts on top.
const nearLimit = 10<<20 - 8<<10

// memJob is one mail of the benchmark and the nation that sends it.
type memJob struct {
	nation string
	raw    []byte
}

// memRun is one run of BenchmarkRunMemory: the daemon under test and what
// it was sent.
type memRun struct {
	b          *testing.B
	pid        int
	log        *syncLog
	smtp, imap string
	accepted   map[string]int // mails the server took, by nation
	answered   int
	refused    int
	peak       float64 // the highest peak RSS of a phase, MB
}

// phase sends jobs (all at once, or one after another), waits until every
// mail the server took is answered, and logs the phase's peak RSS: the
// kernel's high-water mark is reset before the phase (clear_refs 5).
func (r *memRun) phase(name string, jobs []memJob, atOnce bool) {
	b := r.b
	os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", r.pid), []byte("5"), 0)
	r.log.WriteString("=== phase: " + name + "\n")
	var mu sync.Mutex
	send := func(j memJob) {
		login := &mailserver.Login{User: j.nation + "@pbem.localhost", Password: "demo-mail-" + j.nation}
		err := mailserver.SendAs(context.Background(), r.smtp, login, login.User, []string{"orders@pbem.localhost"}, j.raw)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			r.refused++ // the server's refusal is the answer
			return
		}
		r.accepted[j.nation]++
	}
	var wg sync.WaitGroup
	for _, j := range jobs {
		if !atOnce {
			send(j)
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); send(j) }()
	}
	wg.Wait()
	jobs = nil // the mails, freed: only the daemon's memory counts
	want := sum(r.accepted)
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		r.answered = 0
		for n, sent := range r.accepted {
			r.answered += min(answers(b, r.imap, n), sent)
		}
		if r.answered == want {
			break
		}
	}
	if r.answered < want {
		b.Errorf("%s: %d of %d accepted mails answered\n%s", name, r.answered, want, r.log.String())
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.pid))
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			mb := float64(kb) / 1024
			b.Logf("%s: peak RSS %.1f MB (%d answered, %d refused at SMTP so far)", name, mb, r.answered, r.refused)
			r.peak = max(r.peak, mb)
		}
	}
}

// answers counts pbem's answers in a nation's mailbox: every mail but the
// starting report.
func answers(b *testing.B, imapAddr, nation string) int {
	n := 0
	for _, m := range mailbox(b, imapAddr, nation+"@pbem.localhost", "demo-mail-"+nation) {
		if !strings.Contains(m, "starting report") {
			n++
		}
	}
	return n
}

// bombJobs is the bomb set, from Fromande and Hispardia by turns.
func bombJobs() []memJob {
	var jobs []memJob
	for k, raw := range bombSetFor() {
		n := []string{"fromande", "hispardia"}[k%2]
		jobs = append(jobs, memJob{n, bytes.ReplaceAll(raw, []byte("From: bomb@example.org"), []byte("From: "+n+"@pbem.localhost"))})
	}
	return jobs
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// bigMail is a mail of about size bytes: the nation's order sheet (with
// its password) and an attachment (a scan of the map, say), base64 as
// clients send it. tag tells apart the Message-IDs of one nation's mails.
func bigMail(nation string, size int, tag string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: my orders and map\r\nMessage-ID: <big.%s.%s@pbem.localhost>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=big\r\n\r\n--big\r\nContent-Type: text/plain\r\n\r\n"+
		"GAME syw\r\nNATION %s\r\nPASSWORD demo-%s\r\nTURN 1\r\nEND\r\n"+
		"--big\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename=map.png\r\nContent-Transfer-Encoding: base64\r\n\r\n",
		nation, nation, tag, nation, nation)
	// base64 lines of 76 characters and CRLF: 78 bytes for 57 of data.
	data := make([]byte, (size-b.Len()-16)/78*57)
	rand.Read(data)
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n--big--\r\n")
	return b.Bytes()
}

// bombSet is the hostile mail of inbox's tests, from bomb@example.org.
func bombSet() [][]byte {
	var out [][]byte
	deep := func(levels int) []byte {
		var b bytes.Buffer
		b.WriteString("From: bomb@example.org\r\nSubject: deep\r\n")
		for i := range levels {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n", i, i)
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nGAME syw\r\n")
		for i := levels - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "\r\n--b%d--\r\n", i)
		}
		return b.Bytes()
	}
	parts := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("From: bomb@example.org\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n")
		for i := range n {
			fmt.Fprintf(&b, "--p\r\nContent-Type: text/plain; charset=x-bogus-%d\r\n\r\npart %d\r\n", i, i)
		}
		b.WriteString("--p--\r\n")
		return b.Bytes()
	}
	out = append(out,
		deep(20000),
		parts(5000),
		[]byte("From: bomb@example.org\r\nX-Junk: "+strings.Repeat("x", 2<<20)+"\r\n\r\nA1 MOVE\r\n"),
		append([]byte("From: bomb@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n"), bytes.Repeat([]byte("QUEx!*TU9WRQ==\r\n"), (4<<20)/16)...),
		[]byte("From: bomb@example.org\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"+strings.Repeat("=Z=\r\n", (4<<20)/5)),
		[]byte("From: bomb@example.org\r\nContent-Type: text/html\r\n\r\n"+strings.Repeat("<div><p><a href='x'>&amp;&#0;&#xFFFFFFFF;", 70000)+strings.Repeat("<script>", 1000)),
		[]byte("From: bomb@example.org\r\n\r\nGAME syw\r\nNATION fromande\r\nPASSWORD demo-fromande\r\nTURN 1\r\n"+strings.Repeat("STANCE F1 ATTACK\r\n", 100000)+"END\r\n"),
		[]byte("From: bomb@example.org\r\n\r\n"+strings.Repeat("A1 MOVE TO 0412\r\n", (11<<20)/17)),
	)
	return out
}

// bombSetFor is bombSet, or none when PBEM_MEM_BIG_ONLY is set (to tell
// the two loads apart when investigating).
func bombSetFor() [][]byte {
	if os.Getenv("PBEM_MEM_BIG_ONLY") != "" {
		return nil
	}
	return bombSet()
}

// traceMemory, when PBEM_MEM_TRACE names a file, samples the daemon's
// resident memory every 20 ms into its log (beside what GODEBUG=gctrace=1
// writes there) and writes the log to that file when stopped: a tool for
// finding what peaks. Otherwise it does nothing.
func traceMemory(b *testing.B, pid int, log *syncLog) (stop func()) {
	path := os.Getenv("PBEM_MEM_TRACE")
	if path == "" {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			rollup, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
			var fields []string
			for _, line := range strings.Split(string(rollup), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && (f[0] == "Rss:" || f[0] == "Anonymous:" || f[0] == "Private_Clean:") {
					fields = append(fields, f[0]+f[1])
				}
			}
			log.WriteString(fmt.Sprintf("mem t=%.2fs %s\n", time.Since(start).Seconds(), strings.Join(fields, " ")))
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
			b.Log(err)
		}
	}
}

// benchLogLevel is the daemon's log level in BenchmarkRunMemory: warn, or
// info while tracing (PBEM_MEM_TRACE), to see each mail handled.
func benchLogLevel() string {
	if os.Getenv("PBEM_MEM_TRACE") != "" {
		return "info"
	}
	return "warn"
}
