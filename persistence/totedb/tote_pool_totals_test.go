package totedb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// TestPoolTotalsUnderConcurrentBatches is the property that the pool
// totals the bet paths write (tote.PoolIncrements, one upsert per batch)
// equal SUM(stake) and COUNT(*) over tote_bets for every (draw, round,
// market, selection), whatever batches run at once: goroutines place
// random batches on one draw (three markets, one hot selection every
// batch shares, stakes out of range, players short of funds or without a
// wallet, keys repeated within and across batches), on SQLite, on the
// Postgres fast path and on Postgres's reference path (InsertBets, then
// DeleteBets of the bets whose stake was refused). The batches must both
// accept and refuse bets, so that both count. The reference path posts
// its stakes one by one in request order, so two of its batches may
// deadlock on the wallets (it serves no store of the app, only the
// differential tests): such a batch rolls back whole, which the totals
// must survive too. Postgres finds a deadlock only after deadlock_timeout
// (1 s by default), and six batches deadlocking over and over kept one
// bet's INSERT waiting behind them past the 15 s statement timeout on a
// loaded CI machine; the reference path's database looks after 10 ms.
func TestPoolTotalsUnderConcurrentBatches(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	for _, c := range []struct {
		name, dialect string
		within        bool
	}{{"sqlite", "sqlite", false}, {"postgres", "postgres", false}, {"postgres reference path", "postgres", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := sqldbtest.OpenWith(t, c.dialect, func(o *sqldb.Options) {
				if c.within {
					o.DatabaseURL = sqldb.WithParam(o.DatabaseURL, "deadlock_timeout", "10ms")
				}
			})
			led := ledgerdb.New(db)
			repo := totedb.New(db, led)
			var store tote.Store = repo
			if c.within {
				store = withinOnly{repo}
			}
			h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: repo, Ledger: led, Concurrent: c.dialect == "postgres"}, 6)
			d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
			for u := int64(1); u <= 5; u++ { // user 6 has no wallet
				h.Deposit(u, money.Tenge(300*u))
			}
			accepted, refused := placeConcurrently(t, h, d, seed, c.within)
			if accepted == 0 || refused == 0 {
				t.Fatalf("%d bets accepted, %d refused: the batches must do both", accepted, refused)
			}
			checkTotalsEqualBets(t, db, accepted)
		})
	}
}

// placeConcurrently runs 6 goroutines of 8 random batches each on draw d
// and counts the bets accepted and refused; a refusal other than a bet's
// own (funds, range, selection, key) fails the test, but for a deadlock
// when deadlocks are allowed.
func placeConcurrently(t *testing.T, h *totetest.Harness, d tote.Draw, seed uint64, deadlocks bool) (accepted, refused int) {
	t.Helper()
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for g := range 6 {
		rng := rand.New(rand.NewPCG(seed, uint64(g)))
		wg.Go(func() {
			for range 8 {
				reqs := randomBatch(rng, d)
				_, errList := h.Svc.PlaceBets(context.Background(), reqs)
				mu.Lock()
				for _, err := range errList {
					switch {
					case err == nil:
						accepted++
					case errs.CodeOf(err) == errs.Internal && !(deadlocks && strings.Contains(err.Error(), "40P01")):
						t.Errorf("batch failed: %v", err)
					default:
						refused++
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return accepted, refused
}

// randomBatch is 1 to 12 requests on d; every batch bets on WIN 1 (the
// hot row every batch locks).
func randomBatch(rng *rand.Rand, d tote.Draw) []tote.PlaceBetRequest {
	n := 1 + rng.IntN(12)
	reqs := make([]tote.PlaceBetRequest, 0, n+1)
	reqs = append(reqs, tote.PlaceBetRequest{UserID: 1 + ids.UserID(rng.IntN(6)), DrawID: d.ID, Market: parimutuel.MarketWin, Selection: "1",
		Stake: money.Tenge(100), IdempotencyKey: fmt.Sprintf("hot-%d", rng.IntN(1<<30))})
	for range n {
		m := []parimutuel.Market{parimutuel.MarketWin, parimutuel.MarketCombination, parimutuel.MarketExpress}[rng.IntN(3)]
		sel := strconv.Itoa(1 + rng.IntN(7)) // 7: no such position
		switch m {
		case parimutuel.MarketCombination:
			sel = []string{"PAIR", "FLUSH", "STRAIGHT"}[rng.IntN(3)]
		case parimutuel.MarketExpress:
			sel = fmt.Sprintf("%d-%d-%d", 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6))
		}
		stake := money.Tenge(int64(50 + rng.IntN(250))) // under 100: out of range
		reqs = append(reqs, tote.PlaceBetRequest{UserID: 1 + ids.UserID(rng.IntN(6)), DrawID: d.ID, Market: m, Selection: sel,
			Stake: stake, IdempotencyKey: fmt.Sprintf("k%d", rng.IntN(40))})
	}
	return reqs
}

// checkTotalsEqualBets compares tote_pool_totals with the sums over
// tote_bets, key by key, and the bets stored with accepted.
func checkTotalsEqualBets(t *testing.T, db *sqldb.DB, accepted int) {
	t.Helper()
	type row struct {
		DrawID    int64
		Round     int
		Market    string
		Selection string
		Stake     int64
		Bets      int
	}
	read := func(q string) map[string]row {
		var rows []row
		if err := db.Gorm().Raw(q).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		out := map[string]row{}
		for _, r := range rows {
			out[fmt.Sprintf("%d/%d/%s/%s", r.DrawID, r.Round, r.Market, r.Selection)] = r
		}
		return out
	}
	want := read(`SELECT draw_id, round, market, selection, SUM(stake) AS stake, COUNT(*) AS bets FROM tote_bets GROUP BY draw_id, round, market, selection`)
	got := read(`SELECT draw_id, round, market, selection, stake, bets FROM tote_pool_totals WHERE bets <> 0 OR stake <> 0`)
	stored := 0
	for k, w := range want {
		stored += w.Bets
		if got[k] != w {
			t.Errorf("%s: totals %+v, the bets sum to %+v", k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: totals %+v without a bet", k, g)
		}
	}
	if stored != accepted {
		t.Errorf("%d bets stored, %d accepted", stored, accepted)
	}
}
