package ledgerdb_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestLedgerConformance runs the ledger conformance suite against both
// databases with the suite's full counts: 1,000 concurrent 1-KZT debits
// against a 100-KZT wallet, 50 concurrent posts of one key, 200 concurrent
// moves between wallets, and the rapid property test.
func TestLedgerConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ledgertest.Run(t, func(t *testing.T) ledger.Store {
			return ledgerdb.New(sqldbtest.Open(t, dialect))
		})
	})
}

func TestLedgerInTx(t *testing.T) {
	ctx := context.Background()
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	esc := ledger.EscrowOf("d1:1:WIN")
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		r := ledgerdb.New(sqldbtest.Open(t, dialect))
		ledgertest.MustPost(t, r, ledger.Move("dep", ledger.Deposit, "", ledger.CashAccount, w1, money.Tenge(10)))

		t.Run("commit", func(t *testing.T) {
			err := r.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
				if _, err := tx.Post(ctx, ledger.Move("stake", ledger.BetStake, "", w1, esc, money.Tenge(4))); err != nil {
					return err
				}
				_, err := tx.Post(ctx, ledger.Move("gift", ledger.Payout, "", w1, w2, money.Tenge(1)))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ledgertest.WantBalance(t, r, w1, money.Tenge(5))
			ledgertest.WantBalance(t, r, esc, money.Tenge(4))
			ledgertest.WantBalance(t, r, w2, money.Tenge(1))
		})
		t.Run("error undoes every post", func(t *testing.T) {
			err := r.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
				if _, err := tx.Post(ctx, ledger.Move("stake-2", ledger.BetStake, "", w1, esc, money.Tenge(2))); err != nil {
					return err
				}
				_, err := tx.Post(ctx, ledger.Move("gift-2", ledger.Payout, "", w1, w2, money.Tenge(4)))
				return err
			})
			if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
				t.Fatalf("InTx = %v, want INSUFFICIENT_FUNDS", err)
			}
			ledgertest.WantBalance(t, r, w1, money.Tenge(5))
			ledgertest.WantBalance(t, r, esc, money.Tenge(4))
			// Both keys stay free.
			ledgertest.MustPost(t, r, ledger.Move("stake-2", ledger.BetStake, "", w1, esc, money.Tenge(2)))
			if p := ledgertest.MustPost(t, r, ledger.Move("gift-2", ledger.Payout, "", w1, w2, money.Tenge(3))); p.Replayed {
				t.Fatalf("gift-2 replayed a post that was rolled back")
			}
			ledgertest.WantBalance(t, r, w1, 0)
		})
		t.Run("failed post inside keeps the others", func(t *testing.T) {
			ledgertest.MustPost(t, r, ledger.Move("dep-3", ledger.Deposit, "", ledger.CashAccount, w1, money.Tenge(3)))
			err := r.InTx(ctx, func(ctx context.Context, tx ledger.Poster) error {
				if _, err := tx.Post(ctx, ledger.Move("stake-3", ledger.BetStake, "", w1, esc, money.Tenge(2))); err != nil {
					return err
				}
				_, err := tx.Post(ctx, ledger.Move("too-much", ledger.BetStake, "", w1, esc, money.Tenge(2)))
				if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
					return fmt.Errorf("second stake: %v, want INSUFFICIENT_FUNDS", err)
				}
				// The transaction is still usable after the failed post.
				p, err := tx.Post(ctx, ledger.Move("stake-3", ledger.BetStake, "", w1, esc, money.Tenge(2)))
				if err == nil && !p.Replayed {
					return fmt.Errorf("repeat of stake-3 in the same transaction was not a replay")
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ledgertest.WantBalance(t, r, w1, money.Tenge(1))
			h, err := r.History(ctx, w1, ledger.Page{Limit: 1})
			if err != nil || len(h.Items) != 1 || h.Items[0].Amount != -money.Tenge(2) {
				t.Fatalf("latest history item = %+v, %v; want the 2-KZT stake", h, err)
			}
		})
		ledgertest.Reconcile(t, r)
	})
}

