package holdem_test

import (
	"context"
	"encoding/binary"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/holdem/holdemtest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
)

// fixture is a Service over the in-memory stores with a settable clock, a
// settable seed and a fake age check.
type fixture struct {
	svc    *holdem.Service
	store  *holdemtest.MemStore
	ledger *ledgertest.MemStore
	pub    *recorder

	mu      sync.Mutex
	now     time.Time
	seed    cards.Seed
	blocked map[ids.UserID]error
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{now: t0, blocked: map[ids.UserID]error{}, pub: &recorder{}}
	f.ledger = ledgertest.NewMemStore(f.clock)
	f.store = holdemtest.NewMemStore(f.ledger)
	svc, err := holdem.NewService(f.store, f, holdem.DefaultConfig(),
		holdem.WithClock(f.clock), holdem.WithPublisher(f.pub),
		holdem.WithSeedSource(func() (cards.Seed, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.seed, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	return f
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

func (f *fixture) useSeed(s cards.Seed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seed = s
}

// EnsureCanStake makes the fixture the Service's StakeChecker.
func (f *fixture) EnsureCanStake(_ context.Context, userID ids.UserID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.blocked[userID]
}

func (f *fixture) deposit(t *testing.T, user ids.UserID, a money.Amount) {
	t.Helper()
	key := "deposit:" + user.String() + ":" + strconv.FormatInt(int64(a), 10) + ":" + f.clock().String()
	if _, err := f.ledger.Post(context.Background(), ledger.Move(key, ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(user), a)); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) balance(t *testing.T, a ledger.AccountRef) money.Amount {
	t.Helper()
	b, err := f.ledger.Balance(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantMoney checks the player's wallet and the house bank.
func (f *fixture) wantMoney(t *testing.T, user ids.UserID, wallet, house money.Amount) {
	t.Helper()
	if got := f.balance(t, ledger.UserWallet(user)); got != wallet {
		t.Errorf("wallet = %s, want %s", got, wallet)
	}
	if got := f.balance(t, ledger.HouseAccount); got != house {
		t.Errorf("house = %s, want %s", got, house)
	}
	if err := f.ledger.Reconcile(context.Background()); err != nil {
		t.Error(err)
	}
}

// recorder is an event.Publisher that keeps what it is given.
type recorder struct {
	mu     sync.Mutex
	events []event.UserEvent
}

func (r *recorder) Publish(_ context.Context, _ string, data []byte) error {
	e, err := event.DecodeUserEvent(data)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) count(typ string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// play settles a hand dealt from seed and cut with the given decisions, the
// way the Service will, so that a test can search for the seed of a wanted
// situation.
func play(seed cards.Seed, cut string, stakes []holdem.Stake, decisions ...holdem.Decision) holdem.Settlement {
	h, err := holdem.Start(holdem.DefaultConfig(), stakes, holdem.ShuffledDeal(seed, []byte(cut), len(stakes)), t0)
	if err != nil {
		panic(err)
	}
	for i, d := range decisions {
		if err := h.Decide(i, d, t0); err != nil {
			panic(err)
		}
	}
	s, ok := h.Settlement()
	if !ok {
		panic("not settled")
	}
	return s
}

// seedFor searches server seeds 1, 2, 3, ... for the first whose hand, with
// the cut, stakes and decisions given, settles as want says.
func seedFor(t *testing.T, cut string, stakes []holdem.Stake, decisions []holdem.Decision, want func(holdem.Settlement) bool) cards.Seed {
	t.Helper()
	for i := uint64(1); i < 200_000; i++ {
		var s cards.Seed
		binary.BigEndian.PutUint64(s[:8], i)
		if want(play(s, cut, stakes, decisions...)) {
			return s
		}
	}
	t.Fatal("no seed found for the wanted hand")
	return cards.Seed{}
}
