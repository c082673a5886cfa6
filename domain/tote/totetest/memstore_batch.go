package totetest

import (
	"context"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
)

var _ tote.BatchPlacer = (*MemStore)(nil)

// ReadsPlayers implements tote.BatchPlacer: the twin keeps no accounts, so
// the stake gate answers before the batch.
func (s *MemStore) ReadsPlayers() bool { return false }

// balanceReader is the ledger twin's transaction, which reads balances
// under the lock it holds (ledgertest.MemStore.InTx).
type balanceReader interface {
	Balance(ctx context.Context, a ledger.AccountRef) (money.Amount, error)
}

// PlaceBatch implements tote.BatchPlacer as the database stores do, in one
// transaction of the twin (Within: the store and its ledger locked, undone
// on error): it reads the snapshot (the draw and its table, a bet id per
// request, the keys taken, the players' wallets), lets tote.PlanBatch
// decide, and writes the plan (the bets, in request order, and each
// admitted stake posted to the ledger twin). The twin keeps no
// player-protection state (a guard on its ledger would count the posts
// itself), so the snapshot holds none.
func (s *MemStore) PlaceBatch(ctx context.Context, w tote.BatchWork) ([]tote.BatchResult, error) {
	var res []tote.BatchResult
	err := s.Within(ctx, func(ctx context.Context, txi tote.Tx) error {
		tx := txi.(*memTx)
		res = nil
		snap, err := tx.batchSnapshot(ctx, w)
		if err != nil {
			return err
		}
		plan, err := tote.PlanBatch(w, snap)
		if err != nil {
			return err
		}
		if err := tx.writePlan(ctx, plan); err != nil {
			return err
		}
		res = plan.Results
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// batchSnapshot reads w's snapshot in the transaction.
func (tx *memTx) batchSnapshot(ctx context.Context, w tote.BatchWork) (tote.BatchSnapshot, error) {
	d, err := tx.LockDraw(ctx, w.DrawID, tote.Shared)
	if err != nil {
		return tote.BatchSnapshot{}, err
	}
	t, err := tx.Table(ctx, d.TableID)
	if err != nil {
		return tote.BatchSnapshot{}, err
	}
	reader, ok := tx.poster.(balanceReader)
	if !ok {
		return tote.BatchSnapshot{}, errs.E(errs.Internal, "totetest: the ledger's transaction (%T) reads no balances", tx.poster)
	}
	snap := tote.BatchSnapshot{Draw: d, Table: t, BetIDs: make([]int64, len(w.Requests)), Now: w.Clock.Now(),
		Wallets: map[ids.UserID]money.Amount{},
		Taken: func(u ids.UserID, key string) bool {
			_, taken := tx.s.keys[memBetKey{u, key}]
			return taken
		},
	}
	for i, q := range w.Requests {
		snap.BetIDs[i] = tx.nextID()
		if _, ok := snap.Wallets[q.UserID]; ok {
			continue
		}
		if snap.Wallets[q.UserID], err = reader.Balance(ctx, ledger.UserWallet(q.UserID)); err != nil {
			return tote.BatchSnapshot{}, err
		}
	}
	return snap, nil
}

// writePlan stores the plan's bets, posts their stakes and adds the
// plan's pool totals; the ledger twin
// must leave each wallet where the plan says (it applies the same
// ledger.Apply), else the batch fails.
func (tx *memTx) writePlan(ctx context.Context, plan tote.BatchPlan) error {
	for _, st := range plan.Stakes {
		if err := tx.storeBet(plan.Results[st.Request].Bet); err != nil {
			return err
		}
	}
	for _, st := range plan.Stakes {
		b := plan.Results[st.Request].Bet
		p, err := tx.poster.Post(ctx, st.Transfer)
		if err != nil {
			return errs.Wrap(err, "the ledger twin refused a planned stake")
		}
		for _, e := range p.Entries {
			if e.Account == ledger.UserWallet(b.UserID) && e.BalanceAfter != st.Balance {
				return errs.E(errs.Internal, "totetest: bet %d left wallet %s at %s, the plan says %s", b.ID, e.Account, e.BalanceAfter, st.Balance)
			}
		}
	}
	return tx.AddPoolTotals(ctx, plan.Totals)
}
