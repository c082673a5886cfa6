package holdemdb_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/holdemdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// holdemEnv is a Casino Hold'em service over one test database, with a
// settable clock and a player who may stake.
type holdemEnv struct {
	db     *sqldb.DB
	repo   *holdemdb.Repo
	ledger *ledgerdb.Repo
	user   ids.UserID
	clock  atomic.Int64 // unix microseconds
}

type allowAll struct{}

func (allowAll) EnsureCanStake(context.Context, ids.UserID) error { return nil }

func newHoldemEnv(t *testing.T, dialect string) *holdemEnv {
	t.Helper()
	e := &holdemEnv{db: sqldbtest.Open(t, dialect)}
	e.ledger = ledgerdb.New(e.db)
	e.repo = holdemdb.New(e.db, e.ledger)
	e.clock.Store(time.Date(2025, 3, 1, 12, 0, 0, 123456000, time.UTC).UnixMicro())
	e.user = ids.UserID(e.newUser(t, "p@x.kz", 10_000))
	return e
}

func (e *holdemEnv) newUser(t *testing.T, email string, kzt int64) int64 {
	t.Helper()
	ctx := context.Background()
	u, err := accountdb.NewUserRepo(e.db).Create(ctx, account.User{
		Email: email, Name: "P", DateOfBirth: account.MustParseDate("1990-01-01"), Role: account.Player, PasswordHash: "x",
	})
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MustPost(t, e.ledger, ledger.Move("deposit:"+email, ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(u.ID)), money.Amount(kzt)*money.KZT))
	return u.ID
}

func (e *holdemEnv) now() time.Time          { return time.UnixMicro(e.clock.Load()).UTC() }
func (e *holdemEnv) advance(d time.Duration) { e.clock.Add(d.Microseconds()) }

func (e *holdemEnv) service(t *testing.T) *holdem.Service {
	t.Helper()
	svc, err := holdem.NewService(e.repo, allowAll{}, holdem.DefaultConfig(), holdem.WithClock(e.now))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func startHand(t *testing.T, svc *holdem.Service, user ids.UserID, key string, stakes ...holdem.Stake) holdem.Snapshot {
	t.Helper()
	sn, err := svc.Start(context.Background(), holdem.StartRequest{UserID: user, Stakes: stakes, Cut: "cut ✂", IdempotencyKey: key, Commitment: commitmentOf(t, svc, user)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return sn
}

// commitmentOf asks for the user's shuffle commitment, as every hand starts
// with one.
func commitmentOf(t *testing.T, svc *holdem.Service, user ids.UserID) string {
	t.Helper()
	pc, err := svc.Commit(context.Background(), user)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return cards.FormatCommitment(pc.Commitment)
}

// TestHoldemRepoPlaysAHand plays a two-box hand on each database and checks
// that every stored state reads back as the one the service computed, and
// that the money moved with it.
func TestHoldemRepoPlaysAHand(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		svc := e.service(t)
		sn := startHand(t, svc, e.user, "start", holdem.Stake{Ante: 100 * money.KZT, Bonus: 25 * money.KZT}, holdem.Stake{Ante: 200 * money.KZT})
		ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 9_675*money.KZT)
		wantSame(t, svc, sn)

		e.advance(1500 * time.Millisecond)
		sn, err := svc.Decide(ctx, holdem.DecideRequest{UserID: e.user, HandID: sn.ID, Box: 0, Decision: holdem.Call, IdempotencyKey: "d1"})
		if err != nil {
			t.Fatal(err)
		}
		ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 9_475*money.KZT)
		wantSame(t, svc, sn)

		e.advance(time.Second)
		sn, err = svc.Decide(ctx, holdem.DecideRequest{UserID: e.user, HandID: sn.ID, Box: 1, Decision: holdem.Call, IdempotencyKey: "d2"})
		if err != nil {
			t.Fatal(err)
		}
		if sn.View.Phase != holdem.Settled || sn.ServerSeed == nil {
			t.Fatalf("not settled: %+v", sn.View)
		}
		wantSame(t, svc, sn)
		ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 10_000*money.KZT+sn.Returned-sn.Staked)
		ledgertest.WantBalance(t, e.ledger, ledger.HouseAccount, sn.Staked-sn.Returned)
		ledgertest.Reconcile(t, e.ledger)

		r, err := e.repo.Hand(ctx, sn.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Version != 3 || len(r.Decisions) != 2 || r.Decisions[1].Key != "d2" || !r.Deadline.IsZero() || r.SettledAt.IsZero() {
			t.Errorf("stored record = %+v", r)
		}
		if r.Config != holdem.DefaultConfig() {
			t.Errorf("config round trip: %+v", r.Config)
		}
		if got, err := e.repo.HandByStartKey(ctx, e.user, "start"); err != nil || got.ID != sn.ID {
			t.Errorf("HandByStartKey = %v, %v", got.ID, err)
		}
		_, err = e.repo.Hand(ctx, sn.ID+100)
		errstest.Is(t, err, errs.NotFound, "HAND_NOT_FOUND")
	})
}

