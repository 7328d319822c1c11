package store

import (
	"testing"

	"github.com/syw-pbem/pbem/internal/testtmp"
)

// TestMain keeps the tests' stores and spools on tmpfs (internal/testtmp):
// what they check does not depend on the disk's fsync.
func TestMain(m *testing.M) { testtmp.Main(m) }
