package holdem

import (
	"context"
	"github.com/pokertote/pokertote/domain/paging"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// Record is a hand as a Store keeps it: what it was started with and every
// event since. The Hand itself is rebuilt from a Record by Replay, so the
// cards and the settlement are never stored apart from the seed that made
// them; Phase, Deadline, Staked, Returned and Settlement are derived copies
// kept for queries and for the audit trail.
type Record struct {
	ID     int64
	UserID ids.UserID
	// Version increases with every update; UpdateHand succeeds only on the
	// version it read, so two writers (two replicas' sweepers, a sweeper and
	// a late decision) can never both settle a hand.
	Version int64

	// Config is the table's settings as they were when the hand started.
	Config Config
	Stakes []Stake
	// ServerSeed is secret until the hand is settled; Commitment is
	// SHA-256(ServerSeed), shown from the start.
	ServerSeed cards.Seed
	Commitment [cards.SeedSize]byte
	// Cut is the player's text mixed into the shuffle: the deck is
	// cards.Shuffle(ServerSeed, []byte(Cut)).
	Cut string
	// StartKey is the idempotency key of the start request and StartHash
	// the hash of the request it was used with.
	StartKey  string
	StartHash [32]byte
	CreatedAt time.Time

	// Decisions are the decisions taken, in order.
	Decisions []DecisionRecord
	// ExpiredAt is when the timeout folded the undecided boxes; zero when
	// every box decided in time.
	ExpiredAt time.Time

	Phase Phase
	// Deadline is when the awaited decision times out; zero once settled.
	Deadline time.Time
	// Staked is every stake committed so far; Returned is everything paid
	// back, 0 until settled.
	Staked, Returned money.Amount
	// Settlement is the result, given to the store when the hand settles
	// so that it can keep a copy for people and audits. A store may leave it
	// nil when it reads the record back: Replay recomputes it.
	Settlement *Settlement
	SettledAt  time.Time
	UpdatedAt  time.Time
}

// Clone returns a copy of r that shares no slice or pointer with r, for a
// store that keeps its records in memory.
func (r Record) Clone() Record {
	r.Stakes = slices.Clone(r.Stakes)
	r.Decisions = slices.Clone(r.Decisions)
	if r.Settlement != nil {
		s := r.Settlement.clone()
		r.Settlement = &s
	}
	return r
}

// DecisionRecord is one decision as recorded, with the idempotency key of
// the request that made it.
type DecisionRecord struct {
	Box      int
	Decision Decision
	At       time.Time
	Key      string
}

// PendingSeed is a server seed drawn for a player before their next hand and
// committed to (SHA-256) before they choose their cut: the two-step flow in
// which the server cannot pick a seed after seeing the cut.
type PendingSeed struct {
	UserID     ids.UserID
	Seed       cards.Seed
	Commitment [cards.SeedSize]byte
	CreatedAt  time.Time
}

// Store keeps hands and pending seeds. Reads run on their own; every change
// runs in Within, whose Tx also posts ledger transfers, so a hand's rows and
// its money commit together or not at all. The persistence package
// implements it on SQLite and Postgres; holdemtest.MemStore is its test twin.
type Store interface {
	// Within runs fn in one transaction, committed when fn returns nil and
	// rolled back when it returns an error or panics.
	Within(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// Hand returns a hand by id; NotFound when there is none.
	Hand(ctx context.Context, id int64) (Record, error)
	// HandByStartKey returns the user's hand started with key; NotFound when
	// there is none.
	HandByStartKey(ctx context.Context, userID ids.UserID, key string) (Record, error)
	// Hands lists at most limit of the user's hands with ids inside r,
	// newest first (oldest first when r.Ascending).
	Hands(ctx context.Context, userID ids.UserID, r paging.IDRange, limit int) ([]Record, error)
	// Due lists the ids of at most limit hands still deciding whose deadline
	// is at or before now, the most overdue first.
	Due(ctx context.Context, now time.Time, limit int) ([]int64, error)
	// PendingSeed returns the user's pending seed; NotFound when none.
	PendingSeed(ctx context.Context, userID ids.UserID) (PendingSeed, error)
	// AddPendingSeed stores p unless the user already has a pending seed, and
	// returns the one stored (p, or the one that was already there).
	AddPendingSeed(ctx context.Context, p PendingSeed) (PendingSeed, error)
}

// Tx is the part of a Store bound to one transaction.
type Tx interface {
	// Ledger posts transfers within the transaction.
	Ledger() ledger.Poster
	// HandByStartKey is Store.HandByStartKey within the transaction.
	HandByStartKey(ctx context.Context, userID ids.UserID, key string) (Record, error)
	// InsertHand stores a new hand and sets its ID and Version (1). A second
	// hand with the same user and StartKey is a Conflict.
	InsertHand(ctx context.Context, r *Record) error
	// LockHand reads a hand and holds it against other writers until the
	// transaction ends; NotFound when there is none.
	LockHand(ctx context.Context, id int64) (Record, error)
	// UpdateHand stores r if the stored version is still r.Version, and
	// sets r.Version to the next one. A stale version is a Conflict with
	// reason HAND_CHANGED.
	UpdateHand(ctx context.Context, r *Record) error
	// TakePendingSeed removes and returns the user's pending seed if its
	// commitment is the one given; NotFound otherwise.
	TakePendingSeed(ctx context.Context, userID ids.UserID, commitment [cards.SeedSize]byte) (PendingSeed, error)
}