// wantSame checks that the hand read back from the store is the one the
// service returned.
func wantSame(t *testing.T, svc *holdem.Service, want holdem.Snapshot) {
	t.Helper()
	got, err := svc.Hand(context.Background(), want.UserID, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hand read back differs:\n got %+v\nwant %+v", got, want)
	}
}

func TestHoldemRepoTx(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		svc := e.service(t)
		sn := startHand(t, svc, e.user, "k", holdem.Stake{Ante: 100 * money.KZT})

		t.Run("stale version", func(t *testing.T) {
			err := e.repo.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
				r, err := tx.LockHand(ctx, sn.ID)
				if err != nil {
					return err
				}
				r.Version--
				return tx.UpdateHand(ctx, &r)
			})
			errstest.Is(t, err, errs.Conflict, holdem.ReasonHandChanged)
		})
		t.Run("duplicate start key", func(t *testing.T) {
			err := e.repo.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
				r, err := tx.LockHand(ctx, sn.ID)
				if err != nil {
					return err
				}
				return tx.InsertHand(ctx, &r)
			})
			errstest.Code(t, err, errs.Conflict)
		})
		t.Run("rollback undoes the money", func(t *testing.T) {
			err := e.repo.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
				if _, err := tx.Ledger().Post(ctx, ledger.Move("rolled-back", ledger.HoldemStake, "", ledger.UserWallet(e.user), ledger.HouseAccount, money.KZT)); err != nil {
					return err
				}
				return errs.E(errs.Conflict, "changed my mind")
			})
			errstest.Code(t, err, errs.Conflict)
			ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 9_900*money.KZT)
		})
		t.Run("insufficient funds stores no hand", func(t *testing.T) {
			_, err := svc.Start(ctx, holdem.StartRequest{UserID: e.user, Stakes: []holdem.Stake{{Ante: 10_000 * money.KZT}}, IdempotencyKey: "big", Cut: "cut c", Commitment: commitmentOf(t, svc, e.user)})
			errstest.Is(t, err, errs.Conflict, ledger.ReasonInsufficientFunds)
			_, err = e.repo.HandByStartKey(ctx, e.user, "big")
			errstest.Code(t, err, errs.NotFound)
		})
	})
}

func TestHoldemRepoDueAndPages(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		svc := e.service(t)
		var ids []int64
		for i := range 3 {
			ids = append(ids, startHand(t, svc, e.user, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT}).ID)
			e.advance(time.Second)
		}
		if _, err := svc.Decide(ctx, holdem.DecideRequest{UserID: e.user, HandID: ids[1], Box: 0, Decision: holdem.Fold, IdempotencyKey: "f"}); err != nil {
			t.Fatal(err)
		}
		// Deadlines: ids[0] at +30 s, ids[2] at +32 s; ids[1] is settled.
		due := func(at time.Duration) []int64 {
			got, err := e.repo.Due(ctx, time.Date(2025, 3, 1, 12, 0, 0, 123456000, time.UTC).Add(at), 10)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := due(30*time.Second - time.Microsecond); len(got) != 0 {
			t.Errorf("due before any deadline: %v", got)
		}
		if got := due(30 * time.Second); !reflect.DeepEqual(got, ids[:1]) {
			t.Errorf("due at the first deadline: %v", got)
		}
		if got := due(time.Hour); !reflect.DeepEqual(got, []int64{ids[0], ids[2]}) {
			t.Errorf("due later: %v, want %v", got, []int64{ids[0], ids[2]})
		}
		e.advance(time.Hour)
		if n, err := svc.ExpireDue(ctx); err != nil || n != 2 {
			t.Fatalf("ExpireDue = %d, %v", n, err)
		}
		if got := due(2 * time.Hour); len(got) != 0 {
			t.Errorf("due after the sweep: %v", got)
		}

		p, err := svc.Hands(ctx, e.user, "", 2)
		if err != nil || len(p.Items) != 2 || p.Items[0].ID != ids[2] || p.Next == "" {
			t.Fatalf("first page = %+v, %v", p, err)
		}
		p, err = svc.Hands(ctx, e.user, p.Next, 2)
		if err != nil || len(p.Items) != 1 || p.Items[0].ID != ids[0] || p.Next != "" {
			t.Fatalf("second page = %+v, %v", p, err)
		}
	})
}

