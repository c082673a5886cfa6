package ledger

import (
	"context"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/paging"
)

// Poster posts transfers. It is the one thing a service needs to move money,
// and it is what a persistence adapter hands out bound to a database
// transaction, so that money moves atomically with the service's own rows
// (see the package documentation).
//
// Post validates t, then atomically: looks up t.IdempotencyKey (same request
// → the first Posted with Replayed set; different request → Conflict
// IDEMPOTENCY_KEY_REUSED), applies every entry, refuses to take an account
// that may not go negative below zero (Conflict INSUFFICIENT_FUNDS, nothing
// changes), and records the transfer and its entries immutably.
type Poster interface {
	Post(ctx context.Context, t Transfer) (Posted, error)
}

// Store is the whole ledger as the adapters implement it. Every
// implementation must pass ledgertest.Run.
type Store interface {
	Poster
	// Balance is the account's current balance; 0 for an account that has
	// never had an entry.
	Balance(ctx context.Context, a AccountRef) (money.Amount, error)
	// History lists the account's entries newest first, each with the
	// balance right after it, one page at a time.
	History(ctx context.Context, a AccountRef, p Page) (HistoryPage, error)
	// Reconcile checks the books: every cached balance equals the sum of its
	// account's entries, every transfer and the whole ledger sum to zero,
	// and no never-negative account is below zero. It returns an Internal
	// error with reason LEDGER_INCONSISTENT describing the first problems
	// found.
	Reconcile(ctx context.Context) error
}

// Posted is a transfer as recorded.
type Posted struct {
	// ID is the transfer's id, assigned by the store, increasing.
	ID             int64
	IdempotencyKey string
	Kind           TransferKind
	Memo           string
	// Entries are in the order they were posted, with ids and balances after.
	Entries  []PostedEntry
	PostedAt time.Time
	// Replayed is true when this post found the key already used by the
	// same request and moved no money: the result is the first post's.
	Replayed bool
}

// PostedEntry is one recorded entry.
type PostedEntry struct {
	// ID is the entry's id, assigned by the store, increasing in posting order.
	ID      int64
	Account AccountRef
	Amount  money.Amount
	// BalanceAfter is the account's balance right after this entry.
	BalanceAfter money.Amount
}

// Page asks for one page of a listing. After is the Next of the previous
// page ("" for the first page); Limit is clamped to 1..MaxPageSize, with
// DefaultPageSize when zero or negative.
//
// A Backward page is the one just before After in the listing's order
// (the oldest entries, the end of the list, when After is ""), still listed newest first; its
// Next is the cursor to read on backward (its first item's), "" when
// nothing precedes it.
type Page struct {
	After    string
	Limit    int
	Backward bool
}

// Page sizes.
const (
	DefaultPageSize = paging.Default
	MaxPageSize     = paging.StoreMax
)

// Size is the page's limit after clamping.
func (p Page) Size() int {
	return paging.Size(p.Limit, MaxPageSize)
}

// HistoryPage is one page of an account's history, newest first.
type HistoryPage struct {
	Items []HistoryItem
	// Next is the cursor of the following page, "" when this is the last.
	Next string
}

// HistoryItem is one entry as the account's owner sees it.
type HistoryItem struct {
	EntryID    int64
	TransferID int64
	Kind       TransferKind
	// Key is the transfer's idempotency key: what it was posted for (a
	// bet, a pool, a hand), read by the game that wrote it.
	Key          string
	Memo         string
	Amount       money.Amount
	BalanceAfter money.Amount
	PostedAt     time.Time
}

// EncodeCursor turns an entry id into an opaque history cursor. Adapters
// that page by entry id share it so cursors look alike everywhere.
func EncodeCursor(entryID int64) string {
	return "e" + strconv.FormatInt(entryID, 36)
}

// DecodeCursor reads a cursor made by EncodeCursor; "" is 0 (the first page).
// Anything else is an Invalid error.
func DecodeCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	bad := errs.R(errs.Invalid, ReasonInvalidCursor, "the page cursor is not valid")
	if len(s) < 2 || len(s) > 14 || s[0] != 'e' {
		return 0, bad
	}
	id, err := strconv.ParseInt(s[1:], 36, 64)
	if err != nil || id <= 0 || EncodeCursor(id) != s {
		return 0, bad
	}
	return id, nil
}

// InsufficientFunds is the error for a post that would take a never-negative
// account below zero: a holds balance and the post takes required. Adapters
// return it so every store says the same thing. The two amounts are its
// details ("balance", "required", in the API's Money form), so a client
// can say how much is missing.
func InsufficientFunds(a AccountRef, balance, required money.Amount) error {
	var e *errs.Error
	if a.Kind == Wallet {
		e = errs.R(errs.Conflict, ReasonInsufficientFunds, "insufficient funds in the wallet: it holds %s KZT, this needs %s KZT", balance, required)
	} else {
		e = errs.R(errs.Conflict, ReasonInsufficientFunds, "insufficient funds in %s", a)
	}
	return e.With(DetailBalance, balance.String()).With(DetailRequired, required.String())
}

// The details of INSUFFICIENT_FUNDS.
const (
	DetailBalance  = "balance"
	DetailRequired = "required"
)

// KeyReused is the error for an idempotency key already used by a different
// request.
func KeyReused(key string) error {
	return errs.R(errs.Conflict, ReasonKeyReused, "idempotency key %q was already used for a different request", key)
}
