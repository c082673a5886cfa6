package ledgerdb

import (
	"context"
	"fmt"
	"testing"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// TestPostBatchEqualsPostOneByOne posts the same transfers (on mirrored
// accounts) once through postBatchTx and once through postTx one after
// another, and requires the same result per transfer and the same
// balances: short wallets, a wallet that runs dry within the batch, new
// accounts, an invalid transfer, and (second case) a replayed key and a
// reused key, which send the batch down its one-by-one fallback.
func TestPostBatchEqualsPostOneByOne(t *testing.T) {
	for dialect, db := range ledgerTestDBs(t) {
		for _, replays := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/replays=%v", dialect, replays), func(t *testing.T) {
				r := New(db)
				ctx := context.Background()
				run := func(base int64, batch bool) ([]ledger.Posted, []error) {
					w := func(n int64) ledger.AccountRef { return ledger.UserWallet(ids.UserID(base + n)) }
					esc := ledger.EscrowOf(fmt.Sprintf("batch-test-%d", base))
					fund(t, r, fmt.Sprintf("bt-fund-%d-1", base), w(1), 1000)
					fund(t, r, fmt.Sprintf("bt-fund-%d-2", base), w(2), 250)
					key := func(s string) string { return fmt.Sprintf("bt-%d-%s", base, s) }
					if replays {
						fund(t, r, key("replayed"), w(3), 10)
						fund(t, r, key("reused"), w(3), 10)
					}
					ts := []ledger.Transfer{
						ledger.Move(key("a"), ledger.BetStake, "a", w(1), esc, 300),
						ledger.Move(key("b"), ledger.BetStake, "b", w(2), esc, 200),
						ledger.Move(key("c"), ledger.BetStake, "c", w(2), esc, 100), // 50 left: short
						ledger.Move(key("d"), ledger.BetStake, "d", w(4), esc, 100), // never funded
						ledger.Move(key("e"), ledger.BetStake, "e", w(1), esc, 700), // exactly what is left
						ledger.Move(key("f"), ledger.BetStake, "f", w(1), esc, 1),   // now dry
						ledger.Move(key("g"), ledger.BetStake, "g", w(1), esc, 0),   // invalid
					}
					if replays {
						ts = append(ts,
							ledger.Move(key("replayed"), ledger.Deposit, "", ledger.CashAccount, w(3), 10),
							ledger.Move(key("reused"), ledger.Deposit, "", ledger.CashAccount, w(3), 99))
					}
					var posted []ledger.Posted
					var errList []error
					err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
						if batch {
							var err error
							posted, errList, err = r.postBatchTx(ctx, tx, ts)
							return err
						}
						posted, errList = make([]ledger.Posted, len(ts)), make([]error, len(ts))
						for i, tr := range ts {
							posted[i], errList[i] = r.postTx(ctx, tx, tr)
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					return posted, errList
				}
				base := int64(1000)
				if replays {
					base = 3000
				}
				bp, be := run(base, true)
				sp, se := run(base+1000, false)
				for i := range be {
					if errs.CodeOf(be[i]) != errs.CodeOf(se[i]) || errs.ReasonOf(be[i]) != errs.ReasonOf(se[i]) {
						t.Errorf("transfer %d: batch %v, one by one %v", i, be[i], se[i])
						continue
					}
					if be[i] != nil {
						continue
					}
					if bp[i].Replayed != sp[i].Replayed || len(bp[i].Entries) != len(sp[i].Entries) {
						t.Errorf("transfer %d: batch %+v, one by one %+v", i, bp[i], sp[i])
						continue
					}
					if bp[i].Replayed {
						continue // the first post's entries, made at another time
					}
					for j := range bp[i].Entries {
						if bp[i].Entries[j].Amount != sp[i].Entries[j].Amount || bp[i].Entries[j].BalanceAfter != sp[i].Entries[j].BalanceAfter {
							t.Errorf("transfer %d entry %d: batch %+v, one by one %+v", i, j, bp[i].Entries[j], sp[i].Entries[j])
						}
					}
				}
				for n := int64(1); n <= 4; n++ {
					if b, s := balanceOf(t, r, ledger.UserWallet(ids.UserID(base+n))), balanceOf(t, r, ledger.UserWallet(ids.UserID(base+1000+n))); b != s {
						t.Errorf("wallet %d: batch leaves %s, one by one %s", n, b, s)
					}
				}
				if got := balanceOf(t, r, ledger.EscrowOf(fmt.Sprintf("batch-test-%d", base))); got != money.Amount(300+200+700) {
					t.Errorf("escrow holds %s", got)
				}
				if err := r.Reconcile(ctx); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
