package tote

import (
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// BetStatus is where a bet stands. The values are stored and match the
// API's BetStatus.
type BetStatus string

// The bet statuses: ACCEPTED until its draw is settled or void.
const (
	BetAccepted BetStatus = "ACCEPTED"
	BetWon      BetStatus = "WON"
	BetLost     BetStatus = "LOST"
	BetRefunded BetStatus = "REFUNDED"
)

// SettledStatus is the status a bet takes when its pool is settled, from
// what the pool paid it: REFUNDED when its stake came back, WON when it was
// paid anything, LOST otherwise. It is the one definition.
func SettledStatus(refund bool, payout money.Amount) BetStatus {
	switch {
	case refund:
		return BetRefunded
	case payout > 0:
		return BetWon
	}
	return BetLost
}

// Bet is one accepted bet: its stake sits in its pool's escrow until the
// draw is settled.
type Bet struct {
	ID        int64
	DrawID    int64
	TableID   int64
	UserID    ids.UserID
	Round     parimutuel.Round
	Selection parimutuel.Selection // its Market is the bet's market
	Stake     money.Amount
	Status    BetStatus
	// Payout is what the bet returned (winnings or the refunded stake) once
	// settled; 0 while ACCEPTED and for a lost bet.
	Payout         money.Amount
	IdempotencyKey string
	PlacedAt       time.Time
	SettledAt      time.Time
}

// PoolKey is the pool the bet is in.
func (b Bet) PoolKey() PoolKey { return PoolKey{Round: b.Round, Market: b.Selection.Market} }

// PlaceBetRequest is a player's bet as the API receives it.
type PlaceBetRequest struct {
	UserID         ids.UserID
	DrawID         int64
	Market         parimutuel.Market
	Selection      string // canonical form, see ParseSelection
	Stake          money.Amount
	IdempotencyKey string
}

// MaxIdempotencyKey bounds a client's idempotency key in bytes.
const MaxIdempotencyKey = ledger.MaxClientKeyLen

// Parse checks the request's own fields and returns its selection.
func (r PlaceBetRequest) Parse() (parimutuel.Selection, error) {
	if err := ledger.CheckClientKey(r.IdempotencyKey); err != nil {
		return parimutuel.Selection{}, err
	}
	if r.Stake <= 0 {
		return parimutuel.Selection{}, errs.R(errs.Invalid, ReasonInvalidStake, "a stake must be positive")
	}
	return parimutuel.ParseSelection(r.Market, r.Selection)
}

// SameRequest reports whether bet b was placed by a request equal to r, so
// that a retry with the same key returns b.
func (r PlaceBetRequest) SameRequest(b Bet, sel parimutuel.Selection) bool {
	return b.UserID == r.UserID && b.DrawID == r.DrawID && b.Selection == sel && b.Stake == r.Stake
}

// Known reports whether s is one of the four bet statuses.
func (s BetStatus) Known() bool {
	switch s {
	case BetAccepted, BetWon, BetLost, BetRefunded:
		return true
	}
	return false
}

// BetQuery selects a player's bets, newest first. The filters (draw,
// table, market, status) narrow the list before it is paged, so a cursor
// (a bet id) of a filtered page continues that same filtered list.
type BetQuery struct {
	UserID  ids.UserID
	DrawID  int64             // 0: every draw
	TableID int64             // 0: every table
	Market  parimutuel.Market // "": every market
	// Status is the bet's status as read (SettledStatus of its rate once its
	// pool is settled, even when the stored row still says ACCEPTED); "":
	// every status.
	Status BetStatus
	Before int64 // bet id cursor; 0: from the newest
	// After and Oldest read a backward page: only bets newer than After
	// (0: no bound), oldest first.
	After  int64
	Oldest bool
	Limit  int
}

// Validate refuses a filter naming no market or status there is: an
// unknown one would otherwise quietly list nothing.
func (q BetQuery) Validate() error {
	if q.Market != "" {
		if err := q.Market.Validate(); err != nil {
			return err
		}
	}
	if q.Status != "" && !q.Status.Known() {
		return errs.R(errs.Invalid, ReasonUnknownBetStatus, "%q is not a bet status", q.Status)
	}
	return nil
}

// Matches reports whether bet b, as read (settled by its rate if any),
// passes the query's filters; the cursor bounds are the store's. It is the
// one definition of the filters: the in-memory store applies it to every
// bet, the database store to the rows its SQL narrowed down, because a
// bet's status can be derived from its rate in Go only.
func (q BetQuery) Matches(b Bet) bool {
	return b.UserID == q.UserID &&
		(q.DrawID == 0 || b.DrawID == q.DrawID) &&
		(q.TableID == 0 || b.TableID == q.TableID) &&
		(q.Market == "" || b.Selection.Market == q.Market) &&
		(q.Status == "" || b.Status == q.Status)
}

// ResultQuery selects finished draws, newest first.
type ResultQuery struct {
	TableID  int64     // 0: every table
	From, To time.Time // on the settlement time; zero: unbounded
	Before   int64     // draw id cursor; 0: from the newest
	// After and Oldest read a backward page: only draws newer than After
	// (0: no bound), oldest first.
	After  int64
	Oldest bool
	Limit  int
}

// SelectionTotal is the money on one selection of one pool.
type SelectionTotal struct {
	Round     parimutuel.Round
	Selection parimutuel.Selection
	Stake     money.Amount
	Bets      int
}

// BetKey identifies a bet by its player and idempotency key, which are
// unique together.
type BetKey struct {
	User ids.UserID
	Key  string
}
