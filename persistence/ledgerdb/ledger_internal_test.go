package ledgerdb

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// ledgerTestDBs opens a fresh migrated database of each dialect for the
// white-box ledger tests.
func ledgerTestDBs(t *testing.T) map[string]*sqldb.DB {
	t.Helper()
	ctx := context.Background()
	out := map[string]*sqldb.DB{}
	for _, dialect := range []string{"sqlite", "postgres"} {
		db, err := sqldb.Open(ctx, sqldbtest.MigratedOptions(t, dialect))
		if err != nil {
			t.Fatalf("open %s: %v", dialect, err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate %s: %v", dialect, err)
		}
		out[dialect] = db
	}
	return out
}

func fund(t *testing.T, r *Repo, key string, a ledger.AccountRef, amount money.Amount) {
	t.Helper()
	if _, err := r.Post(context.Background(), ledger.Move(key, ledger.Deposit, "", ledger.CashAccount, a, amount)); err != nil {
		t.Fatalf("fund %s: %v", a, err)
	}
}

func balanceOf(t *testing.T, r *Repo, a ledger.AccountRef) money.Amount {
	t.Helper()
	b, err := r.Balance(context.Background(), a)
	if err != nil {
		t.Fatalf("Balance(%s): %v", a, err)
	}
	return b
}

// TestPostTxInCallersTransaction is the pattern other repositories use: their
// own row and the money commit together, and a failed post leaves the
// caller's transaction usable with nothing of that post in it.
func TestPostTxInCallersTransaction(t *testing.T) {
	ctx := context.Background()
	w, esc := ledger.UserWallet(1), ledger.EscrowOf("p")
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			fund(t, r, "dep", w, 10*money.KZT)
			err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
				if err := tx.Exec("INSERT INTO settings (key, value) VALUES ('bet', 'accepted')").Error; err != nil {
					return err
				}
				if _, err := r.postTx(ctx, tx, ledger.Move("stake", ledger.BetStake, "", w, esc, 4*money.KZT)); err != nil {
					return err
				}
				_, err := r.Poster(tx).Post(ctx, ledger.Move("stake-big", ledger.BetStake, "", w, esc, 7*money.KZT))
				if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
					t.Errorf("big stake: %v, want INSUFFICIENT_FUNDS", err)
				}
				return tx.Exec("UPDATE settings SET value = 'still usable' WHERE key = 'bet'").Error
			})
			if err != nil {
				t.Fatal(err)
			}
			var value string
			if err := db.Gorm().Raw("SELECT value FROM settings WHERE key = 'bet'").Scan(&value).Error; err != nil || value != "still usable" {
				t.Fatalf("caller's row = %q, %v", value, err)
			}
			if b := balanceOf(t, r, w); b != 6*money.KZT {
				t.Fatalf("wallet = %s, want 6.00", b)
			}
			var n int64
			db.Gorm().Raw("SELECT COUNT(*) FROM ledger_transfers WHERE idempotency_key = 'stake-big'").Scan(&n)
			if n != 0 {
				t.Fatalf("the failed post left its transfer row")
			}

			// A caller that rolls back takes the money back with it.
			boom := errors.New("boom")
			err = sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
				if _, err := r.postTx(ctx, tx, ledger.Move("stake-2", ledger.BetStake, "", w, esc, money.KZT)); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("sqldb.RetryTx = %v, want boom", err)
			}
			if b := balanceOf(t, r, w); b != 6*money.KZT {
				t.Fatalf("wallet = %s after rollback, want 6.00", b)
			}
			if err := r.Reconcile(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestPostTxNeedsATransaction(t *testing.T) {
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			_, err := r.postTx(context.Background(), db.Gorm(), ledger.Move("k", ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(1), 1))
			if !errs.Is(err, errs.Internal) {
				t.Fatalf("postTx outside a transaction: %v, want Internal", err)
			}
		})
	}
}

