package totedb

// The bet batch on SQLite (tote.BatchPlacer): the three steps of the
// Postgres fast path (tote_batch_pg.go) in one transaction of plain
// statements. SQLite runs its transactions one at a time (they start
// IMMEDIATE on one connection), so the reads need no locks and the keys
// taken before the batch are read exactly:
//
//  1. the snapshot: the draw (LockDraw, shared) and its table, bet ids
//     after every id handed out, the requests' taken keys, the players'
//     wallets (in the ledger's lock order), their protection state
//     (LoadStates), counters and sessions of play;
//  2. tote.PlanBatch on it, as on every store;
//  3. the plan's rows (planRows) written: the bets in betInsertOrder, the
//     transfers, the escrows (created if missing) with their new
//     balances, the wallets' balances, the entries with the balances after
//     each, the counters and sessions as protection.Admit left them, and
//     last the plan's pool totals (tote_pool_totals.go).
//
// The stake gate answers before the batch (ReadsPlayers is false here).

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// placeBatchSQLite is PlaceBatch on SQLite; see the top of this file.
func (r *Repo) placeBatchSQLite(ctx context.Context, w tote.BatchWork) ([]tote.BatchResult, error) {
	if w.ReadPlayers() {
		return nil, errs.E(errs.Internal, "persistence: the SQLite bet batch reads no players")
	}
	var res []tote.BatchResult
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		var err error
		res, err = r.placeBatchGorm(ctx, tx.WithContext(ctx), w)
		return err
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "bet")
	}
	return res, nil
}

// placeBatchGorm reads the snapshot of w in tx, plans and writes.
func (r *Repo) placeBatchGorm(ctx context.Context, tx *gorm.DB, w tote.BatchWork) ([]tote.BatchResult, error) {
	snap, walletID, err := r.readBatchSnapshot(ctx, tx, w)
	if err != nil {
		return nil, err
	}
	plan, err := tote.PlanBatch(w, snap)
	if err != nil {
		return nil, err
	}
	// w.Writing is not called: on SQLite's one connection the next batch
	// could not read before this one commits, and would only start with
	// fewer bets.
	if len(plan.Stakes) > 0 {
		if err := r.writeBatchGorm(tx, planRows(plan), walletID, snap.Now); err != nil {
			return nil, err
		}
	}
	return plan.Results, nil
}

// readBatchSnapshot is step 1; it also returns the players' wallet ids.
func (r *Repo) readBatchSnapshot(ctx context.Context, tx *gorm.DB, w tote.BatchWork) (tote.BatchSnapshot, map[int64]int64, error) {
	tt := &toteTx{repo: r, tx: tx}
	d, err := tt.LockDraw(ctx, w.DrawID, tote.Shared)
	if err != nil {
		return tote.BatchSnapshot{}, nil, err
	}
	t, err := tt.Table(ctx, d.TableID)
	if err != nil {
		return tote.BatchSnapshot{}, nil, err
	}
	now := sqldb.StoredTime(r.led.Now())
	snap := tote.BatchSnapshot{Draw: d, Table: t, Now: now, BetIDs: make([]int64, len(w.Requests)),
		Wallets: map[ids.UserID]money.Amount{}, States: map[ids.UserID]protection.State{},
		Counters: map[ids.UserID]protection.Counters{}, Sessions: map[ids.UserID]protection.Session{},
	}
	// Bet ids after every one handed out (AUTOINCREMENT's sequence) or
	// stored; the write stores the admitted bets with theirs.
	var last int64
	if err := tx.Raw(`SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'tote_bets'), 0),
		COALESCE((SELECT MAX(id) FROM tote_bets), 0))`).Scan(&last).Error; err != nil {
		return tote.BatchSnapshot{}, nil, fmt.Errorf("read bet ids: %w", err)
	}
	for i := range snap.BetIDs {
		snap.BetIDs[i] = last + int64(i) + 1
	}
	taken, err := takenBetKeys(tx, w)
	if err != nil {
		return tote.BatchSnapshot{}, nil, err
	}
	snap.Taken = func(u ids.UserID, key string) bool { return taken[betKey{int64(u), key}] }
	users := make([]int64, 0, len(w.Requests))
	for _, q := range w.Requests {
		users = append(users, int64(q.UserID))
	}
	slices.Sort(users)
	users = slices.Compact(users)
	walletID, err := r.readBatchWallets(tx, users, snap.Wallets)
	if err != nil {
		return tote.BatchSnapshot{}, nil, err
	}
	if err := r.readBatchStanding(tx, users, &snap); err != nil {
		return tote.BatchSnapshot{}, nil, err
	}
	return snap, walletID, nil
}

// readBatchWallets locks the wallets of users that exist, in the ledger's
// lock order, sets their balances in wallets and returns their ids.
func (r *Repo) readBatchWallets(tx *gorm.DB, users []int64, wallets map[ids.UserID]money.Amount) (map[int64]int64, error) {
	refs := make([]ledger.AccountRef, len(users))
	for i, u := range users {
		refs[i] = ledger.UserWallet(ids.UserID(u))
	}
	slices.SortFunc(refs, ledgerdb.LockCompare)
	accIDs, err := ledgerdb.FindAccounts(tx, refs)
	if err != nil {
		return nil, err
	}
	var existing []int64
	for _, id := range accIDs {
		if id != 0 {
			existing = append(existing, id)
		}
	}
	bal, err := r.led.LockBalances(tx, existing)
	if err != nil {
		return nil, err
	}
	walletID := map[int64]int64{}
	for i, a := range refs {
		if accIDs[i] == 0 {
			continue
		}
		u, _ := a.User()
		walletID[int64(u)] = accIDs[i]
		wallets[u] = bal[accIDs[i]]
	}
	return walletID, nil
}

