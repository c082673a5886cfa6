package ledgerwrite_test

import (
	"context"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestHoldAccountCreatesOnce: the first hold creates the account at zero,
// later ones (in other transactions) find the same row.
func TestHoldAccountCreatesOnce(t *testing.T) {
	ctx := context.Background()
	w := ledger.UserWallet(7)
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		db := sqldbtest.Open(t, dialect)
		var first, second int64
		for _, id := range []*int64{&first, &second} {
			err := db.Tx(ctx, func(tx *gorm.DB) error {
				var err error
				*id, err = ledgerwrite.HoldAccount(tx, w, db.LockSuffix(sqldb.LockExclusive))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if first == 0 || first != second {
			t.Fatalf("held ids %d then %d, want one non-zero id", first, second)
		}
		var rows []struct{ Balance int64 }
		if err := db.Gorm().Raw("SELECT balance FROM ledger_accounts WHERE kind = ? AND ref = ?", string(w.Kind), w.Ref).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].Balance != 0 {
			t.Fatalf("accounts %+v, want one at 0", rows)
		}
	})
}

// TestGormShapesRoundTrip writes a transfer through the GORM shapes (the
// accounts, the transfer, the balances, the entries) and reads it back;
// a second insert of the key is skipped, and a balance below zero on a
// never-negative account is refused as INSUFFICIENT_FUNDS.
func TestGormShapesRoundTrip(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	w, house := ledger.UserWallet(1), ledger.HouseAccount
	tr := ledger.Move("k1", ledger.Deposit, "memo", house, w, money.KZT)
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		db := sqldbtest.Open(t, dialect)
		var walletID int64
		err := db.Tx(ctx, func(tx *gorm.DB) error {
			if err := ledgerwrite.CreateAccounts(tx, []ledger.AccountRef{w, house, w}); err != nil {
				return err
			}
			var acc []struct {
				ID   int64
				Kind string
			}
			if err := tx.Raw("SELECT id, kind FROM ledger_accounts ORDER BY id").Scan(&acc).Error; err != nil {
				return err
			}
			if len(acc) != 2 {
				t.Fatalf("accounts %+v, want 2", acc)
			}
			ids, err := ledgerwrite.InsertTransfers(tx, []ledger.Transfer{tr}, at)
			if err != nil || len(ids) != 1 || ids["k1"] == 0 {
				t.Fatalf("InsertTransfers = %v, %v", ids, err)
			}
			again, err := ledgerwrite.InsertTransfers(tx, []ledger.Transfer{tr}, at)
			if err != nil || len(again) != 0 {
				t.Fatalf("a taken key: %v, %v; want it skipped", again, err)
			}
			idOf := map[string]int64{acc[0].Kind: acc[0].ID, acc[1].Kind: acc[1].ID}
			wID, hID := idOf[string(ledger.Wallet)], idOf[string(ledger.House)]
			if err := ledgerwrite.SetBalances(tx, map[int64]money.Amount{wID: money.KZT, hID: -money.KZT}); err != nil {
				return err
			}
			ents, err := ledgerwrite.InsertEntries(tx, []ledgerwrite.Entry{
				{Transfer: ids["k1"], Account: hID, Amount: -money.KZT, After: -money.KZT},
				{Transfer: ids["k1"], Account: wID, Amount: money.KZT, After: money.KZT},
			}, at)
			if err != nil || len(ents) != 2 {
				t.Fatalf("InsertEntries = %v, %v", ents, err)
			}
			walletID = wID
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = db.Tx(ctx, func(tx *gorm.DB) error {
			return ledgerwrite.SetBalances(tx, map[int64]money.Amount{walletID: -1})
		})
		if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
			t.Fatalf("a wallet below zero: %v, want INSUFFICIENT_FUNDS", err)
		}
	})
}
