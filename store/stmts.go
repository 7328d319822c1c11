package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
)

// Prepared statements.
//
// SQLite compiles every statement before it runs it; for the short queries
// the daemon makes for each mail, compiling costs more than running. So a
// Tx runs its queries through statements kept once per pool and query text.
//
// A statement cannot be prepared on the pool from inside a transaction: the
// writer pool has one connection, which the transaction holds, so
// DB.PrepareContext would wait for it for ever (and a full read pool the
// same). So the first use of a text runs it unprepared and asks a goroutine
// to prepare it on the pool once a connection is free; later uses hand the
// kept statement to the transaction (Tx.StmtContext), which database/sql
// prepares on the transaction's own connection the first time, and keeps.
// Only fixed query texts are kept, at most maxStmts a pool; one holding
// several statements is never kept.

// maxStmts bounds the statements kept for one pool: the store's queries are
// fixed texts, far fewer than this.
const maxStmts = 256

// stmtCache is the prepared statements of one pool, by query text; a nil
// entry is one being prepared.
type stmtCache struct {
	pool   *sql.DB
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	closed bool
	busy   sync.WaitGroup // the prepare goroutines under way
}

func newStmtCache(pool *sql.DB) *stmtCache { return &stmtCache{pool: pool, m: map[string]*sql.Stmt{}} }

// get returns the kept statement for q, or nil (run q unprepared): q holds
// several statements, the cache is full, or q is being prepared now.
func (c *stmtCache) get(q string) *sql.Stmt {
	if c == nil || strings.Contains(strings.TrimSuffix(strings.TrimSpace(q), ";"), ";") {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[q]; ok || c.closed || len(c.m) >= maxStmts {
		return s
	}
	c.m[q] = nil
	c.busy.Add(1)
	go c.prepare(q)
	return nil
}

// prepare prepares q on the pool (waiting for a free connection) and keeps
// it; on an error it forgets q, to be tried at its next use.
func (c *stmtCache) prepare(q string) {
	defer c.busy.Done()
	s, err := c.pool.PrepareContext(context.Background(), q)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		delete(c.m, q)
		return
	}
	c.m[q] = s
}

// close waits for the preparations under way (a connection one holds must
// be back in the pool before the pool closes, or it would close after
// DB.Close has returned), then closes every kept statement.
func (c *stmtCache) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.busy.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for q, s := range c.m {
		if s != nil {
			errs = append(errs, s.Close())
		}
		delete(c.m, q)
	}
	return errors.Join(errs...)
}

// stmt returns q prepared for this transaction, or nil (run it unprepared).
func (tx *Tx) stmt(ctx context.Context, q string) *sql.Stmt {
	s := tx.stmts.get(q)
	if s == nil {
		return nil
	}
	return tx.tx.StmtContext(ctx, s)
}

// query is tx.tx.QueryContext through a prepared statement.
func (tx *Tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if s := tx.stmt(ctx, q); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return tx.tx.QueryContext(ctx, q, args...)
}

// queryRow is tx.tx.QueryRowContext through a prepared statement.
func (tx *Tx) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if s := tx.stmt(ctx, q); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return tx.tx.QueryRowContext(ctx, q, args...)
}

// exec is tx.tx.ExecContext through a prepared statement.
func (tx *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if s := tx.stmt(ctx, q); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return tx.tx.ExecContext(ctx, q, args...)
}
