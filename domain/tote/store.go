package tote

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// Store is the totalizator's persistence: reads outside any transaction and
// Within, the unit of work every state change runs in. Implementations must
// be safe for concurrent use; every one must pass totetest.Run.
type Store interface {
	// Within runs fn in one transaction: everything fn does through tx
	// (rows, outbox events, ledger posts) commits together when fn returns
	// nil and not at all otherwise. An implementation may run fn again
	// after a serialization failure, so fn must not keep effects outside tx
	// from one run to the next.
	Within(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error

	Table(ctx context.Context, id int64) (Table, error)
	Tables(ctx context.Context) ([]Table, error)
	Draw(ctx context.Context, id int64) (Draw, error)
	// TablesByID and DrawsByID load many by id at once (in no particular
	// order; missing ids are left out): the API's per-request loaders
	// batch nested lookups through them instead of a query per item.
	TablesByID(ctx context.Context, ids []int64) ([]Table, error)
	DrawsByID(ctx context.Context, ids []int64) ([]Draw, error)
	// LatestDraw is the table's newest draw; NotFound when it has none.
	LatestDraw(ctx context.Context, tableID int64) (Draw, error)
	Bet(ctx context.Context, id int64) (Bet, error)
	// BetByKey finds a player's bet by its idempotency key.
	BetByKey(ctx context.Context, userID ids.UserID, key string) (Bet, error)
	// Bets lists a player's bets newest first (oldest first when
	// q.Oldest): at most q.Limit of those q.Matches, within its cursor
	// bounds. An unknown market or status is refused (q.Validate).
	Bets(ctx context.Context, q BetQuery) ([]Bet, error)
	// DrawBets lists every bet of a draw in id order.
	DrawBets(ctx context.Context, drawID int64) ([]Bet, error)
	// PoolBetOwners pages through one pool's bets: at most limit of them
	// with an id above afterID, in id order, each as its id and player.
	PoolBetOwners(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]BetOwner, error)
	// PoolTotals sums the stakes of a draw per round and selection; round
	// 0 means every round. The database adapter keeps these sums as bets
	// are written, so reading them costs the same however many bets the
	// draw holds.
	PoolTotals(ctx context.Context, drawID int64, round parimutuel.Round) ([]SelectionTotal, error)
	// Results lists finished (SETTLED or VOID) draws newest first.
	Results(ctx context.Context, q ResultQuery) ([]Draw, error)
	// EventsAfter lists a table's outbox events with Seq > after, in order,
	// at most limit of them.
	EventsAfter(ctx context.Context, tableID, after int64, limit int) ([]TableEvent, error)
	// JackpotEnabled is the game-wide jackpot flag (true until changed).
	JackpotEnabled(ctx context.Context) (bool, error)
	// RoundLeaves lists the bets of one round of a draw, in id order, as
	// the round's bet root commits to them (betroot.Leaf).
	RoundLeaves(ctx context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error)
	// EachLeaf calls fn with every bet of a draw (of round only, when not
	// 0) as a leaf, round by round in id order, reading a page at a time:
	// a million bets are never in memory at once. An error of fn stops it.
	EachLeaf(ctx context.Context, drawID int64, round parimutuel.Round, fn func(betroot.Leaf) error) error
	// VoidCounts counts a table's void draws by Draw.VoidKind (kinds
	// without a void may be left out).
	VoidCounts(ctx context.Context, tableID int64) ([]VoidCount, error)
	// JackpotChain reads a page of the public jackpot chain
	// (jackpot_chain.go).
	JackpotChain(ctx context.Context, q JackpotChainQuery) ([]JackpotEntry, error)
}

// LockMode says how Tx.LockDraw locks a draw.
type LockMode int

// The lock modes. Bets take Shared locks, so many commit at once; the
// dealer's steps take Exclusive ones, which wait for every bet holding a
// Shared lock to finish and make later bets wait (fairly: a waiting
// Exclusive lock is not overtaken by new Shared ones) and then see the new
// state. This is the round-close race's database check.
const (
	Shared LockMode = iota
	Exclusive
)

