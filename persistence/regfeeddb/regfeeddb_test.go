package regfeeddb_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/regfeeddb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

var almaty = time.FixedZone("Asia/Almaty", 5*3600)

// refused are the reasons a random post may be refused for: it moves
// nothing, and the feed must not record it.
var refused = map[string]bool{
	ledger.ReasonInsufficientFunds: true, protection.ReasonDepositLimit: true,
	protection.ReasonStakeLimit: true, protection.ReasonLossLimit: true,
}

// ledgerLine is a wallet entry as the test sums it, straight from the
// ledger's tables, by kind name (not through the feed's mapping).
type ledgerLine struct {
	Kind      string
	Amount    int64
	CreatedAt time.Time
}

// independent sums the ledger's wallet entries into the reconciliation's
// lines by the kinds' names.
func independent(t *testing.T, db *sqldb.DB, days []string) map[string]regfeed.Line {
	var rows []ledgerLine
	if err := db.Gorm().Raw(`SELECT t.kind, e.amount, t.created_at FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transfers t ON t.id = e.transfer_id
		WHERE a.kind = 'WALLET' AND a.ref LIKE 'user:%'`).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	item := map[string]regfeed.Item{
		"DEPOSIT": regfeed.ItemDeposit, "WITHDRAWAL": regfeed.ItemWithdrawal,
		"BET_STAKE": regfeed.ItemBetAccepted, "HOLDEM_STAKE": regfeed.ItemBetAccepted,
		"REFUND": regfeed.ItemRefund, "SETTLEMENT": regfeed.ItemPayout, "PAYOUT": regfeed.ItemPayout, "HOLDEM_PAYOUT": regfeed.ItemPayout,
	}
	game := map[string]regfeed.Game{"BET_STAKE": regfeed.Tote, "REFUND": regfeed.Tote, "SETTLEMENT": regfeed.Tote, "PAYOUT": regfeed.Tote, "HOLDEM_STAKE": regfeed.Holdem, "HOLDEM_PAYOUT": regfeed.Holdem}
	out := map[string]regfeed.Line{}
	var changes []time.Time
	if err := db.Gorm().Raw(`SELECT at FROM protection_changes`).Scan(&changes).Error; err != nil {
		t.Fatal(err)
	}
	for _, at := range changes {
		k := fmt.Sprintf("%s/%s/", at.In(almaty).Format(time.DateOnly), regfeed.ItemProtection)
		l := out[k]
		l.Count++
		out[k] = l
	}
	for _, r := range rows {
		it, ok := item[r.Kind]
		if !ok {
			t.Fatalf("a wallet entry of kind %s", r.Kind)
		}
		a := r.Amount
		if a < 0 {
			a = -a
		}
		k := fmt.Sprintf("%s/%s/%s", r.CreatedAt.In(almaty).Format(time.DateOnly), it, game[r.Kind])
		l := out[k]
		l.Count++
		l.Amount += money.Amount(a)
		out[k] = l
	}
	return out
}

// TestFeedMatchesLedger posts random money movements of every kind over
// several gaming days, runs the sequencer at random points between them,
// and checks that the feed holds one record per wallet entry, numbered
// 1..n without a gap, and that its reconciliation equals the ledger's own
// sums, line by line, on both databases.
func TestFeedMatchesLedger(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		db := sqldbtest.Open(t, dialect)
		led := ledgerdb.New(db)
		var now time.Time
		led.SetClock(func() time.Time { return now })
		feed := regfeeddb.New(db)
		prot := protectiondb.New(db)
		users := accountdb.NewUserRepo(db)
		var uids []int64
		for i := range 4 {
			uids = append(uids, int64(accountdbtest.MustCreateUser(t, users, fmt.Sprintf("feed%d@example.kz", i)).ID))
		}
		seq := &regfeed.Sequencer{Store: feed, Loc: almaty, Batch: 3}
		ctx := context.Background()
		n := 0
		rapid.Check(t, func(rt *rapid.T) {
			n++
			for i, steps := 0, rapid.IntRange(1, 25).Draw(rt, "steps"); i < steps; i++ {
				uid := rapid.SampledFrom(uids).Draw(rt, "user")
				user := ledger.UserWallet(ids.UserID(uid))
				amt := money.Amount(rapid.Int64Range(1, 50_000).Draw(rt, "amount"))
				key := fmt.Sprintf("p%d:%d", n, i)
				var tr ledger.Transfer
				now = time.Date(2026, 12, 1, 0, 0, 0, 0, almaty).Add(time.Duration(rapid.Int64Range(0, 3*24*3600).Draw(rt, "at")) * time.Second)
				switch rapid.IntRange(0, 8).Draw(rt, "kind") {
				case 0:
					tr = ledger.Move(key, ledger.Deposit, "", ledger.CashAccount, user, amt)
				case 1:
					tr = ledger.Move(key, ledger.Withdrawal, "", user, ledger.CashAccount, amt)
				case 2:
					tr = ledger.Move("tote:bet:"+key, ledger.BetStake, "", user, ledger.EscrowOf("1:1:WIN"), amt)
				case 3:
					tr = ledger.Move("tote:settle:1:1:WIN:"+key, ledger.Settlement, "", ledger.EscrowOf("1:1:WIN"), user, amt)
				case 4:
					tr = ledger.Move("tote:void:1:1:WIN:"+key, ledger.Refund, "", ledger.EscrowOf("1:1:WIN"), user, amt)
				case 5:
					tr = ledger.Move("holdem:7:"+key, ledger.HoldemStake, "", user, ledger.HouseAccount, amt)
				case 6:
					tr = ledger.Move("holdem:7:payout:"+key, ledger.HoldemPayout, "", ledger.HouseAccount, user, amt)
				case 7:
					tr = ledger.Move(key, ledger.JackpotTopUp, "", ledger.OrganiserAccount, ledger.JackpotAccount, amt)
				default:
					kind := rapid.SampledFrom(protection.LimitKinds).Draw(rt, "limit")
					if _, err := prot.UpdateLimit(ctx, uid, kind, protection.Day, func(l protection.Limit) (protection.Limit, error) {
						return l.Change(amt, time.Now())
					}); err != nil {
						rt.Fatal(err)
					}
					continue
				}
				if _, err := led.Post(ctx, tr); err != nil && !refused[errs.ReasonOf(err)] {
					rt.Fatalf("post %s: %v", tr.Kind, err)
				}
				if rapid.IntRange(0, 4).Draw(rt, "sequence") == 0 {
					if _, err := seq.Step(ctx); err != nil {
						rt.Fatal(err)
					}
				}
			}
			if err := seq.Sync(ctx); err != nil {
				rt.Fatal(err)
			}
			checkFeed(rt, t, db, feed)
		})
	})
}

