package tote

import (
	"context"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/money"
)

// The in-memory store's side of streamed settlement (settle_stream.go).

// PoolBetOwners implements Store.
func (s *MemStore) PoolBetOwners(_ context.Context, drawID int64, round Round, market Market, afterID int64, limit int) ([]BetOwner, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []BetOwner
	for _, b := range s.drawBetsLocked(drawID) {
		if b.Round == round && b.Selection.Market == market && b.ID > afterID && len(out) < limit {
			out = append(out, BetOwner{BetID: b.ID, UserID: b.UserID})
		}
	}
	return out, nil
}

// PayPool implements Tx, bet by bet with the same arithmetic as SettlePool.
func (tx *memTx) PayPool(_ context.Context, drawID int64, round Round, market Market, rates []SelectionRate, at time.Time) ([]SelectionPaid, error) {
	rateOf := make(map[string]int, len(rates))
	for i, r := range rates {
		rateOf[r.Selection] = i
	}
	paid := make([]SelectionPaid, len(rates))
	for _, old := range tx.s.drawBetsLocked(drawID) {
		if old.Round != round || old.Selection.Market != market || old.Status != BetAccepted {
			continue
		}
		b := old
		b.Status, b.Payout, b.SettledAt = BetLost, 0, at
		if i, ok := rateOf[b.Selection.String()]; ok {
			r, p := rates[i], &paid[i]
			p.Selection = r.Selection
			p.Bets++
			p.Stake += b.Stake
			if r.Refund {
				b.Status, b.Payout = BetRefunded, b.Stake
				p.Paid1 += b.Stake
			} else {
				c1, c2 := r.Coef1.Pay(b.Stake), r.Coef2.Pay(b.Stake)
				p.Paid1 += c1
				p.Paid2 += c2
				if b.Payout = c1 + c2; b.Payout > 0 {
					b.Status = BetWon
				}
			}
		}
		tx.s.bets[b.ID] = b
		tx.undo = append(tx.undo, func() { tx.s.bets[old.ID] = old })
	}
	return slices.DeleteFunc(paid, func(p SelectionPaid) bool { return p.Bets == 0 }), nil
}

// PoolCredits implements Tx.
func (tx *memTx) PoolCredits(_ context.Context, drawID int64, round Round, market Market, afterUser int64, limit int) ([]WalletCredit, error) {
	sums := map[int64]money.Amount{}
	for _, b := range tx.s.drawBetsLocked(drawID) {
		if b.Round == round && b.Selection.Market == market && b.Payout > 0 && b.UserID > afterUser {
			sums[b.UserID] += b.Payout
		}
	}
	out := make([]WalletCredit, 0, len(sums))
	for u, a := range sums {
		out = append(out, WalletCredit{UserID: u, Amount: a})
	}
	slices.SortFunc(out, func(a, b WalletCredit) int { return int(min(max(a.UserID-b.UserID, -1), 1)) })
	return out[:min(len(out), limit)], nil
}
