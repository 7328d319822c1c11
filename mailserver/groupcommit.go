package mailserver

import (
	"context"
	"sync"
)

// Group commit for SMTP deliveries. Every delivery must be durable (one
// fsync of the write-ahead log, synchronous=FULL) before the client gets its
// 250, and an fsync costs milliseconds; deliveries that arrive while one is
// being committed wait and are then committed together, in one transaction
// and one fsync. The first waiting delivery leads: it commits the whole
// group, then the next group, until none is waiting; the others wait for
// their own outcome. Alone, a delivery commits at once, as before.

// deliveryGroupMax bounds the messages of one group commit.
const deliveryGroupMax = 64

// delivery is one SMTP message's copies, waiting to be committed.
type delivery struct {
	msgs []newMessage
	err  error
	done chan struct{}
}

// groupCommit queues deliveries for the leader.
type groupCommit struct {
	mu      sync.Mutex
	pending []*delivery
	leading bool
}

// deliverGrouped stores msgs (one SMTP message's copies) durably, grouped
// with any deliveries that arrive meanwhile, and returns once they are
// committed.
func (s *Server) deliverGrouped(ctx context.Context, msgs []newMessage) error {
	d := &delivery{msgs: msgs, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	g.pending = append(g.pending, d)
	if g.leading {
		g.mu.Unlock()
		<-d.done
		return d.err
	}
	g.leading = true
	for len(g.pending) > 0 {
		n, count := 0, 0
		for n < len(g.pending) && (n == 0 || count+len(g.pending[n].msgs) <= deliveryGroupMax) {
			count += len(g.pending[n].msgs)
			n++
		}
		batch := g.pending[:n:n]
		g.pending = g.pending[n:]
		g.mu.Unlock()
		s.commitGroup(ctx, batch)
		g.mu.Lock()
	}
	g.leading = false
	g.mu.Unlock()
	<-d.done
	return d.err
}

// commitGroup commits a group in one transaction; if that fails, each
// delivery is committed alone, so that one bad delivery fails only itself.
func (s *Server) commitGroup(ctx context.Context, batch []*delivery) {
	defer func() {
		for _, d := range batch {
			close(d.done)
		}
	}()
	if len(batch) > 1 {
		var all []newMessage
		for _, d := range batch {
			all = append(all, d.msgs...)
		}
		if _, err := s.appendMessages(ctx, all); err == nil {
			return
		}
	}
	for _, d := range batch {
		_, d.err = s.appendMessages(ctx, d.msgs)
	}
}
