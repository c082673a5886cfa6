package ledgerdb

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// TestPostBatchCountsReturnsAsOneByOne posts the same settlement credits (on
// mirrored players) once through postBatchTx, which on Postgres counts the
// returns for the whole batch in one statement (protectiondb's
// CountReturnsPG), and once through postTx one after another, and requires every player's counters
// and session of play to end the same: a player credited by two transfers,
// one whose session went idle, one whose day and week counters do not
// exist yet (last play the day before, a Monday), one with a deposit only,
// one never seen.
func TestPostBatchCountsReturnsAsOneByOne(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // a Monday
	for dialect, db := range ledgerTestDBs(t) {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			r := New(db)
			clock := now
			r.SetClock(func() time.Time { return clock })
			run := func(base int64, batch bool) {
				w := func(n int64) ledger.AccountRef { return ledger.UserWallet(ids.UserID(base + n)) }
				esc := ledger.EscrowOf(fmt.Sprintf("returns-test-%d", base))
				key := func(s string) string { return fmt.Sprintf("rt-%d-%s", base, s) }
				stake := func(n int64, at time.Time, a money.Amount) {
					clock = at
					fund(t, r, key(fmt.Sprintf("fund-%d", n)), w(n), a)
					if _, err := r.Post(ctx, ledger.Move(key(fmt.Sprintf("stake-%d", n)), ledger.BetStake, "", w(n), esc, a)); err != nil {
						t.Fatal(err)
					}
				}
				stake(1, now.Add(-time.Minute), 300)
				stake(2, now.Add(-26*time.Hour), 200)             // Sunday: last week
				stake(3, now.Add(-2*protection.SessionIdle), 100) // session idle since
				clock = now.Add(-time.Minute)
				fund(t, r, key("fund-4"), w(4), 10)
				clock = now
				settle := func(k string, kind ledger.TransferKind, credits map[int64]money.Amount) ledger.Transfer {
					var es []ledger.Entry
					var sum money.Amount
					for n, a := range credits {
						es = append(es, ledger.Entry{Account: w(n), Amount: a})
						sum += a
					}
					es = append(es, ledger.Entry{Account: ledger.OrganiserAccount, Amount: 7}, ledger.Entry{Account: esc, Amount: -sum - 7})
					return ledger.Transfer{IdempotencyKey: key(k), Kind: kind, Memo: k, Entries: es}
				}
				ts := []ledger.Transfer{
					settle("settle", ledger.Settlement, map[int64]money.Amount{1: 100, 2: 50, 3: 30}),
					settle("settle:2", ledger.Settlement, map[int64]money.Amount{1: 20, 4: 10}),
					settle("refund", ledger.Refund, map[int64]money.Amount{5: 5}),
				}
				err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
					if batch {
						_, errList, err := r.postBatchTx(ctx, tx, ts)
						for i, e := range errList {
							if e != nil {
								t.Errorf("transfer %d: %v", i, e)
							}
						}
						return err
					}
					for _, tr := range ts {
						if _, err := r.postTx(ctx, tx, tr); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			run(1000, true)
			run(2000, false)
			type counter struct {
				Period, PeriodStart        string
				Deposits, Stakes, Returned int64
			}
			type session struct { // a row of protection_sessions, protectiondb's
				UserID, SessionNo, StartedUs, LastPlayUs, Stakes, Returned int64
				Checks                                                     int
			}
			read := func(user int64) ([]counter, []session) {
				var cs []counter
				if err := db.Gorm().Raw("SELECT period, period_start, deposits, stakes, returned FROM protection_counters WHERE user_id = ? ORDER BY period, period_start", user).Scan(&cs).Error; err != nil {
					t.Fatal(err)
				}
				var ss []session
				if err := db.Gorm().Table("protection_sessions").Where("user_id = ?", user).Find(&ss).Error; err != nil {
					t.Fatal(err)
				}
				for i := range ss {
					ss[i].UserID = 0
				}
				return cs, ss
			}
			for n := int64(1); n <= 5; n++ {
				bc, bs := read(1000 + n)
				sc, ss := read(2000 + n)
				if fmt.Sprint(bc) != fmt.Sprint(sc) || fmt.Sprint(bs) != fmt.Sprint(ss) {
					t.Errorf("player %d: batch leaves counters %v session %v, one by one %v %v", n, bc, bs, sc, ss)
				}
			}
			// The test means something: the credits were counted.
			cs, ss := read(1001)
			if len(cs) != 3 || cs[0].Returned != 120 || len(ss) != 1 || ss[0].Returned != 120 {
				t.Errorf("player 1: counters %v, session %v; want 120 returned in each", cs, ss)
			}
			if err := r.Reconcile(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
