package ledgertest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
)

func TestMemStoreConformance(t *testing.T) {
	ledgertest.Run(t, func(t *testing.T) ledger.Store { return ledgertest.NewMemStore(nil) })
}

func TestMemStoreInTx(t *testing.T) {
	ctx := context.Background()
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	esc := ledger.EscrowOf("d1:1:WIN")
	setup := func(t *testing.T) *ledgertest.MemStore {
		t.Helper()
		s := ledgertest.NewMemStore(nil)
		if _, err := s.Post(ctx, ledger.Move("dep", ledger.Deposit, "", ledger.CashAccount, w1, 10*money.KZT)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	balance := func(t *testing.T, s *ledgertest.MemStore, a ledger.AccountRef) money.Amount {
		t.Helper()
		b, err := s.Balance(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	t.Run("commit", func(t *testing.T) {
		s := setup(t)
		err := s.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
			if _, err := tx.Post(ctx, ledger.Move("stake", ledger.BetStake, "", w1, esc, 4*money.KZT)); err != nil {
				return err
			}
			_, err := tx.Post(ctx, ledger.Move("gift", ledger.Payout, "", w1, w2, money.KZT))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if b := balance(t, s, w1); b != 5*money.KZT {
			t.Fatalf("w1 = %s, want 5.00", b)
		}
		if b := balance(t, s, esc); b != 4*money.KZT {
			t.Fatalf("escrow = %s, want 4.00", b)
		}
		if err := s.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("rollback on error", func(t *testing.T) {
		s := setup(t)
		boom := errors.New("bet insert failed")
		var leaked ledger.Poster
		err := s.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
			leaked = tx
			if _, err := tx.Post(ctx, ledger.Move("stake", ledger.BetStake, "", w1, esc, 4*money.KZT)); err != nil {
				return err
			}
			if _, err := tx.Post(ctx, ledger.Move("gift", ledger.Payout, "", w1, w2, money.KZT)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx = %v, want the callback's error", err)
		}
		if b := balance(t, s, w1); b != 10*money.KZT {
			t.Fatalf("w1 = %s after rollback, want 10.00", b)
		}
		if b := balance(t, s, esc); b != 0 {
			t.Fatalf("escrow = %s after rollback, want 0", b)
		}
		h, err := s.History(ctx, w1, ledger.Page{})
		if err != nil || len(h.Items) != 1 {
			t.Fatalf("w1 history = %d items, %v; want only the deposit", len(h.Items), err)
		}
		if err := s.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
		// The rolled-back key is free again, and the dead tx refuses work.
		if p, err := s.Post(ctx, ledger.Move("stake", ledger.BetStake, "", w1, esc, 2*money.KZT)); err != nil || p.Replayed {
			t.Fatalf("reusing a rolled-back key: %+v, %v", p, err)
		}
		if _, err := leaked.Post(ctx, ledger.Move("late", ledger.Payout, "", w1, w2, 1)); !errs.Is(err, errs.Internal) {
			t.Fatalf("post through a finished tx: %v, want Internal", err)
		}
	})

	t.Run("rollback on panic", func(t *testing.T) {
		s := setup(t)
		func() {
			defer func() { _ = recover() }()
			_ = s.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
				if _, err := tx.Post(ctx, ledger.Move("stake", ledger.BetStake, "", w1, esc, 4*money.KZT)); err != nil {
					return err
				}
				panic("boom")
			})
		}()
		if b := balance(t, s, w1); b != 10*money.KZT {
			t.Fatalf("w1 = %s after panic, want 10.00", b)
		}
		if err := s.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("failed post inside keeps earlier ones", func(t *testing.T) {
		s := setup(t)
		err := s.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
			if _, err := tx.Post(ctx, ledger.Move("a", ledger.Payout, "", w1, w2, 6*money.KZT)); err != nil {
				return err
			}
			if _, err := tx.Post(ctx, ledger.Move("b", ledger.Payout, "", w1, w2, 6*money.KZT)); errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
				t.Errorf("second move: %v, want INSUFFICIENT_FUNDS", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if b := balance(t, s, w2); b != 6*money.KZT {
			t.Fatalf("w2 = %s, want 6.00", b)
		}
	})
}

func TestMemStoreReturnsCopies(t *testing.T) {
	ctx := context.Background()
	s := ledgertest.NewMemStore(nil)
	tr := ledger.Move("dep", ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(1), 100)
	p, err := s.Post(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	p.Entries[1].Amount = 1_000_000
	again, err := s.Post(ctx, tr)
	if err != nil || again.Entries[1].Amount != 100 {
		t.Fatalf("replay after mutating a result: %+v, %v", again, err)
	}
}

func TestMemStoreCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := ledgertest.NewMemStore(nil)
	if _, err := s.Post(ctx, ledger.Move("dep", ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(1), 100)); err == nil {
		t.Fatal("Post with a cancelled context succeeded")
	}
}