// readBatchStanding reads the players' protection state, after the
// wallets (the guard's order), then their counters and sessions of play.
func (r *Repo) readBatchStanding(tx *gorm.DB, users []int64, snap *tote.BatchSnapshot) error {
	states, err := protectiondb.LoadStates(tx, users)
	if err != nil {
		return err
	}
	for u, st := range states {
		snap.States[ids.UserID(u)] = st.State()
	}
	lock := r.db.LockSuffix(sqldb.LockExclusive)
	for _, u := range users {
		if snap.Counters[ids.UserID(u)], err = protectiondb.ReadCounters(tx, u, snap.Now, r.led.Location(), lock); err != nil {
			return err
		}
		if snap.Sessions[ids.UserID(u)], err = protectiondb.ReadSession(tx, u, lock); err != nil {
			return err
		}
	}
	return nil
}

// takenBetKeys reads which of w's (player, key) pairs a stored bet holds.
func takenBetKeys(tx *gorm.DB, w tote.BatchWork) (map[betKey]bool, error) {
	taken := map[betKey]bool{}
	for chunk := range slices.Chunk(w.Requests, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(?, ?)", func(_ int, q tote.BatchRequest) []any { return []any{int64(q.UserID), q.Key} })
		var rows []struct {
			UserID         int64
			IdempotencyKey string
		}
		if err := tx.Raw("SELECT user_id, idempotency_key FROM tote_bets WHERE (user_id, idempotency_key) IN ("+list+")", args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("read taken bet keys: %w", err)
		}
		for _, row := range rows {
			taken[betKey{row.UserID, row.IdempotencyKey}] = true
		}
	}
	return taken, nil
}

// writeBatchGorm is step 3: it writes the rows of a plan.
func (r *Repo) writeBatchGorm(tx *gorm.DB, wr batchRows, walletID map[int64]int64, now time.Time) error {
	if err := insertBetRows(tx, wr.bets); err != nil {
		return err
	}
	trIDs, err := ledgerwrite.InsertTransfers(tx, wr.transfers, now)
	if err != nil {
		return err
	}
	if len(trIDs) != len(wr.transfers) {
		return errs.E(errs.Internal, "bet batch: %d of %d stake transfer keys were free", len(trIDs), len(wr.transfers))
	}
	escID, final, err := r.addToEscrowsGorm(tx, wr.escrows)
	if err != nil {
		return err
	}
	bal := map[int64]money.Amount{}
	for ref, id := range escID {
		bal[id] = final[ref]
	}
	for _, pl := range wr.players {
		id, ok := walletID[int64(pl.User)]
		if !ok {
			return errs.E(errs.Internal, "bet batch: player %d staked without a wallet", pl.User)
		}
		bal[id] = pl.Balance
	}
	if err := ledgerwrite.SetBalances(tx, bal); err != nil {
		return err
	}
	ents := make([]ledgerwrite.Entry, len(wr.entries))
	for i, e := range wr.entries {
		ents[i] = ledgerwrite.Entry{Transfer: trIDs[e.key], Amount: e.amount, Account: walletID[int64(e.user)], After: e.after}
		if e.ref != "" {
			ents[i].Account, ents[i].After = escID[e.ref], final[e.ref]-e.tail
		}
	}
	if _, err := ledgerwrite.InsertEntries(tx, ents, now); err != nil {
		return err
	}
	for _, pl := range wr.players {
		if err := protectiondb.WriteCounters(tx, int64(pl.User), pl.Counters, now, r.led.Location()); err != nil {
			return err
		}
		if err := protectiondb.WriteSession(tx, pl.Session); err != nil {
			return err
		}
	}
	return addPoolTotals(tx, wr.totals)
}

// addToEscrowsGorm creates the plan's escrows if missing and locks them,
// and returns each one's id and balance after the batch, by reference.
func (r *Repo) addToEscrowsGorm(tx *gorm.DB, escrows []batchEscrowRow) (map[string]int64, map[string]money.Amount, error) {
	refs := make([]ledger.AccountRef, len(escrows))
	for i, e := range escrows {
		refs[i] = ledger.AccountRef{Kind: ledger.Escrow, Ref: e.ref}
	}
	escIDs, err := ledgerdb.EnsureAccounts(tx, refs)
	if err != nil {
		return nil, nil, err
	}
	escBal, err := r.led.LockBalances(tx, escIDs)
	if err != nil {
		return nil, nil, err
	}
	escID := make(map[string]int64, len(escrows))
	final := make(map[string]money.Amount, len(escrows))
	for i, e := range escrows {
		escID[e.ref], final[e.ref] = escIDs[i], escBal[escIDs[i]]+e.amount
	}
	return escID, final, nil
}

// insertBetRows stores planned bets with their ids, in the order given.
func insertBetRows(tx *gorm.DB, bets []tote.Bet) error {
	for chunk := range slices.Chunk(bets, sqldb.ChunkRows/12) {
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)", func(_ int, b tote.Bet) []any {
			row := fromDomainBet(b)
			return []any{row.ID, row.DrawID, row.TableID, row.UserID, row.Round, row.Market, row.Selection, row.Stake, row.Status, row.IdempotencyKey, row.PlacedAt}
		})
		res := tx.Exec(`INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at) VALUES `+list, args...)
		if res.Error != nil {
			return sqldb.MapErr(res.Error, "bet")
		}
		if res.RowsAffected != int64(len(chunk)) {
			return fmt.Errorf("insert bets: %d of %d rows", res.RowsAffected, len(chunk))
		}
	}
	return nil
}