// Tx is the work a Store offers inside one transaction.
type Tx interface {
	// CheckLease fails with Conflict LEASE_LOST unless l is still the
	// table's lease (same owner and fence), and keeps it so until commit:
	// a dealer that lost its table can write nothing.
	CheckLease(ctx context.Context, l Lease) error

	InsertTable(ctx context.Context, t Table) (Table, error)
	// Table reads a table without locking it.
	Table(ctx context.Context, id int64) (Table, error)
	// LockTable reads a table and locks it until commit.
	LockTable(ctx context.Context, id int64) (Table, error)
	UpdateTable(ctx context.Context, t Table) error

	LockDraw(ctx context.Context, id int64, mode LockMode) (Draw, error)
	LatestDraw(ctx context.Context, tableID int64) (Draw, error)
	// InsertDraw stores a new draw (ID assigned, Version 1).
	InsertDraw(ctx context.Context, d Draw) (Draw, error)
	// UpdateDraw stores d if the stored version is still d.Version and
	// returns it with the version increased; otherwise Conflict
	// DRAW_CHANGED and nothing changes.
	UpdateDraw(ctx context.Context, d Draw) (Draw, error)

	// InsertBets stores bets in one go, one after another, each with its
	// ID assigned: the i-th result is the i-th bet with its ID, or its own
	// error (Conflict DUPLICATE_BET, also for a key repeated within bets);
	// err fails the whole call.
	InsertBets(ctx context.Context, bets []Bet) (stored []Bet, errs []error, err error)
	// DeleteBets removes bets stored earlier in this transaction whose
	// stake could not be taken, so that nothing of them remains.
	DeleteBets(ctx context.Context, ids []int64) error
	// AddPoolTotals adds increments (PoolIncrements of the bets the
	// transaction stored and kept, in PoolKeyOrder) to the pool totals, in
	// one statement; InsertBets and DeleteBets leave the totals alone.
	AddPoolTotals(ctx context.Context, increments []PoolIncrement) error
	// RoundLeaves is Store.RoundLeaves in the transaction.
	RoundLeaves(ctx context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error)
	PoolTotals(ctx context.Context, drawID int64, round parimutuel.Round) ([]SelectionTotal, error)
	// PayPool settles every ACCEPTED bet of one pool at once, as streamed
	// settlement does (tote/settle/stream.go): a bet on a selection of rates is
	// paid by SelectionRate.Settle (its stake, REFUNDED, when Refund, else
	// floor(stake × Coef1) + floor(stake × Coef2), WON when positive, LOST
	// when 0); a bet on any other selection is LOST. It returns, per selection of rates holding
	// bets it settled, their number, their stakes and the sums of the two
	// floors (of the stakes, in Paid1, when refunded), in any order. A store
	// may record the rates and derive each bet's status, payout and
	// settlement time from them whenever the bet is read, with the same
	// rule (the database stores do: no row per bet is written, and SQL
	// computes nothing of it); every reader must then show the bet settled.
	PayPool(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, rates []SelectionRate, at time.Time) ([]SelectionPaid, error)
	// PoolCredits lists what a settled pool's bets pay each player (the
	// sum of the payouts, players paid nothing left out), at most limit
	// players with a user id above afterUser, in user id order.
	PoolCredits(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterUser ids.UserID, limit int) ([]WalletCredit, error)

	// AppendEvent adds e to its table's outbox with the next sequence
	// number and returns it with Seq set.
	AppendEvent(ctx context.Context, e TableEvent) (TableEvent, error)

	// Ledger posts money movements in this transaction.
	Ledger() ledger.Poster
	// JackpotBalance reads the JACKPOT account and locks it until commit,
	// so that two settlements never pay the same jackpot.
	JackpotBalance(ctx context.Context) (money.Amount, error)
	JackpotEnabled(ctx context.Context) (bool, error)
	SetJackpotEnabled(ctx context.Context, enabled bool) error
	// JackpotHead is the jackpot chain's last entry (nil while the chain is
	// empty); call it after JackpotBalance, whose lock serialises the
	// chain's writers.
	JackpotHead(ctx context.Context) (*JackpotEntry, error)
	// AppendJackpot stores entries that follow the head; a seq taken
	// already is a Conflict and nothing is stored.
	AppendJackpot(ctx context.Context, entries []JackpotEntry) error
}

// Lease is a dealer's right to deal one table: held by Owner until
// ExpiresAt, with a Fence that increases every time the lease changes
// hands.
type Lease struct {
	TableID   int64
	Owner     string
	Fence     int64
	ExpiresAt time.Time
}

// LeaseStore hands out table leases. Times come from the caller's clock;
// replicas must keep their clocks close (NTP), and the TTL should dwarf
// the skew.
type LeaseStore interface {
	// AcquireLease takes the table's lease for owner until now+ttl: when
	// nobody holds it, when it expired (the fence increases), or when owner
	// holds it already (renewed, same fence). Otherwise Conflict LEASE_HELD.
	AcquireLease(ctx context.Context, tableID int64, owner string, now time.Time, ttl time.Duration) (Lease, error)
	// RenewLease extends l to now+ttl, or fails with Conflict LEASE_LOST
	// when l is no longer the table's lease.
	RenewLease(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error)
	// ReleaseLease gives l up (it expires now) if it is still held.
	ReleaseLease(ctx context.Context, l Lease) error
}

