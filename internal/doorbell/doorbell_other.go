//go:build !unix

package doorbell

import "context"

// Ring does nothing on this system (see the package comment): nobody
// hears it.
func Ring(path string) bool { return false }

// Listen returns ErrUnsupported on this system (see the package comment).
func Listen(ctx context.Context, path string, wake func()) error { return ErrUnsupported }
