// Package ledger is Pokertote's double-entry bookkeeping in integer tiyn.
//
// Every movement of money is one Transfer: a set of entries on accounts that
// sums to zero. A positive entry raises an account's balance, a negative one
// lowers it; a deposit of 100 KZT is {CASH −100.00, WALLET user:42 +100.00}.
// Balances are the sum of an account's entries; the sum of all entries in the
// ledger is always zero. Entries are immutable: a mistake is corrected by a
// new, opposite transfer, never by editing an old one.
//
// # Idempotency
//
// Every transfer carries an idempotency key chosen by the caller (for example
// "bet:1234:stake" or the client's mutation id). Posting the same key with the
// same request (kind, memo and entries, in any order; see RequestHash) returns
// the first result with Replayed set; the same key with a different request is
// a Conflict with reason IDEMPOTENCY_KEY_REUSED. A post that fails (for
// example with INSUFFICIENT_FUNDS) records nothing, so its key stays free and
// a retry after a deposit may succeed.
//
// # Posting inside a larger transaction
//
// Services that must change their own rows and move money atomically (accept
// a bet and move its stake; settle a pool and pay its winners) depend on the
// one-method Poster interface, not on Store. The persistence adapter exposes
// a Poster bound to its database transaction, next to the other repositories
// of that transaction, so a service written against a unit of work such as
//
//	type Tx interface {
//		Bets() BetStore
//		Ledger() ledger.Poster
//	}
//	type UnitOfWork interface {
//		Within(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
//	}
//
// commits the bet and its stake together or neither. The adapter's top-level
// Store.Post simply opens its own transaction around the same code. The
// test twin, ledgertest.MemStore, offers the same shape for ledger-only
// work through its InTx.
//
// # Who may go negative
//
// WALLET, JACKPOT and ESCROW accounts never go below zero: a post that would
// take one negative fails with INSUFFICIENT_FUNDS and changes nothing. CASH
// mirrors money outside the system (deposits drive it negative), ORGANISER pays
// minus-pool top-ups and may therefore run a deficit, and HOUSE is the Casino
// Hold'em bank, which can lose on a day; all three may go negative. See
// AccountKind.MayGoNegative.
package ledger
