package totetest

import (
	"context"

	"github.com/pokertote/pokertote/domain/tote"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// CheckLease implements Tx.
func (tx *memTx) CheckLease(_ context.Context, l tote.Lease) error {
	cur, ok := tx.s.leases[l.TableID]
	if !ok || cur.Owner != l.Owner || cur.Fence != l.Fence {
		return tote.ErrLeaseLost(l.TableID)
	}
	return nil
}

// InsertTable implements Tx.
func (tx *memTx) InsertTable(_ context.Context, t tote.Table) (tote.Table, error) {
	for _, o := range tx.s.tables {
		if o.Name == t.Name {
			return tote.Table{}, errs.R(errs.Conflict, tote.ReasonTableNameTaken, "a table named %q exists", t.Name)
		}
	}
	t.ID = tx.nextID()
	tx.s.tables[t.ID] = t
	tx.undo = append(tx.undo, func() { delete(tx.s.tables, t.ID) })
	return t, nil
}

// Table implements Tx.
func (tx *memTx) Table(_ context.Context, id int64) (tote.Table, error) {
	t, ok := tx.s.tables[id]
	if !ok {
		return tote.Table{}, notFound("table")
	}
	return t, nil
}

// LockTable implements Tx.
func (tx *memTx) LockTable(ctx context.Context, id int64) (tote.Table, error) {
	return tx.Table(ctx, id)
}

// UpdateTable implements Tx.
func (tx *memTx) UpdateTable(_ context.Context, t tote.Table) error {
	old, ok := tx.s.tables[t.ID]
	if !ok {
		return notFound("table")
	}
	t.LastSeq, t.CreatedAt = old.LastSeq, old.CreatedAt
	tx.s.tables[t.ID] = t
	tx.undo = append(tx.undo, func() { tx.s.tables[t.ID] = old })
	return nil
}

// LockDraw implements Tx.
func (tx *memTx) LockDraw(_ context.Context, id int64, _ tote.LockMode) (tote.Draw, error) {
	d, ok := tx.s.draws[id]
	if !ok {
		return tote.Draw{}, notFound("draw")
	}
	return cloneDraw(d), nil
}

// LatestDraw implements Tx.
func (tx *memTx) LatestDraw(_ context.Context, tableID int64) (tote.Draw, error) {
	return tx.s.latestLocked(tableID)
}

// InsertDraw implements Tx.
func (tx *memTx) InsertDraw(_ context.Context, d tote.Draw) (tote.Draw, error) {
	if _, ok := tx.s.tables[d.TableID]; !ok {
		return tote.Draw{}, notFound("table")
	}
	for _, id := range tx.s.byTable[d.TableID] {
		if tx.s.draws[id].Number == d.Number {
			return tote.Draw{}, errs.R(errs.Conflict, tote.ReasonDrawChanged, "draw #%d of table %d exists", d.Number, d.TableID)
		}
	}
	d.ID, d.Version = tx.nextID(), 1
	tx.s.draws[d.ID] = cloneDraw(d)
	ids := tx.s.byTable[d.TableID]
	tx.s.byTable[d.TableID] = append(ids, d.ID)
	tx.undo = append(tx.undo, func() {
		delete(tx.s.draws, d.ID)
		tx.s.byTable[d.TableID] = ids
	})
	return d, nil
}

// UpdateDraw implements Tx.
func (tx *memTx) UpdateDraw(_ context.Context, d tote.Draw) (tote.Draw, error) {
	old, ok := tx.s.draws[d.ID]
	if !ok || old.Version != d.Version {
		return tote.Draw{}, tote.ErrDrawChanged(d.ID)
	}
	d.Version++
	tx.s.draws[d.ID] = cloneDraw(d)
	tx.undo = append(tx.undo, func() { tx.s.draws[d.ID] = old })
	return d, nil
}

// storeBet stores bet b with its ID given (above every bet id stored); a
// taken key is refused.
func (tx *memTx) storeBet(b tote.Bet) error {
	k := memBetKey{b.UserID, b.IdempotencyKey}
	if _, dup := tx.s.keys[k]; dup {
		return errs.R(errs.Conflict, tote.ReasonDuplicateBet, "a bet with key %q exists", b.IdempotencyKey)
	}
	if n := len(tx.s.betIDs); n > 0 && tx.s.betIDs[n-1] >= b.ID {
		return errs.E(errs.Internal, "totetest: bet id %d after %d", b.ID, tx.s.betIDs[n-1])
	}
	tx.s.bets[b.ID] = b
	tx.s.keys[k] = b.ID
	n := len(tx.s.betIDs)
	tx.s.betIDs = append(tx.s.betIDs, b.ID)
	tx.undo = append(tx.undo, func() {
		delete(tx.s.bets, b.ID)
		delete(tx.s.keys, k)
		tx.s.betIDs = tx.s.betIDs[:n]
	})
	return nil
}

// InsertBets implements Tx: each bet in turn takes the next ID unless its
// key is taken (a Conflict of its own) or its draw is missing (which fails
// the call).
func (tx *memTx) InsertBets(_ context.Context, bets []tote.Bet) ([]tote.Bet, []error, error) {
	stored := make([]tote.Bet, len(bets))
	errList := make([]error, len(bets))
	for i, b := range bets {
		if _, dup := tx.s.keys[memBetKey{b.UserID, b.IdempotencyKey}]; dup {
			errList[i] = errs.R(errs.Conflict, tote.ReasonDuplicateBet, "a bet with key %q exists", b.IdempotencyKey)
			continue
		}
		if _, ok := tx.s.draws[b.DrawID]; !ok {
			return nil, nil, notFound("draw")
		}
		b.ID = tx.nextID()
		if err := tx.storeBet(b); err != nil {
			return nil, nil, err
		}
		stored[i] = b
	}
	return stored, errList, nil
}

// AddPoolTotals implements Tx.
func (tx *memTx) AddPoolTotals(_ context.Context, increments []tote.PoolIncrement) error {
	for _, p := range increments {
		k := memTotalKey{p.DrawID, p.Total.Round, p.Total.Selection}
		old, had := tx.s.totals[k]
		t := old
		t.Round, t.Selection = p.Total.Round, p.Total.Selection
		t.Stake += p.Total.Stake
		t.Bets += p.Total.Bets
		tx.s.totals[k] = t
		tx.undo = append(tx.undo, func() {
			if had {
				tx.s.totals[k] = old
			} else {
				delete(tx.s.totals, k)
			}
		})
	}
	return nil
}

// DeleteBets implements Tx.
func (tx *memTx) DeleteBets(_ context.Context, ids []int64) error {
	for _, id := range ids {
		b, ok := tx.s.bets[id]
		if !ok {
			continue
		}
		k := memBetKey{b.UserID, b.IdempotencyKey}
		old := tx.s.betIDs
		kept := make([]int64, 0, len(old))
		for _, x := range old {
			if x != id {
				kept = append(kept, x)
			}
		}
		delete(tx.s.bets, id)
		delete(tx.s.keys, k)
		tx.s.betIDs = kept
		tx.undo = append(tx.undo, func() {
			tx.s.bets[id] = b
			tx.s.keys[k] = id
			tx.s.betIDs = old
		})
	}
	return nil
}

// RoundLeaves implements Tx.
func (tx *memTx) RoundLeaves(_ context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error) {
	return tx.s.roundLeavesLocked(drawID, round), nil
}

// PoolTotals implements Tx.
func (tx *memTx) PoolTotals(_ context.Context, drawID int64, round parimutuel.Round) ([]tote.SelectionTotal, error) {
	return tx.s.poolTotalsLocked(drawID, round), nil
}

// AppendEvent implements Tx.
func (tx *memTx) AppendEvent(_ context.Context, e tote.TableEvent) (tote.TableEvent, error) {
	t, ok := tx.s.tables[e.TableID]
	if !ok {
		return tote.TableEvent{}, notFound("table")
	}
	old := t
	t.LastSeq++
	e.Seq = t.LastSeq
	tx.s.tables[t.ID] = t
	evs := tx.s.events[t.ID]
	tx.s.events[t.ID] = append(evs, e)
	tx.undo = append(tx.undo, func() {
		tx.s.tables[t.ID] = old
		tx.s.events[t.ID] = evs
	})
	return e, nil
}

// Ledger implements Tx: the ledger transaction's Poster, watching the
// jackpot's balance.
func (tx *memTx) Ledger() ledger.Poster { return memPoster{tx} }

type memPoster struct{ tx *memTx }

// Post posts through the ledger transaction and tracks the jackpot.
func (p memPoster) Post(ctx context.Context, t ledger.Transfer) (ledger.Posted, error) {
	for _, e := range t.Entries {
		if e.Account == ledger.JackpotAccount {
			p.tx.changesJackpot()
		}
	}
	posted, err := p.tx.poster.Post(ctx, t)
	if err != nil || posted.Replayed {
		return posted, err
	}
	for _, e := range posted.Entries {
		if e.Account == ledger.JackpotAccount {
			p.tx.jackpot = e.BalanceAfter
		}
	}
	return posted, nil
}

// JackpotBalance implements Tx.
func (tx *memTx) JackpotBalance(context.Context) (money.Amount, error) {
	tx.changesJackpot()
	return tx.jackpot, nil
}

// JackpotEnabled implements Tx.
func (tx *memTx) JackpotEnabled(context.Context) (bool, error) { return tx.s.jackpot, nil }

// SetJackpotEnabled implements Tx.
func (tx *memTx) SetJackpotEnabled(_ context.Context, on bool) error {
	tx.changesJackpot()
	old := tx.s.jackpot
	tx.s.jackpot = on
	tx.undo = append(tx.undo, func() { tx.s.jackpot = old })
	return nil
}
