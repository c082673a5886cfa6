// Package totetest is the conformance suite of tote.Store and
// tote.LeaseStore implementations: the in-memory twin and the database
// adapter (on SQLite and Postgres) run the same tests, which drive real
// draws through the dealer on a fake clock.
package totetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/dealer"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// Env is one fresh, empty store with its lease store and ledger.
type Env struct {
	Store  tote.Store
	Leases tote.LeaseStore
	Ledger ledger.Store
	// Concurrent says the store runs transactions in parallel (Postgres),
	// so the race tests use many goroutines.
	Concurrent bool
	// WatchJackpot attaches a tote.JackpotWatch to Store (before its first
	// use); nil when the store has none.
	WatchJackpot func(tote.JackpotWatch)
}

// Run runs every conformance test; newEnv makes a fresh Env per test.
func Run(t *testing.T, newEnv func(t *testing.T) Env) { RunOnly(t, newEnv) }

// RunOnly runs the conformance tests named (every test when none is), for
// a store set up for a path the full suite does not reach.
func RunOnly(t *testing.T, newEnv func(t *testing.T) Env, names ...string) {
	tests := []struct {
		name string
		fn   func(t *testing.T, env Env)
	}{
		{"FullDrawSettlesEveryMarket", testFullDraw},
		{"OutboxSequence", testOutboxSequence},
		{"BetChecks", testBetChecks},
		{"BetTiming", testBetTiming},
		{"BetIdempotency", testBetIdempotency},
		{"CloseRace", testCloseRace},
		{"AdminVoidRefunds", testAdminVoid},
		{"LeaseTakeoverResumes", testLeaseTakeover},
		{"StalledDrawVoidedOnTakeover", testStalledTakeover},
		{"JackpotPaidToExpress", testJackpotPaid},
		{"JackpotWatched", testJackpotWatched},
		{"TablesAdmin", testTablesAdmin},
		{"Results", testResults},
		{"BatchMixedResults", testBatchMixed},
		{"ConcurrentMixedResults", testConcurrentMixed},
		{"PoolTotalsEqualBets", testTotalsProperty},
		{"StreamedSettlementIsReference", testStreamedSettlementIsReference},
		{"BetReadersAgree", testBetReaders},
		{"BetListFilters", testBetListFilters},
		{"SuspendedSelections", testSuspendedSelections},
		{"SuspendedRace", testSuspendedRace},
	}
	for _, tc := range tests {
		if len(names) > 0 && !slices.Contains(names, tc.name) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store, table and fake clock
			tc.fn(t, newEnv(t))
		})
	}
}

// Start is when every fake clock of the suite starts.
var Start = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// AllowAll is a stake gate letting everybody bet.
type AllowAll struct{}

// EnsureCanStake always allows.
func (AllowAll) EnsureCanStake(context.Context, ids.UserID) error { return nil }

// Recorder is an event.Publisher that keeps every message.
type Recorder struct {
	mu   sync.Mutex
	msgs map[string][][]byte
}

// Publish records the message.
func (r *Recorder) Publish(_ context.Context, topic string, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.msgs == nil {
		r.msgs = map[string][][]byte{}
	}
	r.msgs[topic] = append(r.msgs[topic], data)
	return nil
}

// Messages returns what was published on topic.
func (r *Recorder) Messages(topic string) [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.msgs[topic])
}

// SimpleOdds is an OddsEngine that reports only the leaders: fast and
// enough for tests that are not about odds.
type SimpleOdds struct{}

// PreDeal returns symmetric odds.
func (SimpleOdds) PreDeal(_ context.Context, n int) (tote.LiveOdds, error) {
	o := tote.LiveOdds{Phase: tote.PhasePreDeal}
	for p := 1; p <= n; p++ {
		o.Positions = append(o.Positions, tote.PositionOdds{Position: p, Equity: 1 / float64(n)})
	}
	return o, nil
}

// Live returns the leaders with the board so far.
func (SimpleOdds) Live(_ context.Context, pockets [][2]cards.Card, board []cards.Card) (tote.LiveOdds, error) {
	o := tote.LiveOdds{Exact: true}
	if len(board) >= 3 {
		o.Leaders = parimutuel.Leaders(pockets, board)
	}
	return o, nil
}

