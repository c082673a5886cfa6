package totedb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// TestBetPlanSameOnEveryStore is the property that the bet batch's plan
// (tote.PlanBatch) is one function on every store (issue 24): each store
// reads its snapshot, plans and writes, and for the same random request
// batches they give every request the same answer and leave the same
// writes.
//
//   - money: the twin, SQLite and the Postgres fast path, one draw each,
//     the same players and deposits, then rounds of random batches (three
//     markets, stakes out of range, players without a wallet, keys
//     repeated within and across batches, with the same or another
//     selection): the answers, the wallets, the escrows, the stored bets
//     (player, key, selection, stake) and the pool totals agree after every
//     batch, and every ledger reconciles;
//   - protection: SQLite and the Postgres fast path on TestBetBatchMatchesSinglePosts's
//     kind of rounds (limits of every kind and period, earlier stakes,
//     time-outs, self-exclusions, register entries): the same answers,
//     wallets, counters and sessions of play (the twin keeps no
//     protection state).
func TestBetPlanSameOnEveryStore(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	t.Run("money", func(t *testing.T) { planSameMoney(t, seed) })
	t.Run("protection", func(t *testing.T) { planSameProtection(t, seed) })
}

func planSameMoney(t *testing.T, seed uint64) {
	ctx := context.Background()
	names := []string{"twin", "sqlite", "postgres"}
	hs := map[string]*totetest.Harness{}
	draws := map[string]tote.Draw{}
	for _, name := range names {
		env := totetest.MemEnv(t)
		if name != "twin" {
			db := sqldbtest.Open(t, name)
			led := ledgerdb.New(db)
			repo := totedb.New(db, led)
			env = totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: name == "postgres"}
		}
		h := totetest.NewHarness(t, env, 6)
		hs[name] = h
		draws[name] = h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	}
	rng := rand.New(rand.NewPCG(24, seed))
	const players = 6 // user 6 never deposits: no wallet at all
	for u := int64(1); u < players; u++ {
		dep := money.Amount(rng.IntN(30)) * 100 * money.KZT
		for _, name := range names {
			if dep > 0 {
				hs[name].Deposit(u, dep)
			}
		}
	}
	markets := []parimutuel.Market{parimutuel.MarketWin, parimutuel.MarketCombination, parimutuel.MarketExpress}
	keys := 0
	seen := map[string]int{} // the twin's answers by reason ("" accepted)
	for round := range 16 {
		n := 1 + rng.IntN(16)
		reqs := make([]tote.PlaceBetRequest, n)
		for i := range reqs {
			if i > 0 && rng.IntN(8) == 0 {
				reqs[i] = reqs[rng.IntN(i)]
				continue
			}
			m := markets[rng.IntN(len(markets))]
			sel := fmt.Sprint(1 + rng.IntN(6))
			switch m {
			case parimutuel.MarketCombination:
				sel = []string{"PAIR", "FLUSH", "STRAIGHT"}[rng.IntN(3)]
			case parimutuel.MarketExpress:
				sel = fmt.Sprintf("%s-%s-%d", sel, sel, 1+rng.IntN(6))
			}
			reqs[i] = tote.PlaceBetRequest{UserID: ids.UserID(1 + rng.IntN(players)), Market: m, Selection: sel,
				Stake:          money.Amount([]int64{50, 100, 150, 300, 700, 5_000_000}[rng.IntN(6)]) * money.KZT,
				IdempotencyKey: fmt.Sprintf("k%d", rng.IntN(keys+n))}
		}
		keys += n
		var want []string
		var wantBook string
		for _, name := range names {
			h := hs[name]
			rs := slices.Clone(reqs)
			for i := range rs {
				rs[i].DrawID = draws[name].ID
			}
			bets, errList := h.Svc.PlaceBets(ctx, rs)
			got := make([]string, n)
			for i := range rs {
				if errList[i] != nil {
					got[i] = string(errs.CodeOf(errList[i])) + "/" + errs.ReasonOf(errList[i])
					continue
				}
				got[i] = fmt.Sprintf("accepted %s %s %s by %d key %s", bets[i].Stake, bets[i].Selection.Market, bets[i].Selection, bets[i].UserID, bets[i].IdempotencyKey)
			}
			book := planBook(t, h, draws[name].ID, players, markets)
			if want == nil {
				want, wantBook = got, book
				for _, err := range errList {
					seen[errs.ReasonOf(err)]++
				}
				continue
			}
			for i := range reqs {
				if got[i] != want[i] {
					t.Errorf("round %d request %d (%+v): %s %s, %s %s", round, i, reqs[i], names[0], want[i], name, got[i])
				}
			}
			if book != wantBook {
				t.Errorf("round %d: the books differ\n%s:\n%s\n%s:\n%s", round, names[0], wantBook, name, book)
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("answers by reason: %v", seen)
	for _, name := range names {
		if err := hs[name].Env.Ledger.Reconcile(ctx); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// planBook is the state a bet batch writes, as text to compare across
// stores: wallets, escrows, the draw's bets and its pool totals.
func planBook(t *testing.T, h *totetest.Harness, drawID int64, players int, markets []parimutuel.Market) string {
	t.Helper()
	var sb strings.Builder
	for u := 1; u <= players; u++ {
		fmt.Fprintf(&sb, "wallet %d: %s\n", u, h.Balance(ledger.UserWallet(ids.UserID(u))))
	}
	for _, m := range markets {
		fmt.Fprintf(&sb, "escrow %s: %s\n", m, h.Balance(ledger.EscrowOf(tote.PoolID(drawID, 1, m))))
	}
	bets, err := h.Env.Store.DrawBets(h.Ctx, drawID)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, b := range bets {
		lines = append(lines, fmt.Sprintf("bet of %d key %s: %s %s %s %s\n", b.UserID, b.IdempotencyKey, b.Selection.Market, b.Selection, b.Stake, b.Status))
	}
	totals, err := h.Env.Store.PoolTotals(h.Ctx, drawID, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range totals {
		lines = append(lines, fmt.Sprintf("total %s %s %s: %s in %d\n", st.Round, st.Selection.Market, st.Selection, st.Stake, st.Bets))
	}
	slices.Sort(lines)
	return sb.String() + strings.Join(lines, "")
}

func planSameProtection(t *testing.T, seed uint64) {
	sqlite, pg := newBatchWorldOn(t, "sqlite", true), newBatchWorld(t, true)
	rng := rand.New(rand.NewPCG(25, seed))
	for round := range 8 {
		players := randomBatchPlayers(rng, "Plan Player R"+strings.Repeat("m", round+1))
		n := 4 + rng.IntN(14)
		reqs := make([]tote.PlaceBetRequest, n)
		userIdx := make([]int, n)
		for i := range reqs {
			userIdx[i] = rng.IntN(len(players))
			key := rng.IntN(n)
			// Any selection with a key: both stores keep the first asked.
			reqs[i] = tote.PlaceBetRequest{Market: parimutuel.MarketWin, Selection: fmt.Sprint(1 + rng.IntN(8)),
				Stake: money.Amount([]int64{50, 100, 150, 200, 300, 500}[rng.IntN(6)]) * money.KZT, IdempotencyKey: fmt.Sprintf("r%d-k%d", round, key)}
			if rng.IntN(8) == 0 && i > 0 {
				reqs[i] = reqs[rng.IntN(i)]
				userIdx[i] = userIdx[slices.Index(reqs, reqs[i])]
			}
		}
		sqliteOut, sqliteBook := sqlite.run(t, round, players, reqs, userIdx)
		pgOut, pgBook := pg.run(t, round, players, reqs, userIdx)
		for i := range reqs {
			if sqliteOut[i] != pgOut[i] {
				t.Errorf("round %d request %d (player %d %+v, %s on %s key %s): SQLite %s, Postgres %s",
					round, i, userIdx[i], players[userIdx[i]], reqs[i].Stake, reqs[i].Selection, reqs[i].IdempotencyKey, sqliteOut[i], pgOut[i])
			}
		}
		if sqliteBook != pgBook {
			t.Errorf("round %d books differ:\nSQLite:\n%s\nPostgres:\n%s", round, sqliteBook, pgBook)
		}
		if t.Failed() {
			return
		}
	}
	for name, w := range map[string]*batchWorld{"SQLite": sqlite, "Postgres": pg} {
		w.checkOpenBooks(t, name)
	}
}
