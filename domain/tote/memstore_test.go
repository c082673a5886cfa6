package tote_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// newMemEnv is a fresh in-memory store over a fresh in-memory ledger.
func newMemEnv(t *testing.T) totetest.Env {
	led := ledger.NewMemStore(nil)
	s := tote.NewMemStore(led)
	return totetest.Env{Store: s, Leases: s, Ledger: led}
}

func TestMemStore(t *testing.T) {
	totetest.Run(t, newMemEnv)
}
