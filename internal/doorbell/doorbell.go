// Package doorbell wakes a process that works on a store from another
// process that has just given it work: "pbem resolve" (or any command that
// queues mail) beside a running "pbem run", whose outbox would otherwise
// find the mail only at its next poll, seconds later.
//
// The bell is a named pipe (FIFO) beside the store. The process that wants
// waking (Listen) creates it and holds it open for reading; a ring (Ring)
// opens it for writing without blocking, writes one byte and closes it.
// Nothing is carried but the ring itself: the woken process looks in the
// store for what to do, so a ring lost (nobody listening, the pipe full) or
// doubled costs nothing but a poll's wait or a needless look. A pipe left
// behind by a process that stopped is harmless: with no reader, opening it
// for writing fails at once and the ring is dropped.
//
// On systems without named pipes (Windows) Listen returns ErrUnsupported
// and Ring does nothing: the listener's own poll finds the work.
package doorbell

import "errors"

// ErrUnsupported is returned by Listen where the system has no named pipes.
var ErrUnsupported = errors.New("doorbell: no named pipes on this system")

// Beside returns the path of the doorbell of the store file at storePath.
func Beside(storePath string) string { return storePath + ".bell" }