func checkFeed(rt *rapid.T, t *testing.T, db *sqldb.DB, feed *regfeeddb.Repo) {
	ctx := context.Background()
	var entries int64
	if err := db.Gorm().Raw(`SELECT COUNT(*) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
		WHERE a.kind = 'WALLET' AND a.ref LIKE 'user:%'`).Scan(&entries).Error; err != nil {
		rt.Fatal(err)
	}
	var changes int64
	if err := db.Gorm().Raw(`SELECT COUNT(*) FROM protection_changes`).Scan(&changes).Error; err != nil {
		rt.Fatal(err)
	}
	entries += changes
	head, err := feed.Head(ctx)
	if err != nil {
		rt.Fatal(err)
	}
	recs, err := feed.After(ctx, 0, 1_000_000)
	if err != nil {
		rt.Fatal(err)
	}
	if head != entries || int64(len(recs)) != entries {
		rt.Fatalf("the feed holds %d records (head %d) for %d wallet entries", len(recs), head, entries)
	}
	for i, r := range recs {
		if r.Seq != int64(i+1) {
			rt.Fatalf("record %d has seq %d", i, r.Seq)
		}
		if r.Person != regfeed.Person(r.UserID) || (r.Sum() <= 0) != (r.Type == regfeed.ProtectionChanged) {
			rt.Fatalf("record %+v", r)
		}
	}
	today := time.Now().In(almaty)
	days := []string{"2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"}
	for d := time.Date(2026, 12, 5, 0, 0, 0, 0, almaty); !d.After(today); d = d.AddDate(0, 0, 1) {
		days = append(days, d.Format(time.DateOnly)) // the limits' changes are dated now
	}
	want := independent(t, db, days)
	lines, err := regfeed.Reconciliation(ctx, feed, days[0], days[len(days)-1], almaty)
	if err != nil {
		rt.Fatal(err)
	}
	if len(lines) != len(days)*len(regfeed.DayKeys()) {
		rt.Fatalf("%d lines for %d days", len(lines), len(days))
	}
	seen := 0
	for _, l := range lines {
		w := want[fmt.Sprintf("%s/%s/%s", l.Day, l.Item, l.Game)]
		if l.Count != w.Count || l.Amount != w.Amount {
			rt.Fatalf("%s %s %s: the file says %d for %d, the ledger %d for %d", l.Day, l.Item, l.Game, l.Count, l.Amount, w.Count, w.Amount)
		}
		seen += int(w.Count)
	}
	if int64(seen) != entries {
		rt.Fatalf("the days cover %d of %d entries", seen, entries)
	}
	// The pure sum of the records agrees with the store's.
	if pure := regfeed.Reconcile(recs, days, almaty); fmt.Sprint(pure) != fmt.Sprint(lines) {
		rt.Fatalf("Reconcile over the records:\n%v\nthe store's totals:\n%v", pure, lines)
	}
}

