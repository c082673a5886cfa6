package tote

import (
	"context"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// What a store that places a batch of bets in one transaction is handed
// and answers, and the checks of one bet that PlanBatch and the intake
// share (the intake queues the bets and hands them over).

// BatchPlacer is a Store's way of placing a batch of bets in one
// transaction: it reads a BatchSnapshot (the share-locked draw
// and its table, bet ids, the players' wallets, protection state, counters
// and sessions, under the locks a single post takes), calls PlanBatch, and
// writes the plan; it decides nothing itself. A single bet is a batch of
// one. The Postgres store does it in two round trips
// (persistence/totedb/tote_batch_pg.go), SQLite in one transaction of plain
// statements (persistence/totedb/tote_batch_sqlite.go), the twin in memory
// (totetest.MemStore). A store that is not one goes through Within
// (placeBatchInTx).
type BatchPlacer interface {
	// ReadsPlayers reports whether the store reads the players for the
	// stake gate (BatchWork.Judge) in the batch.
	ReadsPlayers() bool
	// PlaceBatch runs w in one transaction, again after a serialization
	// failure. It returns PlanBatch's result per request of w, or an error
	// failing them all.
	PlaceBatch(ctx context.Context, w BatchWork) ([]BatchResult, error)
}

// BatchWork is a batch of bets on one draw as the intake hands it to a
// BatchPlacer: data only, the rules are PlanBatch's.
type BatchWork struct {
	DrawID   int64
	Requests []BatchRequest
	// Judge, when set, is the stake gate, judging each player from the
	// rows the store read with the draw (BatchSnapshot.Players): the gate
	// then costs no statements of its own. Only for a store that
	// ReadsPlayers.
	Judge StakeJudge
	// Clock dates the bets and checks them against the round's deadline;
	// PlanBatch reads it once, after the store took the draw's lock.
	Clock Clock
	// Writing, when set, is called as the batch's write is sent (the
	// intake then lets the next batch start reading).
	Writing func()
}

// BatchRequest is one bet of a batch: the player, the key, the parsed
// selection and the stake, and the stake gate's refusal when it answered
// before the batch.
type BatchRequest struct {
	UserID    ids.UserID
	Key       string
	Selection parimutuel.Selection
	Stake     money.Amount
	Refused   error
}

// ReadPlayers reports whether the store must read the players (w has a
// Judge).
func (w BatchWork) ReadPlayers() bool { return w.Judge != nil }

// Users lists each request's player, in request order.
func (w BatchWork) Users() []ids.UserID {
	out := make([]ids.UserID, len(w.Requests))
	for i, q := range w.Requests {
		out[i] = q.UserID
	}
	return out
}

// Keys lists each request's idempotency key, in request order.
func (w BatchWork) Keys() []string {
	out := make([]string, len(w.Requests))
	for i, q := range w.Requests {
		out[i] = q.Key
	}
	return out
}

// Player is what a BatchPlacer read about a player for the stake gate: the
// account and its latest verification (zero when none), exactly as
// account.UserStore's ByID and Verification give them, or Err (the user
// is unknown) as ByID gives it.
type Player struct {
	User         account.User
	Verification account.Verification
	Err          error
}

// StakeJudge is a StakeGate that can judge a player from the rows a
// BatchPlacer read (account.Service.CanStake, the rule EnsureCanStake
// applies after its two reads).
type StakeJudge interface {
	CanStake(u account.User, v account.Verification, now time.Time) error
}

// BatchResult is one request's outcome: the stored bet and the player's
// wallet balance after its stake, or the error. GateRefused says the
// error is the stake gate's (w.Judge): it is the answer, never replayed.
// EventSeq is the seq the store gave the first of the bet's
// AcceptedEvents in the player's event stream, when it appended them in
// the bet's own transaction (0: it did not, and the publisher's log
// appends them after the commit).
type BatchResult struct {
	Bet         Bet
	Balance     money.Amount
	Err         error
	GateRefused bool
	EventSeq    int64
}

// AcceptedEvents are the player's events of an accepted bet, in order:
// BET_ACCEPTED, then BALANCE_CHANGED with the wallet's balance after the
// stake. The intake publishes them; a store that appends them to the
// player's stream in the bet's transaction writes these same events.
func AcceptedEvents(b Bet, balance money.Amount) [2]event.UserEvent {
	return [2]event.UserEvent{
		{Type: event.BetAccepted, At: b.PlacedAt, BetID: b.ID},
		{Type: event.BalanceChanged, At: b.PlacedAt, Balance: int64(balance)},
	}
}

// CheckBet is PlaceBet's check of one bet (its stake and parsed
// selection) against the locked draw and its table.
func CheckBet(d Draw, t Table, stake money.Amount, sel parimutuel.Selection, now time.Time) error {
	if err := checkBettable(d, sel, now); err != nil {
		return err
	}
	if stake < d.MinStake {
		return errs.R(errs.Invalid, ReasonStakeTooLow, "the minimum stake of this draw is %s", d.MinStake)
	}
	if max := d.StakeCeiling(t); stake > max {
		return errs.R(errs.Invalid, ReasonStakeTooHigh, "the maximum stake of this draw is %s", max)
	}
	return nil
}

// StakeTransfer moves bet b's stake from the player's wallet into its
// pool's escrow.
func StakeTransfer(d Draw, b Bet) ledger.Transfer {
	return ledger.Move(
		StakeLedgerKey(b.ID), ledger.BetStake,
		fmt.Sprintf("Bet #%d on draw #%d: %s %s in round %s", b.ID, d.Number, b.Selection.Market, b.Selection, b.Round),
		ledger.UserWallet(b.UserID), ledger.EscrowOf(PoolID(d.ID, b.Round, b.Selection.Market)), b.Stake)
}

// checkBettable reports why draw d takes no bet on sel now, if it does not.
func checkBettable(d Draw, sel parimutuel.Selection, now time.Time) error {
	if d.Phase.Finished() {
		return errs.R(errs.Conflict, ReasonDrawFinished, "%s is over", d.Named())
	}
	r := d.OpenRound()
	if r == 0 || !now.Before(d.RoundClosesAt) {
		return errs.R(errs.Conflict, ReasonRoundClosed, "betting is closed while the next cards are dealt: wait for the next round")
	}
	if err := parimutuel.CheckMarketRound(sel.Market, r); err != nil {
		return err
	}
	if err := sel.Validate(d.Positions); err != nil {
		return err
	}
	return checkNotSuspended(d, r, sel)
}
