package tote

import (
	"context"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// PlaceBet accepts a bet on the open round of a draw (SPEC 1.1, 1.4): the
// player may stake (verified, 21+), the selection is valid for the table,
// the market is offered in the round, the stake is within the draw's
// minimum and the table's maximum, and the wallet holds it. The stake moves
// wallet → pool escrow in the transaction that stores the bet.
//
// The round-close race: the transaction takes a Shared lock on the draw
// and checks that the round is still open; the dealer's close takes an
// Exclusive lock, so it waits for every bet in flight, and every later bet
// waits for it and then finds the round closed (Conflict ROUND_CLOSED). A
// bet therefore commits before the close or not at all.
//
// Idempotency: a second request with the same key returns the first bet
// when it asks for the same thing, and is Conflict IDEMPOTENCY_KEY_REUSED
// otherwise.
func (s *Service) PlaceBet(ctx context.Context, r PlaceBetRequest) (Bet, error) {
	sel, err := r.parse()
	if err != nil {
		return Bet{}, err
	}
	if err := s.gate.EnsureCanStake(ctx, r.UserID); err != nil {
		return Bet{}, err
	}
	if b, err := s.store.BetByKey(ctx, r.UserID, r.IdempotencyKey); err == nil {
		return replayBet(r, b, sel)
	} else if !errs.Is(err, errs.NotFound) {
		return Bet{}, err
	}
	var bet Bet
	var balance money.Amount
	err = s.store.Within(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		bet, balance, err = s.placeInTx(ctx, tx, r, sel)
		return err
	})
	if errs.ReasonOf(err) == ReasonDuplicateBet {
		b, lookupErr := s.store.BetByKey(ctx, r.UserID, r.IdempotencyKey)
		if lookupErr != nil {
			return Bet{}, lookupErr
		}
		return replayBet(r, b, sel)
	}
	if err != nil {
		return Bet{}, err
	}
	s.stats.BetsAccepted.Add(1)
	topic := event.UserTopic(r.UserID)
	for _, e := range []event.UserEvent{
		{Type: event.BetAccepted, At: bet.PlacedAt, BetID: bet.ID},
		{Type: event.BalanceChanged, At: bet.PlacedAt, Balance: int64(balance)},
	} {
		if err := s.pub.Publish(ctx, topic, e.Encode()); err != nil {
			s.log.WarnContext(ctx, "user event not published", "user", r.UserID, "type", e.Type, "err", err)
		}
	}
	return bet, nil
}

// replayBet answers a request whose key is taken by bet b.
func replayBet(r PlaceBetRequest, b Bet, sel Selection) (Bet, error) {
	if !r.sameRequest(b, sel) {
		return Bet{}, errs.R(errs.Conflict, "IDEMPOTENCY_KEY_REUSED", "the idempotency key %q was used for another bet", r.IdempotencyKey)
	}
	return b, nil
}

// placeInTx does PlaceBet's checks against the locked draw and stores the bet
// and its stake transfer. It returns the bet and the wallet's balance after.
func (s *Service) placeInTx(ctx context.Context, tx Tx, r PlaceBetRequest, sel Selection) (Bet, money.Amount, error) {
	d, err := tx.LockDraw(ctx, r.DrawID, Shared)
	if err != nil {
		return Bet{}, 0, err
	}
	now := s.clock.Now()
	if err := checkBettable(d, sel, now); err != nil {
		return Bet{}, 0, err
	}
	t, err := tx.Table(ctx, d.TableID)
	if err != nil {
		return Bet{}, 0, err
	}
	if r.Stake < d.MinStake {
		return Bet{}, 0, errs.R(errs.Invalid, "STAKE_TOO_LOW", "the minimum stake of this draw is %s", d.MinStake)
	}
	if r.Stake > t.Settings.MaxStake {
		return Bet{}, 0, errs.R(errs.Invalid, "STAKE_TOO_HIGH", "the maximum stake of this table is %s", t.Settings.MaxStake)
	}
	b, err := tx.InsertBet(ctx, Bet{
		DrawID: d.ID, TableID: d.TableID, UserID: r.UserID, Round: d.OpenRound(), Selection: sel,
		Stake: r.Stake, Status: BetAccepted, IdempotencyKey: r.IdempotencyKey, PlacedAt: now,
	})
	if err != nil {
		return Bet{}, 0, err
	}
	wallet := ledger.WalletOf(r.UserID)
	posted, err := tx.Ledger().Post(ctx, ledger.Move(
		fmt.Sprintf("tote:bet:%d", b.ID), ledger.BetStake,
		fmt.Sprintf("Bet #%d on draw #%d: %s %s in round %s", b.ID, d.Number, sel.Market, sel, b.Round),
		wallet, ledger.EscrowOf(PoolID(d.ID, b.Round, sel.Market)), r.Stake))
	if err != nil {
		return Bet{}, 0, err
	}
	var balance money.Amount
	for _, e := range posted.Entries {
		if e.Account == wallet {
			balance = e.BalanceAfter
		}
	}
	return b, balance, nil
}

// checkBettable reports why draw d takes no bet on sel now, if it does not.
func checkBettable(d Draw, sel Selection, now time.Time) error {
	if d.Phase.Finished() {
		return errs.R(errs.Conflict, "DRAW_FINISHED", "draw #%d is over", d.Number)
	}
	r := d.OpenRound()
	if r == 0 || !now.Before(d.RoundClosesAt) {
		return errs.R(errs.Conflict, "ROUND_CLOSED", "betting is closed while the next cards are dealt: wait for the next round")
	}
	if err := CheckMarketRound(sel.Market, r); err != nil {
		return err
	}
	return sel.Validate(d.Positions)
}
