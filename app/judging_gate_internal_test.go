package app

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/bettingstop/bettingstoptest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
)

// TestJudgingGateChecksTheStopFirst: the totalizator's judge refuses as
// the stop does before it asks the accounts' rule (nil here: asking it
// would panic), so a bet judged in its batch is refused while betting
// cannot be confirmed open.
func TestJudgingGateChecksTheStopFirst(t *testing.T) {
	gate := bettingstop.NewGate(nil, &bettingstoptest.MemStore{}, time.Second, nil) // never loaded
	g := judgingGate{Gate: gate}
	errstest.Is(t, g.CanStake(account.User{ID: 1}, account.Verification{}, time.Now()), errs.Unavailable, bettingstop.ReasonStopUnknown)
}
