package totedb_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestExclusionSerialisedWithBets is issue 22's "protection is serialised
// with the money": players self-exclude while their bets are in flight
// (six clients each, betting in a closed loop until refused). Every bet is
// either stored with a time before its player's exclusion started, or
// refused SELF_EXCLUDED, and every accepted answer is a stored bet. The
// ledger, the protection service and the tote read one clock that moves a
// microsecond at every read by the first two, so "before" is strict: a bet
// that read its player's state before the exclusion committed but was
// stamped after it started shows as a stored time at or after the start.
func TestExclusionSerialisedWithBets(t *testing.T) {
	for _, c := range []struct {
		name, dialect string
		fast          bool
	}{{"postgres-fast-path", "postgres", true}, {"postgres-single-posts", "postgres", false}, {"sqlite", "sqlite", false}, {"sqlite-batch", "sqlite", true}} {
		t.Run(c.name, func(t *testing.T) {
			w := newBatchWorldOn(t, c.dialect, c.fast)
			ctx := context.Background()
			tick := func() time.Time { w.h.Clock.Advance(time.Microsecond); return w.h.Clock.Now() }
			w.led.SetClock(tick)
			prot := protection.NewService(w.store, w.users, w.loc, tick)
			const players, clients, most = 4, 6, 40 // bets per client at most
			var wg sync.WaitGroup
			uids := make([]int64, players)
			since := make([]time.Time, players)
			accepted := make([]atomic.Int64, players)
			for p := range players {
				uids[p] = w.user(t, fmt.Sprintf("Racing Player %d", p), account.Player, "1990-05-17")
				w.h.Deposit(uids[p], 100_000*money.KZT)
			}
			start := make(chan struct{})
			for p := range players {
				u := uids[p]
				var answered atomic.Int64
				excludeAt := int64(8 + 6*p)
				for cl := range clients {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for i := range most {
							_, err := w.h.Svc.PlaceBet(ctx, tote.PlaceBetRequest{UserID: ids.UserID(u), DrawID: w.draw.ID, Market: parimutuel.MarketWin,
								Selection: fmt.Sprint(1 + i%8), Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("race-%d-%d", cl, i)})
							if err == nil {
								accepted[p].Add(1)
							}
							if answered.Add(1) == excludeAt {
								ex, err := prot.SelfExclude(ctx, u, 6)
								if err != nil {
									t.Error(err)
									return
								}
								since[p] = ex.Since
							}
							if err != nil {
								if errs.ReasonOf(err) != protection.ReasonSelfExcluded {
									t.Errorf("player %d bet %d-%d: %v (want accepted or %s)", p, cl, i, err, protection.ReasonSelfExcluded)
								}
								return
							}
						}
					}()
				}
			}
			close(start)
			wg.Wait()
			if t.Failed() {
				return
			}
			for p, u := range uids {
				bets, err := w.h.Svc.Bets(ctx, tote.BetQuery{UserID: ids.UserID(u), Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				if int64(len(bets)) != accepted[p].Load() {
					t.Errorf("player %d: %d bets stored, %d accepted", p, len(bets), accepted[p].Load())
				}
				late := 0
				for _, b := range bets {
					if !b.PlacedAt.Before(since[p]) {
						if late++; late <= 3 {
							t.Errorf("player %d: bet %d stored at %s, not before the exclusion's start %s",
								p, b.ID, b.PlacedAt.Format(time.RFC3339Nano), since[p].Format(time.RFC3339Nano))
						}
					}
				}
				if late > 0 {
					t.Errorf("player %d: %d of %d stored bets are not before the exclusion's start", p, late, len(bets))
				}
				t.Logf("player %d: %d bets accepted, the exclusion after %d answers", p, len(bets), 8+6*p)
			}
		})
	}
}