// TB is the part of testing.TB the harness uses; *testing.T and
// *rapid.T both have it.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Harness is one table with its service and dealer on a fake clock.
type Harness struct {
	T      TB
	Env    Env
	Ctx    context.Context
	Clock  *clocktest.Clock
	Pub    *Recorder
	Svc    *service.Service
	Dealer *dealer.Dealer
	Table  tote.Table
	// Parts are what the harness's dealers are built from: the service's
	// store, publisher, clock and Stats, the env's leases, SimpleOdds and
	// the gated beacon.
	Parts dealer.Parts
	// BeaconGate is where the dealers read beacon rounds: a local chain on
	// Clock that a test may hold back.
	BeaconGate *BeaconGate
}

// NewHarness creates a table of n positions with fast, round-number
// timings (10 s rounds, 1 s cards, 5 s result) and its dealer "A".
func NewHarness(t TB, env Env, n int) *Harness {
	t.Helper()
	h := &Harness{T: t, Env: env, Ctx: context.Background(), Clock: clocktest.New(Start), Pub: &Recorder{}}
	// The service's intake signals the harness's dealers when bets commit
	// (POOL_UPDATED), as the app's does through the broker.
	signals := dealer.NewSignals()
	svc, err := service.New(service.Config{Store: env.Store, Ledger: env.Ledger, Gate: AllowAll{}, Publisher: h.Pub, Clock: h.Clock, Pools: signals})
	if err != nil {
		t.Fatal(err)
	}
	h.Svc = svc
	h.Parts = dealer.Parts{
		Store: env.Store, Leases: env.Leases, Odds: SimpleOdds{}, Beacon: h.Beacon(), Clock: h.Clock, Stats: svc.Stats(),
		Relay: outbox.NewRelay(env.Store, h.Pub, h.Clock, nil, svc.Stats()), Signals: signals,
	}
	rounds := [4]time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second}
	card, result := time.Second, 5*time.Second
	h.Table, err = svc.CreateTable(h.Ctx, 1, service.NewTable{Name: fmt.Sprintf("T%d-%d", n, time.Now().UnixNano()), Positions: n,
		Update: tote.SettingsUpdate{RoundLengths: &rounds, CardInterval: &card, ResultDisplay: &result}})
	if err != nil {
		t.Fatal(err)
	}
	h.Dealer = h.NewDealer("A")
	return h
}

// LocalBeaconSecret is the key secret of the tests' local beacon chain.
var LocalBeaconSecret = []byte("pokertote test beacon secret, 32+ bytes")

// LocalBeacon is a local beacon chain of one round per second on clock.
func LocalBeacon(clock tote.Clock) *beacon.Local {
	l, err := beacon.NewLocal(LocalBeaconSecret, time.Second, clock.Now)
	if err != nil {
		panic(err)
	}
	return l
}

// Beacon is the harness's beacon source: a local chain on its clock,
// behind a Gate that tests use to withhold or forge rounds.
func (h *Harness) Beacon() beacon.Source {
	if h.BeaconGate == nil {
		h.BeaconGate = &BeaconGate{Source: LocalBeacon(h.Clock)}
	}
	return h.BeaconGate
}

// BeaconGate is a beacon Source that passes rounds through from Source
// unless a test told it to withhold them (a late or dead beacon) or to
// answer with a forged signature (a lying relay).
type BeaconGate struct {
	Source beacon.Source
	mu     sync.Mutex
	hold   func(round uint64) bool
	forge  bool
	ahead  func(round uint64) bool
}

// Ahead makes the gate answer the rounds ahead selects (nil: none) before
// their time, signed by the local chain: a server clock behind the chain,
// as a dealer sees it. Source must be a *beacon.Local.
func (g *BeaconGate) Ahead(ahead func(round uint64) bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ahead = ahead
}

// Withhold makes the gate answer "not published" for every round hold
// selects (nil: none).
func (g *BeaconGate) Withhold(hold func(round uint64) bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hold = hold
}

// Forge makes the gate answer withheld rounds with the signature of the
// round before instead of "not published".
func (g *BeaconGate) Forge(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.forge = on
}

// Chain implements beacon.Source.
func (g *BeaconGate) Chain() beacon.Chain { return g.Source.Chain() }

