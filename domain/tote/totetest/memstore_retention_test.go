package totetest_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// TestMemStoreEventRetention runs the outbox-pruning conformance test on the
// in-memory twin.
func TestMemStoreEventRetention(t *testing.T) { totetest.RunRetention(t, totetest.MemEnv) }