// TestBalanceCheckIsLastLineOfDefence bypasses ledger.Apply for a wallet,
// storing a balance below zero with the write every post makes: the CHECK
// constraint still refuses, and the refusal reads INSUFFICIENT_FUNDS.
func TestBalanceCheckIsLastLineOfDefence(t *testing.T) {
	ctx := context.Background()
	w := ledger.UserWallet(1)
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			fund(t, r, "dep", w, money.KZT)
			err := db.Tx(ctx, func(tx *gorm.DB) error {
				ids, err := EnsureAccounts(tx, []ledger.AccountRef{w})
				if err != nil {
					return err
				}
				return SetBalances(tx, map[int64]money.Amount{ids[0]: -money.KZT})
			})
			if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
				t.Fatalf("unguarded overdraft: %v, want INSUFFICIENT_FUNDS from the CHECK constraint", err)
			}
			if b := balanceOf(t, r, w); b != money.KZT {
				t.Fatalf("wallet = %s, want 1.00", b)
			}
		})
	}
}

func TestBalanceOverflowIsRefused(t *testing.T) {
	ctx := context.Background()
	w := ledger.UserWallet(1)
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			fund(t, r, "dep", w, 100)
			fund(t, r, "dep-house", ledger.HouseAccount, 1)
			// Corrupt the cached balance to sit just below the int64 limit.
			if err := db.Gorm().Exec("UPDATE ledger_accounts SET balance = ? WHERE kind = 'HOUSE'", int64(math.MaxInt64-10)).Error; err != nil {
				t.Fatal(err)
			}
			_, err := r.Post(ctx, ledger.Move("stake", ledger.HoldemStake, "", w, ledger.HouseAccount, 100))
			if !errs.Is(err, errs.Internal) || errs.ReasonOf(err) == ledger.ReasonInsufficientFunds {
				t.Fatalf("overflowing post: %v, want Internal", err)
			}
			if b := balanceOf(t, r, w); b != 100 {
				t.Fatalf("wallet = %s, want 1.00 (nothing moved)", b)
			}
			if b := balanceOf(t, r, ledger.HouseAccount); b != math.MaxInt64-10 {
				t.Fatalf("house = %d", b)
			}
		})
	}
}

func TestLedgerRowsAreImmutable(t *testing.T) {
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			fund(t, r, "dep", ledger.UserWallet(1), money.KZT)
			for _, stmt := range []string{
				"UPDATE ledger_entries SET amount = amount * 2",
				"DELETE FROM ledger_entries",
				"UPDATE ledger_transfers SET memo = 'edited'",
				"DELETE FROM ledger_transfers",
			} {
				if err := db.Gorm().Exec(stmt).Error; err == nil {
					t.Errorf("%s: succeeded, want refused", stmt)
				}
			}
			if err := r.Reconcile(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestReconcileFindsCorruption edits the cached balances behind the
// ledger's back, which Reconcile must notice.
func TestReconcileFindsCorruption(t *testing.T) {
	ctx := context.Background()
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			r := New(db)
			fund(t, r, "dep", ledger.UserWallet(1), money.KZT)
			if err := r.Reconcile(ctx); err != nil {
				t.Fatal(err)
			}
			if err := db.Gorm().Exec("UPDATE ledger_accounts SET balance = balance + 5 WHERE kind = 'WALLET'").Error; err != nil {
				t.Fatal(err)
			}
			err := r.Reconcile(ctx)
			if errs.ReasonOf(err) != ledger.ReasonInconsistent {
				t.Fatalf("Reconcile after corruption: %v, want %s", err, ledger.ReasonInconsistent)
			}
			t.Log(err)
		})
	}
}

// TestRetryTxRetriesSerializationFailures checks the retry loop without a
// real deadlock: a failure with SQLSTATE 40P01 is retried, others are not.
func TestRetryTxRetriesSerializationFailures(t *testing.T) {
	db := ledgerTestDBs(t)["sqlite"]
	ctx := context.Background()
	calls := 0
	err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
		calls++
		if calls < 3 {
			return &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("sqldb.RetryTx = %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	err = sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
		calls++
		return &pgconn.PgError{Code: "40001"}
	})
	if !sqldb.IsSerializationFailure(err) || calls != sqldb.TxAttempts {
		t.Fatalf("sqldb.RetryTx = %v after %d calls, want the failure after %d", err, calls, sqldb.TxAttempts)
	}
	calls = 0
	boom := errors.New("boom")
	if err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error { calls++; return boom }); !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("sqldb.RetryTx = %v after %d calls, want boom after 1", err, calls)
	}
}