func TestLedgerLargeTransfer(t *testing.T) {
	// A settlement with more legs than one multi-row statement carries.
	const legs = 1200
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		r := ledgerdb.New(sqldbtest.Open(t, dialect))
		esc := ledger.EscrowOf("big")
		ledgertest.MustPost(t, r, ledger.Move("fund", ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(0), money.Tenge(legs)))
		ledgertest.MustPost(t, r, ledger.Move("stake", ledger.BetStake, "", ledger.UserWallet(0), esc, money.Tenge(legs)))
		tr := ledger.Transfer{IdempotencyKey: "settle", Kind: ledger.Settlement, Memo: "pool big"}
		tr.Entries = append(tr.Entries, ledger.Entry{Account: esc, Amount: -money.Tenge(legs)})
		for i := 1; i <= legs; i++ {
			tr.Entries = append(tr.Entries, ledger.Entry{Account: ledger.UserWallet(ids.UserID(i)), Amount: money.Tenge(1)})
		}
		p := ledgertest.MustPost(t, r, tr)
		for i := 1; i < len(p.Entries); i++ {
			if p.Entries[i].ID <= p.Entries[i-1].ID || p.Entries[i].Account != tr.Entries[i].Account {
				t.Fatalf("entry %d = %+v after %+v: not in posting order", i, p.Entries[i], p.Entries[i-1])
			}
		}
		again := ledgertest.MustPost(t, r, tr)
		if !again.Replayed || len(again.Entries) != len(p.Entries) || again.Entries[legs] != p.Entries[legs] {
			t.Fatalf("replay differs from the first post")
		}
		ledgertest.WantBalance(t, r, esc, 0)
		ledgertest.WantBalance(t, r, ledger.UserWallet(ids.UserID(legs)), money.Tenge(1))
		ledgertest.Reconcile(t, r)
		if _, err := r.History(ctx, esc, ledger.Page{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestLedgerPostedAtRoundTrips(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		r := ledgerdb.New(sqldbtest.Open(t, dialect))
		tr := ledger.Move("dep", ledger.Deposit, "memo ✓", ledger.CashAccount, ledger.UserWallet(1), money.Tenge(1))
		first := ledgertest.MustPost(t, r, tr)
		again := ledgertest.MustPost(t, r, tr)
		if !first.PostedAt.Equal(again.PostedAt) || again.PostedAt.Location() != time.UTC || again.Memo != "memo ✓" {
			t.Fatalf("first PostedAt %v, replayed %v (memo %q)", first.PostedAt, again.PostedAt, again.Memo)
		}
		h, err := r.History(context.Background(), ledger.UserWallet(1), ledger.Page{})
		if err != nil || len(h.Items) != 1 || !h.Items[0].PostedAt.Equal(first.PostedAt) {
			t.Fatalf("History = %+v, %v", h, err)
		}
		if d := time.Since(first.PostedAt); d < 0 || d > time.Minute {
			t.Fatalf("PostedAt %v is not now", first.PostedAt)
		}
	})
}

// TestLedgerConcurrentKeyReuse races one key used for different requests:
// exactly one moves money, every other post is a replay or KeyReused.
func TestLedgerConcurrentKeyReuse(t *testing.T) {
	const n = 40
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		r := ledgerdb.New(sqldbtest.Open(t, dialect))
		var wg sync.WaitGroup
		results := make([]ledger.Posted, n)
		errsSeen := make([]error, n)
		for i := range n {
			wg.Go(func() {
				tr := ledger.Move("one-key", ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(i%2)), money.Tenge(1))
				results[i], errsSeen[i] = r.Post(context.Background(), tr)
			})
		}
		wg.Wait()
		fresh := 0
		for i := range n {
			switch {
			case errsSeen[i] == nil && !results[i].Replayed:
				fresh++
			case errsSeen[i] == nil:
			case errs.ReasonOf(errsSeen[i]) == ledger.ReasonKeyReused:
			default:
				t.Fatalf("post %d: %v", i, errsSeen[i])
			}
		}
		if fresh != 1 {
			t.Fatalf("%d posts moved money, want 1", fresh)
		}
		ledgertest.WantBalance(t, r, ledger.CashAccount, -money.Tenge(1))
		ledgertest.Reconcile(t, r)
	})
}
