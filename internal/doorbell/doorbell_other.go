//go:build !unix

package doorbell

import "context"

// Ring does nothing on this system (see the package comment).
func Ring(path string) {}

// Listen returns ErrUnsupported on this system (see the package comment).
func Listen(ctx context.Context, path string, wake func()) error { return ErrUnsupported }