// TestSequencerWaitsForTransactionsInFlight holds a transfer's transaction
// open while a later one commits: the sequencer must not pass the first
// (reading ids alone would take the second and never come back), and once
// the first commits both are in the feed, the first first.
func TestSequencerWaitsForTransactionsInFlight(t *testing.T) {
	db := sqldbtest.Open(t, "postgres")
	led := ledgerdb.New(db)
	feed := regfeeddb.New(db)
	seq := &regfeed.Sequencer{Store: feed, Loc: almaty}
	ctx := context.Background()
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	led.SetClock(func() time.Time { return at })
	dep := func(key string, w ledger.AccountRef) ledger.Transfer {
		return ledger.Move(key, ledger.Deposit, "", ledger.CashAccount, w, 100)
	}
	if _, err := led.Post(ctx, dep("warm-1", w1)); err != nil {
		t.Fatal(err)
	}
	if _, err := led.Post(ctx, dep("warm-2", w2)); err != nil {
		t.Fatal(err)
	}
	escrow := ledger.EscrowOf("1:1:WIN")
	if _, err := led.Post(ctx, ledger.Move("tote:bet:1", ledger.BetStake, "", w1, escrow, 50)); err != nil {
		t.Fatal(err)
	}
	if _, err := seq.Step(ctx); err != nil {
		t.Fatal(err)
	}
	// The slow transaction (a refund: the escrow to w1; the fast deposit
	// touches neither account, so neither waits for the other's locks) takes its id first and stays open.
	slow := db.Gorm().Begin()
	defer slow.Rollback()
	var slowID int64
	h := sha256.Sum256([]byte("slow"))
	if err := slow.Raw(`INSERT INTO ledger_transfers (idempotency_key, request_hash, kind, memo, created_at) VALUES ('tote:void:1:1:WIN', ?, 'REFUND', '', ?) RETURNING id`, h[:], at).Scan(&slowID).Error; err != nil {
		t.Fatal(err)
	}
	if err := slow.Exec(`INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after, created_at)
		SELECT ?, id, CASE kind WHEN 'ESCROW' THEN -5 ELSE 5 END, 0, ? FROM ledger_accounts WHERE (kind = 'ESCROW' AND ref = ?) OR (kind = 'WALLET' AND ref = ?)`, slowID, at, escrow.Ref, w1.Ref).Error; err != nil {
		t.Fatal(err)
	}
	fast, err := led.Post(ctx, dep("fast", w2))
	if err != nil {
		t.Fatal(err)
	}
	if fast.ID <= slowID {
		t.Fatalf("the fast transfer %d should come after the slow one %d", fast.ID, slowID)
	}
	if _, err := seq.Step(ctx); err != nil {
		t.Fatal(err)
	}
	recs, _ := feed.After(ctx, 0, 100)
	for _, r := range recs {
		if r.TransferID == fast.ID {
			t.Fatalf("the sequencer took transfer %d while %d, older, was still in flight", fast.ID, slowID)
		}
	}
	if err := slow.Commit().Error; err != nil {
		t.Fatal(err)
	}
	// A pass reads only below the oldest transaction running anywhere in
	// the cluster, and other tests share it: wait until everything
	// committed is in (a single Step could find another test's
	// transaction open and take nothing).
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := seq.Sync(sctx); err != nil {
		t.Fatal(err)
	}
	recs, _ = feed.After(ctx, 0, 100)
	var order []int64
	for _, r := range recs {
		order = append(order, r.TransferID)
	}
	if len(order) != 5 || order[3] != slowID || order[4] != fast.ID {
		t.Fatalf("the feed's transfers are %v; want the slow %d then the fast %d last", order, slowID, fast.ID)
	}
}

// TestConcurrentSequencers runs two sequencers (two replicas) against
// posts in flight: every wallet entry is in the feed exactly once.
func TestConcurrentSequencers(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		db := sqldbtest.Open(t, dialect)
		led := ledgerdb.New(db)
		feed := regfeeddb.New(db)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan struct{}, 2)
		for range 2 {
			s := &regfeed.Sequencer{Store: feed, Loc: almaty, Batch: 7, Poll: time.Millisecond}
			go func() { s.Run(ctx); done <- struct{}{} }()
		}
		posted := make(chan error, 4)
		for w := range 4 {
			go func() {
				for i := range 40 {
					tr := ledger.Move(fmt.Sprintf("c%d-%d", w, i), ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(w+1)), 10)
					if _, err := led.Post(ctx, tr); err != nil {
						posted <- err
						return
					}
				}
				posted <- nil
			}()
		}
		for range 4 {
			if err := <-posted; err != nil {
				t.Fatal(err)
			}
		}
		var recs []regfeed.Record
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			recs, _ = feed.After(ctx, 0, 1000)
			if len(recs) >= 160 {
				break
			}
		}
		cancel()
		<-done
		<-done
		recs, _ = feed.After(context.Background(), 0, 1000)
		if len(recs) != 160 {
			t.Fatalf("%d records for 160 deposits", len(recs))
		}
		seen := map[int64]bool{}
		for i, r := range recs {
			if r.Seq != int64(i+1) || seen[r.TransferID] {
				t.Fatalf("record %d: seq %d, transfer %d (seen before: %v)", i, r.Seq, r.TransferID, seen[r.TransferID])
			}
			seen[r.TransferID] = true
		}
	})
}
