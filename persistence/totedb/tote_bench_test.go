package totedb_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// toteBenchHarness is a table of 6 positions with its dealer on a fresh
// database, with users 1..users funded.
func toteBenchHarness(b *testing.B, dialect string, users int) *totetest.Harness {
	h, _, _ := toteBenchEnv(b, dialect, users)
	return h
}

// toteBenchEnv is toteBenchHarness with its database and ledger.
func toteBenchEnv(b *testing.B, dialect string, users int) (*totetest.Harness, *sqldb.DB, *ledgerdb.Repo) {
	b.Helper()
	o := sqldb.Options{SQLitePath: filepath.Join(b.TempDir(), "bench.db")}
	if dialect == "postgres" {
		o = sqldb.Options{DatabaseURL: testenv.Postgres(b), MaxOpenConns: 20}
	}
	db, err := sqldb.Open(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	led := ledgerdb.New(db)
	repo := totedb.New(db, led)
	h := totetest.NewHarness(b, totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres"}, 6)
	for u := 1; u <= users; u++ {
		h.Deposit(int64(u), 100_000_000*money.KZT)
	}
	return h, db, led
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
//	POKERTOTE_REQUIRE_SERVICES=1 go test ./persistence/totedb -run '^$' -bench PlaceBet -benchtime 3000x
func BenchmarkPlaceBet(b *testing.B) {
	for _, dialect := range sqldbtest.Dialects {
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
						_, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(w + 1), DrawID: d.ID, Market: s.m,
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
// of 1,000 players over round 1's three pools (about 230 backed
// selections): one transaction paying every bet, posting the pools' and
// the players' money and storing the result, then the players' events. It
// reports the peak heap growth during the step (sampled every
// millisecond) beside the usual allocation figures.
//
//	POKERTOTE_REQUIRE_SERVICES=1 go test ./persistence/totedb -run '^$' -bench 'SettleDraw/postgres/bets=100000' -benchtime 1x -benchmem
func BenchmarkSettleDraw(b *testing.B) {
	for _, dialect := range sqldbtest.Dialects {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/bets=%d", dialect, n), func(b *testing.B) {
				const users = 1000
				h, db, led := toteBenchEnv(b, dialect, users)
				b.ReportAllocs()
				b.ResetTimer()
				var peak uint64
				var cpu, pgCPU time.Duration
				for range b.N {
					b.StopTimer()
					d := h.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal })
					seedBets(b, h, db, led, d, n, users)
					h.RunUntil(h.Dealer, "river", func(x tote.Draw) bool { return x.ID == d.ID && len(x.Board) == 5 })
					h.Clock.Advance(time.Hour) // the settlement step is due
					runtime.GC()
					stop := samplePeakHeap(&peak)
					backends := backendPIDs(b, db)
					self0, pg0 := processCPU(), procCPU(backends)
					b.StartTimer()
					h.Dealer.Tick(h.Ctx)
					b.StopTimer()
					cpu += processCPU() - self0
					pgCPU += procCPU(backends) - pg0
					stop()
					if got := h.Draw(); got.ID != d.ID || got.Phase != tote.PhaseSettled {
						b.Fatalf("draw %d not settled: %s", got.ID, got.Phase)
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				// CPU spent by the step, this process and (Postgres) the
				// database's backends: unlike the wall time it hardly
				// moves with what else the shared machine runs.
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "go-cpu-ms/op")
				if dialect == "postgres" {
					b.ReportMetric(float64(pgCPU.Milliseconds())/float64(b.N), "pg-cpu-ms/op")
				}
			})
		}
	}
}

// samplePeakHeap samples the live heap every millisecond until stop is
// called and raises *peak to the largest growth over the heap at the
// start.
func samplePeakHeap(peak *uint64) (stop func()) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > base && ms.HeapAlloc-base > *peak {
				*peak = ms.HeapAlloc - base
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// benchSelection is the i-th bet's market and selection: the three markets
// in turn, over every position, ten hand categories and 216 coupons.
func benchSelection(i int) (parimutuel.Market, string) {
	switch i % 3 {
	case 0:
		return parimutuel.MarketWin, fmt.Sprint(i/3%6 + 1)
	case 1:
		return parimutuel.MarketCombination, parimutuel.Combination(i / 3 % parimutuel.NumCombinations).String()
	}
	c := i / 3 % 216
	return parimutuel.MarketExpress, fmt.Sprintf("%d-%d-%d", c%6+1, c/6%6+1, c/36+1)
}

// seedBets stores n accepted bets on d from users players, their stakes
// moved into the escrows, directly in the database
// (totedb.SeedBetsForBench): the bet path is measured elsewhere
// (BenchmarkPlaceBet, scripts/bench-bets.sh).
func seedBets(b *testing.B, h *totetest.Harness, db *sqldb.DB, led *ledgerdb.Repo, d tote.Draw, n, users int) {
	bets := make([]tote.Bet, n)
	for j := range bets {
		m, s := benchSelection(j)
		sel, err := parimutuel.ParseSelection(m, s)
		if err != nil {
			b.Fatal(err)
		}
		bets[j] = tote.Bet{DrawID: d.ID, TableID: d.TableID, UserID: ids.UserID(j%users + 1), Round: parimutuel.RoundPreDeal, Selection: sel,
			Stake: 100*money.KZT + money.Amount(j%97), IdempotencyKey: fmt.Sprintf("d%d-%d", d.ID, j)}
	}
	if err := totedb.SeedBetsForBench(h.Ctx, db, led, bets, h.Clock.Now()); err != nil {
		b.Fatal(err)
	}
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backendPIDs lists the Postgres backends connected to db's database
// (none on SQLite).
func backendPIDs(b *testing.B, db *sqldb.DB) []int {
	if db.Dialect() != sqldb.Postgres {
		return nil
	}
	var pids []int
	if err := db.Gorm().Raw("SELECT pid FROM pg_stat_activity WHERE datname = current_database()").Scan(&pids).Error; err != nil {
		b.Fatal(err)
	}
	return pids
}

// procCPU sums the user and system CPU time of the processes pids (those
// on this machine whose /proc entry it can read), in clock ticks of 10 ms.
func procCPU(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis: utime and
		// stime are the 12th and 13th of them.
		f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + s
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
