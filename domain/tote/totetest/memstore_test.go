package totetest_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/tote/totetest"
)

func TestMemStore(t *testing.T) {
	totetest.Run(t, totetest.MemEnv)
}
