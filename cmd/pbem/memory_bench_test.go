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
// sends it, all at once, three 30 MB mails (from three nations) and the bomb
// set (deep nesting, thousands of parts, a huge header, broken base64 and
// quoted-printable, unknown charsets, HTML tag soup, a 100,000-line sheet)
// from the other two; it waits until every mail is answered — by pbem in
// the sender's mailbox, or refused by the server at SMTP — and reports the
// process's peak resident memory (VmHWM). Run with -benchtime=1x; figure in
// docs/intake.md.
func BenchmarkRunMemory(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "pbem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
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
		"log_level: info", "log_level: warn",
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
		smtpAddr, imapAddr := fmt.Sprintf("127.0.0.1:%d", smtpPort), fmt.Sprintf("127.0.0.1:%d", imapPort)
		type job struct {
			nation string
			raw    []byte
		}
		var jobs []job
		for _, n := range []string{"eisenmark", "morgronskia", "unterreich"} {
			jobs = append(jobs, job{n, bigMail(n, 30<<20)})
		}
		for k, raw := range bombSetFor() {
			n := []string{"fromande", "hispardia"}[k%2]
			jobs = append(jobs, job{n, bytes.ReplaceAll(raw, []byte("From: bomb@example.org"), []byte("From: "+n+"@pbem.localhost"))})
		}
		b.ResetTimer()
		var mu sync.Mutex
		accepted, refused := map[string]int{}, 0
		var wg sync.WaitGroup
		for _, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				login := &mailserver.Login{User: j.nation + "@pbem.localhost", Password: "demo-mail-" + j.nation}
				err := mailserver.SendAs(context.Background(), smtpAddr, login, login.User, []string{"orders@pbem.localhost"}, j.raw)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					refused++ // the server's refusal is the answer
					b.Logf("%s: refused at SMTP: %v", j.nation, err)
					return
				}
				accepted[j.nation]++
			}()
		}
		wg.Wait()
		jobs = nil // the mails, freed: only the daemon's memory counts
		answered := 0
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
			answered = 0
			for n, want := range accepted {
				answered += min(len(mailbox(b, imapAddr, n+"@pbem.localhost", "demo-mail-"+n)), want)
			}
			if answered == sum(accepted) {
				break
			}
		}
		b.StopTimer()
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if answered < sum(accepted) {
			b.Errorf("%d of %d accepted mails answered\n%s", answered, sum(accepted), log.String())
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.Atoi(f[1])
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
			}
		}
		b.ReportMetric(float64(answered), "answered")
		b.ReportMetric(float64(refused), "refused-at-SMTP")
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// bigMail is a mail with a note and an attachment of size bytes (a scan of
// the map, say), base64 as clients send it.
func bigMail(nation string, size int) []byte {
	data := make([]byte, size*3/4)
	rand.Read(data)
	enc := base64.StdEncoding.EncodeToString(data)
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: my map\r\nMessage-ID: <big.%s@pbem.localhost>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=big\r\n\r\n--big\r\nContent-Type: text/plain\r\n\r\nHere is my map.\r\n"+
		"--big\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename=map.png\r\nContent-Transfer-Encoding: base64\r\n\r\n", nation, nation)
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
