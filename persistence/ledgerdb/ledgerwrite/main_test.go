package ledgerwrite_test

import (
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }
