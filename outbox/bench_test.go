package outbox

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"testing"

	"github.com/syw-pbem/pbem/store"
)

func benchPDF(n int) []byte {
	pdf := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range pdf {
		pdf[i] = byte(r.Uint32())
	}
	return pdf
}

// BenchmarkCompose2MB composes a turn report with a 2 MB PDF.
func BenchmarkCompose2MB(b *testing.B) {
	m := goldenReport()
	m.Attachments[0].Data = benchPDF(2 << 20)
	b.SetBytes(2 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compose(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSend measures delivery to the sink over one connection, store
// bookkeeping (sending, sent: two synchronous commits) included; one op is
// one message.
func BenchmarkSend(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{{"text", 0}, {"100KB", 100 << 10}, {"2MB", 2 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			f := newFixture(b, sinkOptions{}, func(o *Options) { o.RatePerMinute = 1 << 30 })
			go func() { // the sink reports each arrival; nobody waits here
				for range f.sink.arrived {
				}
			}()
			var pdf []byte
			if c.size > 0 {
				pdf = benchPDF(c.size)
			}
			ctx := context.Background()
			err := f.db.Update(ctx, func(tx *store.Tx) error {
				for i := range b.N {
					m := f.report("prussia", 1)
					m.Key = fmt.Sprint(i)
					m.To = []mail.Address{{Address: "prussia@example.org"}}
					if pdf != nil {
						m.Attachments = []Attachment{{Filename: "r.pdf", ContentType: "application/pdf", Data: pdf}}
					}
					row, err := Row(m)
					if err != nil {
						return err
					}
					if i == 0 {
						b.SetBytes(int64(len(row.Raw)))
					}
					if _, err := tx.Enqueue(ctx, row); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			st, err := f.out.Flush(ctx)
			b.StopTimer()
			if err != nil || st.Sent != b.N {
				b.Fatalf("Flush = %+v, %v; want %d sent", st, err, b.N)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			if got := f.sink.got(); !bytes.Contains(got[len(got)-1].Data, []byte("Prague")) {
				b.Fatal("the last message did not arrive whole")
			}
		})
	}
}
