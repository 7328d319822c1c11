package daemon

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/store"
)

// BenchmarkBombMail hands each mail of the bomb set (cmd/pbem's
// BenchmarkRunMemory sends the same) to HandleMail alone, and makes its
// masked copy for the processed mailbox, as the intake does once it has
// stored it, under the soft memory limit "pbem run" sets. Beside
// the allocations per mail it reports the Go heap's peak while the mail is
// handled (peak-heap-MB: the heap's objects, live or not yet swept, sampled
// every millisecond), which is what the daemon's resident memory follows.
// docs/intake.md has the figures.
func BenchmarkBombMail(b *testing.B) {
	d, _ := startGame(b, b.TempDir(), nil)
	defer d.Close()
	g, ctx := d.Game, context.Background()
	old := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(old)
	uid := uint32(0)
	for _, bomb := range bombMails() {
		b.Run(bomb.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bomb.raw)))
			peak := 0.0
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				uid++
				m, _, err := g.DB.StoreMail(ctx, store.Mail{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: bomb.raw,
					From: bomb.from, ReceivedAt: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC), Arrival: sentBy(bomb.from)})
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				stop := sampleHeap()
				b.StartTimer()
				if err := g.HandleMail(ctx, m); err != nil {
					b.Fatal(err)
				}
				if _, err := g.maskedCopy(ctx, m); err != nil { // the intake's next step
					b.Fatal(err)
				}
				b.StopTimer()
				peak = max(peak, stop())
				b.StartTimer()
			}
			b.ReportMetric(peak/(1<<20), "peak-heap-MB")
		})
	}
}

// sampleHeap samples the bytes of the Go heap's objects every millisecond
// until the returned function is called, which returns the highest.
func sampleHeap() (stop func() float64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	read := func() {
		metrics.Read(s)
		peak = max(peak, s[0].Value.Uint64())
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak)
	}
}

// bombMail is a hostile mail from a nation's own address, authenticated.
type bombMail struct {
	name, from string
	raw        []byte
}

// bombMails is the bomb set of cmd/pbem's BenchmarkRunMemory, each from
// Fromande's address with the embedded server's stamp on top. The mails the
// embedded server refuses at SMTP (a 2 MB header line, the 3 MB line of
// HTML, 11 MB of text) are here too: an external provider may pass them.
func bombMails() []bombMail {
	const from = "fromande@pbem.localhost"
	head := "Authentication-Results: pbem.localhost; auth=pass smtp.auth=" + from + "\r\nFrom: " + from + "\r\n"
	deep := func(levels int) []byte {
		var b bytes.Buffer
		b.WriteString(head + "Subject: deep\r\n")
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
		b.WriteString(head + "Content-Type: multipart/mixed; boundary=p\r\n\r\n")
		for i := range n {
			fmt.Fprintf(&b, "--p\r\nContent-Type: text/plain; charset=x-bogus-%d\r\n\r\npart %d\r\n", i, i)
		}
		b.WriteString("--p--\r\n")
		return b.Bytes()
	}
	return []bombMail{
		{"nesting-20000", from, deep(20000)},
		{"parts-5000", from, parts(5000)},
		{"header-line-2MB", from, []byte(head + "X-Junk: " + strings.Repeat("x", 2<<20) + "\r\n\r\nA1 MOVE\r\n")},
		{"base64-broken-4MB", from, append([]byte(head+"Content-Transfer-Encoding: base64\r\n\r\n"), bytes.Repeat([]byte("QUEx!*TU9WRQ==\r\n"), (4<<20)/16)...)},
		{"qp-broken-4MB", from, []byte(head + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + strings.Repeat("=Z=\r\n", (4<<20)/5))},
		{"html-soup-3MB", from, []byte(head + "Content-Type: text/html\r\n\r\n" + strings.Repeat("<div><p><a href='x'>&amp;&#0;&#xFFFFFFFF;", 70000) + strings.Repeat("<script>", 1000))},
		{"sheet-100000-lines", from, []byte(head + "\r\nGAME syw\r\nNATION fromande\r\nPASSWORD demo-fromande\r\nTURN 1\r\n" + strings.Repeat("STANCE F1 ATTACK\r\n", 100000) + "END\r\n")},
		// Not in BenchmarkRunMemory's set: a sheet just under the checker's
		// limit (parser.MaxSheetBytes) of lines that are each an error.
		{"sheet-500KiB-errors", from, []byte(head + "\r\nGAME syw\r\nNATION fromande\r\nPASSWORD demo-fromande\r\nTURN 1\r\n" + strings.Repeat("STANCE F9 ATACK\r\n", (500<<10)/17) + "END\r\n")},
		{"text-11MB", from, []byte(head + "\r\n" + strings.Repeat("A1 MOVE TO 0412\r\n", (11<<20)/17))},
	}
}