// Beacon implements beacon.Source.
func (g *BeaconGate) Beacon(ctx context.Context, r uint64) (beacon.Beacon, error) {
	g.mu.Lock()
	hold, forge, ahead := g.hold, g.forge, g.ahead
	g.mu.Unlock()
	if l, ok := g.Source.(*beacon.Local); ok && ahead != nil && ahead(r) {
		return l.Sign(r), nil
	}
	if hold != nil && hold(r) {
		if forge {
			b, err := g.Source.Beacon(ctx, r-1)
			b.Round = r
			return b, err
		}
		return beacon.Beacon{}, beacon.ErrNotPublished(r, "withheld by the test")
	}
	return g.Source.Beacon(ctx, r)
}

// NewDealer returns another dealer of the harness's table.
func (h *Harness) NewDealer(owner string) *dealer.Dealer {
	return dealer.New(h.Parts, dealer.Config{
		TableID: h.Table.ID, Owner: owner, LeaseTTL: 3 * time.Second, PoolTick: 250 * time.Millisecond,
	})
}

// Deposit gives a user money.
func (h *Harness) Deposit(user int64, a money.Amount) {
	h.T.Helper()
	key := fmt.Sprintf("deposit:%d:%d", user, time.Now().UnixNano())
	if _, err := h.Env.Ledger.Post(h.Ctx, ledger.Move(key, ledger.Deposit, "test", ledger.CashAccount, ledger.UserWallet(ids.UserID(user)), a)); err != nil {
		h.T.Fatal(err)
	}
}

// Balance is an account's balance.
func (h *Harness) Balance(a ledger.AccountRef) money.Amount {
	h.T.Helper()
	b, err := h.Env.Ledger.Balance(h.Ctx, a)
	if err != nil {
		h.T.Fatal(err)
	}
	return b
}

// Draw is the table's latest draw.
func (h *Harness) Draw() tote.Draw {
	h.T.Helper()
	d, err := h.Env.Store.LatestDraw(h.Ctx, h.Table.ID)
	if err != nil {
		h.T.Fatal(err)
	}
	return d
}

// RunUntil ticks dealer and advances the clock until cond holds for the
// latest draw (at most 2000 ticks).
func (h *Harness) RunUntil(dealer *dealer.Dealer, what string, cond func(d tote.Draw) bool) tote.Draw {
	h.T.Helper()
	// A draw waiting for a beacon asks four times a chain period (1 s)
	// for up to BEACON_WAIT (30 minutes): 7,200 ticks.
	for range 20000 {
		wait := dealer.Tick(h.Ctx)
		if d, err := h.Env.Store.LatestDraw(h.Ctx, h.Table.ID); err == nil && cond(d) {
			return d
		}
		h.Clock.Advance(wait)
	}
	h.T.Fatalf("the dealer never reached %s", what)
	return tote.Draw{}
}

// InPhase is a RunUntil condition.
func InPhase(p tote.Phase) func(d tote.Draw) bool {
	return func(d tote.Draw) bool { return d.Phase == p }
}

// Bet places a bet with a fresh key.
func (h *Harness) Bet(user int64, d tote.Draw, m parimutuel.Market, sel string, stake money.Amount) (tote.Bet, error) {
	return h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(user), DrawID: d.ID, Market: m, Selection: sel, Stake: stake,
		IdempotencyKey: fmt.Sprintf("k%d-%s-%s-%d", user, m, sel, time.Now().UnixNano())})
}

// MustBet places a bet that must be accepted.
func (h *Harness) MustBet(user int64, d tote.Draw, m parimutuel.Market, sel string, stake money.Amount) tote.Bet {
	h.T.Helper()
	b, err := h.Bet(user, d, m, sel, stake)
	if err != nil {
		h.T.Fatalf("bet %s %s %s: %v", m, sel, stake, err)
	}
	return b
}

// OpenWin is the first WIN selection of d's open round that the deal has
// not suspended (SPEC 1.9), for tests whose point is not the suspension.
func (h *Harness) OpenWin(d tote.Draw) string {
	h.T.Helper()
	for p := 1; p <= d.Positions; p++ {
		if _, suspended := d.Suspended(d.OpenRound(), parimutuel.WinSelection(p)); !suspended {
			return parimutuel.WinSelection(p).String()
		}
	}
	h.T.Fatalf("every WIN selection of draw %d is suspended", d.ID)
	return ""
}

