package ledger_test

import (
	"context"
	"fmt"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
)

// A cashier deposit, a bet stake moved to its pool's escrow, and a retried
// stake that moves nothing.
func ExampleMemStore() {
	ctx := context.Background()
	s := ledgertest.NewMemStore(nil)
	wallet := ledger.UserWallet(42)
	pool := ledger.EscrowOf("d1:1:WIN")

	_, _ = s.Post(ctx, ledger.Move("cash:1", ledger.Deposit, "cashier", ledger.CashAccount, wallet, 500*money.KZT))
	stake := ledger.Move("bet:7:stake", ledger.BetStake, "bet #7", wallet, pool, 150*money.KZT)
	first, _ := s.Post(ctx, stake)
	retry, _ := s.Post(ctx, stake)

	w, _ := s.Balance(ctx, wallet)
	e, _ := s.Balance(ctx, pool)
	c, _ := s.Balance(ctx, ledger.CashAccount)
	fmt.Println("wallet", w, "escrow", e, "cash", c)
	fmt.Println("retry replayed the same transfer:", retry.Replayed && retry.ID == first.ID)
	fmt.Println("books reconcile:", s.Reconcile(ctx) == nil)
	// Output:
	// wallet 350.00 escrow 150.00 cash -500.00
	// retry replayed the same transfer: true
	// books reconcile: true
}

// Posting inside one atomic unit: if anything after the stake fails (say,
// inserting the bet row), the stake is undone.
func ExampleMemStore_InTx() {
	ctx := context.Background()
	s := ledgertest.NewMemStore(nil)
	wallet := ledger.UserWallet(42)
	_, _ = s.Post(ctx, ledger.Move("cash:1", ledger.Deposit, "", ledger.CashAccount, wallet, 100*money.KZT))

	err := s.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
		if _, err := tx.Post(ctx, ledger.Move("bet:8:stake", ledger.BetStake, "bet #8", wallet, ledger.EscrowOf("d1:1:WIN"), 60*money.KZT)); err != nil {
			return err
		}
		return fmt.Errorf("round closed before the bet committed")
	})
	w, _ := s.Balance(ctx, wallet)
	fmt.Println(err)
	fmt.Println("wallet", w)
	// Output:
	// round closed before the bet committed
	// wallet 100.00
}
