package daemon

import (
	"context"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syw-pbem/pbem/mailserver"
	"github.com/syw-pbem/pbem/store"
)

// BenchmarkAcknowledge500 sends 500 order mails from the five nations
// through the embedded server as fast as SMTP takes them (a burst: the worst
// case, every mail queued behind the others), and measures, for each, the
// time from the server's 250 to the acknowledgment's 250 from the outbox: the
// arrival-to-acknowledgment latency a player sees (less his own client's
// polling), and the throughput. Run with -benchtime=1x; figures in
// docs/intake.md.
func BenchmarkAcknowledge500(b *testing.B) { benchmarkAcknowledge(b, 500, 0) }

// BenchmarkAcknowledgePaced sends 200 mails at 10 a second — a busy
// deadline evening — and measures the same latency without a burst's queue.
func BenchmarkAcknowledgePaced(b *testing.B) { benchmarkAcknowledge(b, 200, 100*time.Millisecond) }

func benchmarkAcknowledge(b *testing.B, mails int, gap time.Duration) {
	nations := []string{"eisenmark", "morgronskia", "unterreich", "fromande", "hispardia"}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d, _ := startGame(b, b.TempDir(), nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()
		sentAt := map[string]time.Time{}
		b.StartTimer()
		start := time.Now()
		for j := 0; j < mails; j++ {
			n := nations[j%len(nations)]
			id := fmt.Sprintf("bench-%d-%d@pbem.localhost", i, j)
			sheet := strings.NewReplacer("eisenmark", n, "E1", map[string]string{
				"eisenmark": "E1", "morgronskia": "M1", "unterreich": "U1", "fromande": "F1", "hispardia": "H1"}[n]).Replace(goodSheet)
			raw := fmt.Sprintf("From: %s@pbem.localhost\r\nTo: orders@pbem.localhost\r\nSubject: orders %d\r\nMessage-ID: <%s>\r\n\r\n%s",
				n, j, id, strings.ReplaceAll(sheet, "\n", "\r\n"))
			if err := mailserver.SendAs(context.Background(), d.Mail.SMTPAddr(), loginFor(n+"@pbem.localhost"), n+"@pbem.localhost", []string{"orders@pbem.localhost"}, []byte(raw)); err != nil {
				b.Fatal(err)
			}
			sentAt[id] = time.Now()
			if gap > 0 {
				time.Sleep(gap)
			}
		}
		var sent []store.OutboxMessage
		for time.Since(start) < 5*time.Minute {
			var err error
			if sent, err = d.Game.DB.MessagesInState(context.Background(), store.OutboxSent); err != nil {
				b.Fatal(err)
			}
			if len(sent) >= mails {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		elapsed := time.Since(start)
		b.StopTimer()
		if len(sent) < mails {
			b.Fatalf("%d of %d acknowledgments sent within 5 minutes", len(sent), mails)
		}
		var lat []time.Duration
		for _, m := range sent {
			msg, err := mail.ReadMessage(strings.NewReader(string(m.Raw)))
			if err != nil {
				b.Fatal(err)
			}
			id := strings.Trim(msg.Header.Get("In-Reply-To"), "<>")
			if t0, ok := sentAt[id]; ok {
				lat = append(lat, m.SentAt.Sub(t0))
			}
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
		b.ReportMetric(float64(mails)/elapsed.Seconds(), "mails/s")
		cancel()
		<-done
		d.Close()
		b.StartTimer()
	}
}