// BetIfOffered places a bet unless its selection is suspended in d's open
// round (SPEC 1.9): then the bet must be refused with SELECTION_SUSPENDED.
// ok says whether it was placed.
func (h *Harness) BetIfOffered(user int64, d tote.Draw, m parimutuel.Market, sel string, stake money.Amount) (b tote.Bet, ok bool) {
	h.T.Helper()
	s, err := parimutuel.ParseSelection(m, sel)
	if err != nil {
		h.T.Fatal(err)
	}
	if _, suspended := d.Suspended(d.OpenRound(), s); suspended {
		if _, err := h.Bet(user, d, m, sel, stake); errs.ReasonOf(err) != tote.ReasonSelectionSuspended {
			h.T.Fatalf("bet %s %s on a suspended selection: %v, want %s", m, sel, err, tote.ReasonSelectionSuspended)
		}
		return tote.Bet{}, false
	}
	return h.MustBet(user, d, m, sel, stake), true
}

// CheckBooks checks that the ledger reconciles and every escrow of the
// draw is exactly zero.
func (h *Harness) CheckBooks(d tote.Draw) {
	h.T.Helper()
	if err := h.Env.Ledger.Reconcile(h.Ctx); err != nil {
		h.T.Fatal(err)
	}
	for _, k := range tote.DrawPools() {
		if b := h.Balance(ledger.EscrowOf(tote.PoolID(d.ID, k.Round, k.Market))); b != 0 {
			h.T.Errorf("escrow of pool %s holds %s after the draw", tote.PoolID(d.ID, k.Round, k.Market), b)
		}
	}
	h.CheckJackpotChain()
}

// CheckJackpotChain checks the whole jackpot chain against the results of
// every finished draw (verify.JackpotChain) and its head against the
// ledger's jackpot balance: no jackpot posting without its entry.
func (h *Harness) CheckJackpotChain() {
	h.T.Helper()
	run := h.JackpotRun()
	var head money.Amount
	if n := len(run.Entries); n > 0 {
		head = run.Entries[n-1].After
	}
	if bal := h.Balance(ledger.JackpotAccount); bal != head {
		h.T.Errorf("the jackpot chain ends at %s, the ledger's jackpot holds %s", head, bal)
	}
	if len(run.Entries) == 0 {
		return
	}
	for _, p := range verify.JackpotChain(run) {
		h.T.Errorf("jackpot chain: %s", p)
	}
}

// JackpotRun is the whole jackpot chain with the result of every finished
// draw, as the public API pages them out.
func (h *Harness) JackpotRun() verify.JackpotRun {
	h.T.Helper()
	var run verify.JackpotRun
	for after := int64(0); ; {
		page, err := h.Env.Store.JackpotChain(h.Ctx, tote.JackpotChainQuery{After: after, Limit: 100})
		if err != nil {
			h.T.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		run.Entries = append(run.Entries, page...)
		after = page[len(page)-1].Seq
	}
	for before := int64(0); ; {
		draws, err := h.Env.Store.Results(h.Ctx, tote.ResultQuery{Before: before, Limit: 100})
		if err != nil {
			h.T.Fatal(err)
		}
		if len(draws) == 0 {
			break
		}
		for _, d := range draws {
			if d.Result != nil {
				run.Results = append(run.Results, *d.Result)
			}
		}
		before = draws[len(draws)-1].ID
	}
	return run
}

// Events is the table's outbox.
func (h *Harness) Events() []tote.TableEvent {
	h.T.Helper()
	evs, err := h.Env.Store.EventsAfter(h.Ctx, h.Table.ID, 0, 100000)
	if err != nil {
		h.T.Fatal(err)
	}
	return evs
}

// resultJSON is a result's JSON, to compare stored results.
func resultJSON(t TB, r *tote.DrawResult) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// types lists the events' types, joined, for readable assertions.
func types(evs []tote.TableEvent) string {
	var sb strings.Builder
	for i, e := range evs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(string(e.Type))
		if e.Type == tote.EventRoundOpened || e.Type == tote.EventRoundClosed {
			fmt.Fprintf(&sb, "(%d)", e.Round)
		}
	}
	return sb.String()
}
