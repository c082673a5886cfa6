package totedb

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// SeedBetsForBench stores accepted bets directly, as the bet path would
// leave them (rows 1,000 a transaction, with their pool totals),
// and moves their stakes from the wallets into the pools' escrows with one
// transfer per pool. Benchmarks of settlement use it to build draws of
// 100,000 bets in seconds rather than through placeBet; nothing else
// should.
func SeedBetsForBench(ctx context.Context, db *sqldb.DB, led *ledgerdb.Repo, bets []tote.Bet, at time.Time) error {
	stakes := map[string]map[ids.UserID]money.Amount{}
	rows := make([]toteBetRow, len(bets))
	for i, b := range bets {
		b.Status, b.PlacedAt = tote.BetAccepted, at
		rows[i] = fromDomainBet(b)
		rows[i].ID = 0
		pool := tote.PoolID(b.DrawID, b.Round, b.Selection.Market)
		if stakes[pool] == nil {
			stakes[pool] = map[ids.UserID]money.Amount{}
		}
		stakes[pool][b.UserID] += b.Stake
	}
	// A transaction per 1,000 rows, each adding its bets' pool totals as
	// the bet path does (addPoolTotals, once per key).
	for start := 0; start < len(rows); start += 1000 {
		chunk := rows[start:min(len(rows), start+1000)]
		incs := tote.PoolIncrements(bets[start:min(len(rows), start+1000)])
		if err := db.Tx(ctx, func(tx *gorm.DB) error {
			if err := tx.WithContext(ctx).Create(&chunk).Error; err != nil {
				return err
			}
			return addPoolTotals(tx.WithContext(ctx), incs)
		}); err != nil {
			return err
		}
	}
	for pool, byUser := range stakes {
		var total money.Amount
		entries := []ledger.Entry{}
		for u, a := range byUser {
			entries = append(entries, ledger.Entry{Account: ledger.UserWallet(u), Amount: -a})
			total += a
		}
		entries = append(entries, ledger.Entry{Account: ledger.EscrowOf(pool), Amount: total})
		if _, err := led.Post(ctx, ledger.Transfer{IdempotencyKey: fmt.Sprintf("bench-seed:%s:%d", pool, len(bets)), Kind: ledger.BetStake, Memo: "benchmark stakes", Entries: entries}); err != nil {
			return err
		}
	}
	return nil
}