func TestHoldemRepoPendingSeeds(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		_, err := e.repo.PendingSeed(ctx, e.user)
		errstest.Code(t, err, errs.NotFound)
		first := holdem.PendingSeed{UserID: e.user, Seed: cards.Seed{1}, Commitment: cards.Commitment(cards.Seed{1}), CreatedAt: e.now()}
		got, err := e.repo.AddPendingSeed(ctx, first)
		if err != nil || got != first {
			t.Fatalf("AddPendingSeed = %+v, %v", got, err)
		}
		second := holdem.PendingSeed{UserID: e.user, Seed: cards.Seed{2}, Commitment: cards.Commitment(cards.Seed{2}), CreatedAt: e.now()}
		if got, err := e.repo.AddPendingSeed(ctx, second); err != nil || got != first {
			t.Fatalf("a second AddPendingSeed replaced the first: %+v, %v", got, err)
		}
		take := func(c [cards.SeedSize]byte) (holdem.PendingSeed, error) {
			var p holdem.PendingSeed
			err := e.repo.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
				var err error
				p, err = tx.TakePendingSeed(ctx, e.user, c)
				return err
			})
			return p, err
		}
		_, err = take(second.Commitment)
		errstest.Code(t, err, errs.NotFound)
		if p, err := take(first.Commitment); err != nil || p != first {
			t.Fatalf("take = %+v, %v", p, err)
		}
		_, err = take(first.Commitment)
		errstest.Code(t, err, errs.NotFound)
	})
}

// TestHoldemRepoReplicasSettleOnce runs several services (as replicas would)
// on one database, all expiring the same overdue hands at once, and several
// retries of one start at once: each hand is settled and paid once, and the
// retries start one hand.
func TestHoldemRepoReplicasSettleOnce(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		replicas := []*holdem.Service{e.service(t), e.service(t), e.service(t), e.service(t)}
		var hands []holdem.Snapshot
		for i := range 5 {
			hands = append(hands, startHand(t, replicas[0], e.user, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT, Bonus: 100 * money.KZT}))
		}
		e.advance(time.Minute)
		var (
			wg      sync.WaitGroup
			settled atomic.Int64
		)
		for _, svc := range replicas {
			wg.Go(func() {
				n, err := svc.ExpireDue(ctx)
				if err != nil {
					t.Error(err)
				}
				settled.Add(int64(n))
			})
		}
		wg.Wait()
		if settled.Load() != 5 {
			t.Fatalf("the replicas settled %d hands, want 5", settled.Load())
		}
		var net money.Amount
		for _, h := range hands {
			sn, err := replicas[1].Hand(ctx, e.user, h.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sn.View.Phase != holdem.Settled || !sn.View.Boxes[0].TimedOut {
				t.Fatalf("hand %d: %+v", h.ID, sn.View)
			}
			net += sn.Returned - sn.Staked
		}
		ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 10_000*money.KZT+net)

		// One request on every replica at once, with a pending seed
		// only one of them can take.
		startOnce(t, replicas, holdem.StartRequest{UserID: e.user, Stakes: []holdem.Stake{{Ante: 100 * money.KZT}},
			Commitment: commitmentOf(t, replicas[0], e.user), IdempotencyKey: "retried with a commitment", Cut: "cut c"})
		ledgertest.WantBalance(t, e.ledger, ledger.UserWallet(e.user), 9_900*money.KZT+net)
		ledgertest.Reconcile(t, e.ledger)
	})
}

func TestHoldemSettings(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		e := newHoldemEnv(t, dialect)
		def := holdem.DefaultConfig()
		if got, err := e.repo.HoldemSettings(ctx, def); err != nil || got != def {
			t.Fatalf("with nothing stored: %+v, %v", got, err)
		}
		cfg := def
		cfg.MinAnte, cfg.MaxBonus, cfg.DecisionTimeout = 500*money.KZT, 0, 45*time.Second
		cfg.Bonus.Pair = 8
		if err := e.repo.SaveHoldemSettings(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if got, err := e.repo.HoldemSettings(ctx, def); err != nil || got != cfg {
			t.Fatalf("stored settings read back as %+v, %v", got, err)
		}
		cfg.Ante.HighCard = 0
		errstest.Is(t, e.repo.SaveHoldemSettings(ctx, cfg), errs.Invalid, "INVALID_CONFIG")
	})
}

// startOnce sends req to every replica at once and checks that they all
// answer with the same hand.
func startOnce(t *testing.T, replicas []*holdem.Service, req holdem.StartRequest) {
	t.Helper()
	var wg sync.WaitGroup
	ids := make(chan int64, len(replicas))
	for _, svc := range replicas {
		wg.Go(func() {
			sn, err := svc.Start(context.Background(), req)
			if err != nil {
				t.Error(err)
				return
			}
			ids <- sn.ID
		})
	}
	wg.Wait()
	close(ids)
	first := <-ids
	for id := range ids {
		if id != first {
			t.Fatalf("retries started hands %d and %d", first, id)
		}
	}
}