// ErrLeaseLost is the error of a write by a dealer whose lease is gone.
func ErrLeaseLost(tableID int64) error {
	return errs.R(errs.Conflict, ReasonLeaseLost, "the dealer of table %d lost its lease", tableID)
}

// ErrDrawChanged is the error of a change made from a stale copy of a draw.
func ErrDrawChanged(drawID int64) error {
	return errs.R(errs.Conflict, ReasonDrawChanged, "the draw (id %d) changed meanwhile; try again", drawID)
}

// StakeGate says whether a user may stake money now (verified, 21+);
// account.Service implements it.
type StakeGate interface {
	EnsureCanStake(ctx context.Context, userID ids.UserID) error
}

// PoolSignal is told, by the bet intake, that bets of draw drawID at
// table tableID committed, so the draw's pool totals changed: the dealer
// of the table publishes POOL_UPDATED on it (dealer.Signals routes it to
// the dealers of a process; the app carries it through the broker to the
// replica holding the table's lease). PoolsChanged must not block: the
// intake calls it after the batch's commit, before it answers the bets.
type PoolSignal interface {
	PoolsChanged(ctx context.Context, tableID, drawID int64)
}

// JackpotWatch hears of every transaction of a store that may change what
// the jackpot shows (its balance, whether it is on): a store calls Begin
// when such a transaction first locks the jackpot's balance, posts to the
// JACKPOT account, writes the jackpot chain or the jackpot's setting, so
// before it can commit, and End once for each Begin after the transaction
// is over, committed or not (event.Changes is one). Every change of the
// jackpot's balance locks it (JackpotBalance) to append to the chain, so
// none escapes the watch. A reader that sees no such transaction under way
// and the same count of them ended as when it last read the jackpot knows
// that what it read still holds, provided the store is the only one writing
// its database.
type JackpotWatch interface {
	Begin()
	End()
}

// Auditor records admin actions; the account store implements it.
type Auditor interface {
	AppendAudit(ctx context.Context, e account.AuditEntry) (account.AuditEntry, error)
}

// Clock is the time source of the dealer and the services: the real clock
// in production, a clocktest.Clock in tests.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// After is time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// SelectionRate says how a settlement pays every bet on one selection of a
// pool: the stake back (Refund), or floor(stake × Coef1) + floor(stake ×
// Coef2); a bet paid 0 is lost.
type SelectionRate struct {
	Selection string // as stored (Selection.String)
	Refund    bool
	Coef1     money.Coef
	Coef2     money.Coef
	Guessed   int // EXPRESS: how many of the coupon's 3 predictions came true
}

// SelectionPaid is what Tx.PayPool paid on one selection: its bets, their
// stakes, and the sums of floor(stake × Coef1) and floor(stake × Coef2) (of
// the stakes, in Paid1, for a refunded selection).
type SelectionPaid struct {
	Selection string
	Bets      int
	Stake     money.Amount
	Paid1     money.Amount
	Paid2     money.Amount
}

// BetOwner is a bet's id and its player.
type BetOwner struct {
	BetID  int64
	UserID ids.UserID
}

// WalletCredit is what one settled pool pays one player.
type WalletCredit struct {
	UserID ids.UserID
	Amount money.Amount
}

// DrawPayer is a Tx that pays several pools of a draw at once: what
// PayPool and then PoolCredits (every page) do for each pool, with the
// same results, in as few passes over the draw's bets as it can (the
// database stores: one statement storing every pool's rates, one or two
// aggregates over the draw's bets). Streamed settlement uses it when the
// transaction offers it, else PayPool and PoolCredits pool by pool.
type DrawPayer interface {
	// PayDraw pays pools[i] as PayPool would and returns, at i, what
	// PayPool returns and every credit PoolCredits would list for it, in
	// user id order. No pool may appear twice.
	PayDraw(ctx context.Context, drawID int64, pools []PoolRates, at time.Time) ([]PoolPaid, error)
}

// PoolRates is one pool's rates for DrawPayer.PayDraw.
type PoolRates struct {
	Round  parimutuel.Round
	Market parimutuel.Market
	Rates  []SelectionRate
}

// PoolPaid is what DrawPayer.PayDraw paid on one pool: its selections as
// PayPool returns them and its players' credits as PoolCredits lists them.
type PoolPaid struct {
	Paid    []SelectionPaid
	Credits []WalletCredit
	// Owners are the pool's bets, in bet id order, when the payer read
	// their ids on its pass (nil: the relay reads them back after the
	// commit, PoolBetOwners).
	Owners []BetOwner
}
