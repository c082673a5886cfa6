package persistence_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence"
)

// toteBenchHarness is a table of 6 positions with its dealer on a fresh
// database, with users 1..users funded.
func toteBenchHarness(b *testing.B, dialect string, users int) *totetest.Harness {
	b.Helper()
	o := persistence.Options{SQLitePath: filepath.Join(b.TempDir(), "bench.db")}
	if dialect == "postgres" {
		o = persistence.Options{DatabaseURL: testenv.Postgres(b), MaxOpenConns: 20}
	}
	db, err := persistence.Open(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	led := persistence.NewLedgerRepo(db)
	repo := persistence.NewToteRepo(db, led)
	h := totetest.NewHarness(b, totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres"}, 6)
	for u := 1; u <= users; u++ {
		h.Deposit(int64(u), 100_000_000*money.KZT)
	}
	return h
}

// benchSelections cycles through the markets of round 1.
var benchSelections = []struct {
	m   parimutuel.Market
	sel string
}{
	{parimutuel.MarketWin, "1"}, {parimutuel.MarketWin, "4"}, {parimutuel.MarketCombination, "PAIR"}, {parimutuel.MarketWin, "2"},
	{parimutuel.MarketExpress, "1-2-3"}, {parimutuel.MarketWin, "6"}, {parimutuel.MarketCombination, "TWO_PAIR"}, {parimutuel.MarketExpress, "2-2-2"},
}

// BenchmarkPlaceBet measures placeBet through the service and the database
// repository: one transaction per bet (draw lock, checks, bet row, stake
// transfer), from 16 goroutines, each its own player.
//
//	POKERTOTE_REQUIRE_SERVICES=1 go test ./persistence -run '^$' -bench PlaceBet -benchtime 3000x
func BenchmarkPlaceBet(b *testing.B) {
	for _, dialect := range testDialects {
		b.Run(dialect, func(b *testing.B) {
			const workers = 16
			h := toteBenchHarness(b, dialect, workers)
			d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						s := benchSelections[i%int64(len(benchSelections))]
						_, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: int64(w + 1), DrawID: d.ID, Market: s.m,
							Selection: s.sel, Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("b%d", i)})
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "bets/s")
		})
	}
}

// BenchmarkSettleDraw measures the settlement step of a draw holding n bets
// over round 1's three pools: one transaction reading the bets, posting one
// transfer per pool, updating every bet and storing the result.
//
//	POKERTOTE_REQUIRE_SERVICES=1 go test ./persistence -run '^$' -bench SettleDraw -benchtime 3x
func BenchmarkSettleDraw(b *testing.B) {
	for _, dialect := range testDialects {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/bets=%d", dialect, n), func(b *testing.B) {
				const users = 32
				h := toteBenchHarness(b, dialect, users)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					d := h.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal })
					placeBets(b, h, d, n, users)
					h.RunUntil(h.Dealer, "river", func(x tote.Draw) bool { return x.ID == d.ID && len(x.Board) == 5 })
					h.Clock.Advance(time.Hour) // the settlement step is due
					b.StartTimer()
					h.Dealer.Tick(h.Ctx)
					b.StopTimer()
					if got := h.Draw(); got.ID != d.ID || got.Phase != tote.PhaseSettled {
						b.Fatalf("draw %d not settled: %s", got.ID, got.Phase)
					}
				}
			})
		}
	}
}

// placeBets places n bets on d from users goroutines.
func placeBets(b *testing.B, h *totetest.Harness, d tote.Draw, n, users int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range users {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				s := benchSelections[i%int64(len(benchSelections))]
				_, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: int64(w + 1), DrawID: d.ID, Market: s.m, Selection: s.sel,
					Stake: 100*money.KZT + money.Amount(i%97), IdempotencyKey: fmt.Sprintf("d%d-%d", d.ID, i)})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
