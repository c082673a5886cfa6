package totetest

import (
	"context"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// The in-memory store's side of streamed settlement (tote/settle/stream.go).

// PoolBetOwners implements tote.Store.
func (s *MemStore) PoolBetOwners(_ context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]tote.BetOwner, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tote.BetOwner
	for _, b := range s.drawBetsLocked(drawID) {
		if b.Round == round && b.Selection.Market == market && b.ID > afterID && len(out) < limit {
			out = append(out, tote.BetOwner{BetID: b.ID, UserID: b.UserID})
		}
	}
	return out, nil
}

// PayPool implements tote.Tx, bet by bet with tote.SelectionRate's rule
// (the database stores' rule too).
func (tx *memTx) PayPool(_ context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, rates []tote.SelectionRate, at time.Time) ([]tote.SelectionPaid, error) {
	rateOf := make(map[string]int, len(rates))
	for i, r := range rates {
		rateOf[r.Selection] = i
	}
	paid := make([]tote.SelectionPaid, len(rates))
	for _, old := range tx.s.drawBetsLocked(drawID) {
		if old.Round != round || old.Selection.Market != market || old.Status != tote.BetAccepted {
			continue
		}
		b := old
		b.Status, b.Payout, b.SettledAt = tote.BetLost, 0, at
		if i, ok := rateOf[b.Selection.String()]; ok {
			r, p := rates[i], &paid[i]
			p.Selection = r.Selection
			p.Bets++
			p.Stake += b.Stake
			p1, p2 := r.Pay(b.Stake)
			p.Paid1 += p1
			p.Paid2 += p2
			b = r.Settle(old, at)
		}
		tx.s.bets[b.ID] = b
		tx.undo = append(tx.undo, func() { tx.s.bets[old.ID] = old })
	}
	return slices.DeleteFunc(paid, func(p tote.SelectionPaid) bool { return p.Bets == 0 }), nil
}

// PoolCredits implements tote.Tx.
func (tx *memTx) PoolCredits(_ context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterUser ids.UserID, limit int) ([]tote.WalletCredit, error) {
	sums := map[ids.UserID]money.Amount{}
	for _, b := range tx.s.drawBetsLocked(drawID) {
		if b.Round == round && b.Selection.Market == market && b.Payout > 0 && b.UserID > afterUser {
			sums[b.UserID] += b.Payout
		}
	}
	out := make([]tote.WalletCredit, 0, len(sums))
	for u, a := range sums {
		out = append(out, tote.WalletCredit{UserID: u, Amount: a})
	}
	slices.SortFunc(out, func(a, b tote.WalletCredit) int { return int(min(max(a.UserID-b.UserID, -1), 1)) })
	return out[:min(len(out), limit)], nil
}
