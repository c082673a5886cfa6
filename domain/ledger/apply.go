package ledger

import (
	"fmt"
	"math"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// Balances are account balances as a store holds or read them; an account
// not in the map holds zero.
type Balances map[AccountRef]money.Amount

// Apply is the one home of "never below zero": it applies t's
// entries to b, in order, when no account of a never-negative kind goes
// below zero and no balance overflows, and returns each entry's balance
// after it. Otherwise b is unchanged and the error is InsufficientFunds of
// the first account that would go below zero, or an Internal overflow.
// Every store moves balances through it (the twin, the database's single
// and batch posts, the Postgres bet batch); the database's CHECK constraint
// only backs it up.
func Apply(t Transfer, b Balances) ([]money.Amount, error) {
	next := make(Balances, len(t.Entries))
	after := make([]money.Amount, len(t.Entries))
	for j, e := range t.Entries {
		cur, ok := next[e.Account]
		if !ok {
			cur = b[e.Account]
		}
		if (e.Amount > 0 && cur > math.MaxInt64-e.Amount) || (e.Amount < 0 && cur <= math.MinInt64-e.Amount) {
			return nil, &errs.Error{Code: errs.Internal, Message: fmt.Sprintf("the balance of %s would overflow", e.Account)}
		}
		if cur+e.Amount < 0 && !e.Account.Kind.MayGoNegative() {
			return nil, InsufficientFunds(e.Account, cur, -e.Amount)
		}
		cur += e.Amount
		next[e.Account] = cur
		after[j] = cur
	}
	for a, v := range next {
		b[a] = v
	}
	return after, nil
}
