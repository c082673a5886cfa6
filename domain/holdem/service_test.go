package holdem_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

const player = ids.UserID(7)

var (
	ctx       = context.Background()
	oneBox    = []holdem.Stake{{Ante: ante}}
	withBonus = []holdem.Stake{{Ante: ante, Bonus: bonus}}
	call      = []holdem.Decision{holdem.Call}
	fold      = []holdem.Decision{holdem.Fold}
	anteTable = holdem.DefaultAntePaytable()
)

func (f *fixture) start(t *testing.T, key string, stakes []holdem.Stake) holdem.Snapshot {
	t.Helper()
	sn, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: stakes, Cut: "my cut", IdempotencyKey: key})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return sn
}

// commitment asks for the player's shuffle commitment, as a client does
// before every hand.
func (f *fixture) commitment(t *testing.T, user ids.UserID) string {
	t.Helper()
	pc, err := f.svc.Commit(ctx, user)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return cards.FormatCommitment(pc.Commitment)
}

// startWith starts a hand with req, first asking for a commitment when req
// has none (the two-step flow every hand now takes).
func (f *fixture) startWith(t *testing.T, req holdem.StartRequest) (holdem.Snapshot, error) {
	t.Helper()
	if req.Commitment == "" {
		req.Commitment = f.commitment(t, req.UserID)
	}
	if req.Cut == "" {
		req.Cut = "a test cut"
	}
	return f.svc.Start(ctx, req)
}

func (f *fixture) decide(t *testing.T, hand int64, box int, d holdem.Decision, key string) holdem.Snapshot {
	t.Helper()
	sn, err := f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: hand, Box: box, Decision: d, IdempotencyKey: key})
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	return sn
}

func outcome(o holdem.Outcome, bonusPays bool) func(holdem.Settlement) bool {
	return func(s holdem.Settlement) bool {
		b := s.Boxes[0]
		return b.Outcome == o && (b.BonusReturn > 0) == bonusPays
	}
}

func TestServiceCallOutcomes(t *testing.T) {
	// The player's wallet change for an Ante of 100 KZT called (Bet 200),
	// computed from the rules, not from the settlement.
	tests := []struct {
		outcome holdem.Outcome
		net     func(holdem.BoxResult) money.Amount
	}{
		{holdem.OutcomeDealerNotQualified, func(b holdem.BoxResult) money.Amount { return ante * money.Amount(anteTable.Odds(b.Hand.Category)) }},
		{holdem.OutcomeWin, func(b holdem.BoxResult) money.Amount {
			return ante*money.Amount(anteTable.Odds(b.Hand.Category)) + 2*ante
		}},
		{holdem.OutcomeLose, func(holdem.BoxResult) money.Amount { return -3 * ante }},
		{holdem.OutcomeStay, func(holdem.BoxResult) money.Amount { return 0 }},
	}
	for _, tc := range tests {
		t.Run(string(tc.outcome), func(t *testing.T) {
			f := newFixture(t)
			f.deposit(t, player, 1000*money.KZT)
			f.useSeed(seedFor(t, "my cut", oneBox, call, outcome(tc.outcome, false)))
			sn := f.start(t, "start", oneBox)
			f.wantMoney(t, player, 900*money.KZT, 100*money.KZT)
			if sn.View.Phase != holdem.Deciding || sn.ServerSeed != nil || len(sn.View.Board) != 3 || sn.View.Dealer != nil {
				t.Fatalf("started hand shows too much: %+v", sn)
			}
			sn = f.decide(t, sn.ID, 0, holdem.Call, "d1")
			if sn.View.Phase != holdem.Settled || sn.View.Settlement == nil {
				t.Fatalf("hand not settled: %+v", sn.View)
			}
			b := sn.View.Settlement.Boxes[0]
			if b.Outcome != tc.outcome {
				t.Fatalf("outcome %s, want %s", b.Outcome, tc.outcome)
			}
			net := tc.net(b)
			f.wantMoney(t, player, 1000*money.KZT+net, -net)
			if sn.Staked != 3*ante || sn.Returned != 3*ante+net {
				t.Errorf("staked %s returned %s, want %s and %s", sn.Staked, sn.Returned, 3*ante, 3*ante+net)
			}
		})
	}
}

func TestServiceFold(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	f.useSeed(seedFor(t, "my cut", withBonus, fold, outcome(holdem.OutcomeFold, false)))
	sn := f.start(t, "start", withBonus)
	f.wantMoney(t, player, 850*money.KZT, 150*money.KZT)
	sn = f.decide(t, sn.ID, 0, holdem.Fold, "d1")
	b := sn.View.Settlement.Boxes[0]
	if b.Outcome != holdem.OutcomeFold || b.Returned() != 0 || b.TimedOut {
		t.Fatalf("box = %+v", b)
	}
	f.wantMoney(t, player, 850*money.KZT, 150*money.KZT)
}

func TestServiceBonusPaidAfterFold(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	f.useSeed(seedFor(t, "my cut", withBonus, fold, outcome(holdem.OutcomeFold, true)))
	sn := f.start(t, "start", withBonus)
	sn = f.decide(t, sn.ID, 0, holdem.Fold, "d1")
	b := sn.View.Settlement.Boxes[0]
	odds := holdem.DefaultConfig().BonusOdds(b.BonusHand.Value)
	if odds < 7 || b.BonusReturn != bonus*money.Amount(1+odds) {
		t.Fatalf("bonus return %s on %s (odds %d)", b.BonusReturn, b.BonusHand.Description, odds)
	}
	net := -ante + bonus*money.Amount(odds)
	f.wantMoney(t, player, 1000*money.KZT+net, -net)
}

func TestServiceTwoBoxes(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	stakes := []holdem.Stake{{Ante: ante, Bonus: bonus}, {Ante: 2 * ante}}
	f.useSeed(seedFor(t, "my cut", stakes, []holdem.Decision{holdem.Call, holdem.Fold}, func(s holdem.Settlement) bool {
		return s.Boxes[0].Outcome == holdem.OutcomeWin
	}))
	sn := f.start(t, "start", stakes)
	f.wantMoney(t, player, 650*money.KZT, 350*money.KZT)
	if v := sn.View; v.Turn != 0 || !v.Boxes[0].Visible || v.Boxes[1].Visible || v.Boxes[1].Pocket != nil {
		t.Fatalf("before box 1 decides: %+v", v)
	}
	_, err := f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: sn.ID, Box: 1, Decision: holdem.Fold, IdempotencyKey: "early"})
	errstest.Is(t, err, errs.Conflict, "OUT_OF_TURN")

	f.advance(10 * time.Second)
	sn = f.decide(t, sn.ID, 0, holdem.Call, "d1")
	f.wantMoney(t, player, 450*money.KZT, 550*money.KZT)
	if v := sn.View; v.Turn != 1 || !v.Boxes[1].Visible || len(v.Boxes[1].Pocket) != 2 || v.Dealer != nil || !v.Deadline.Equal(t0.Add(40*time.Second)) {
		t.Fatalf("after box 1 decides: %+v", v)
	}
	sn = f.decide(t, sn.ID, 1, holdem.Fold, "d2")
	s := sn.View.Settlement
	b0, b1 := s.Boxes[0], s.Boxes[1]
	if b0.Outcome != holdem.OutcomeWin || b1.Outcome != holdem.OutcomeFold {
		t.Fatalf("outcomes %s %s", b0.Outcome, b1.Outcome)
	}
	won := ante*money.Amount(1+anteTable.Odds(b0.Hand.Category)) + 4*ante + b0.BonusReturn
	f.wantMoney(t, player, 450*money.KZT+won, 550*money.KZT-won)
}

func TestServiceTimeout(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	stakes := []holdem.Stake{{Ante: ante}, {Ante: ante, Bonus: bonus}}
	f.useSeed(seedFor(t, "my cut", stakes, []holdem.Decision{holdem.Call, holdem.Fold}, func(s holdem.Settlement) bool {
		return s.Boxes[0].Outcome == holdem.OutcomeLose && s.Boxes[1].BonusReturn > 0
	}))
	sn := f.start(t, "start", stakes)
	f.advance(20 * time.Second)
	f.decide(t, sn.ID, 0, holdem.Call, "d1")
	// The second box has its own 30 seconds from the first decision.
	f.advance(29 * time.Second)
	if n, err := f.svc.ExpireDue(ctx); err != nil || n != 0 {
		t.Fatalf("ExpireDue before the deadline = %d, %v", n, err)
	}
	f.advance(time.Second)
	if n, err := f.svc.ExpireDue(ctx); err != nil || n != 1 {
		t.Fatalf("ExpireDue at the deadline = %d, %v", n, err)
	}
	got, err := f.svc.Hand(ctx, player, sn.ID)
	if err != nil {
		t.Fatal(err)
	}
	b1 := got.View.Settlement.Boxes[1]
	if got.View.Phase != holdem.Settled || b1.Decision != holdem.Fold || !b1.TimedOut || b1.BonusReturn == 0 {
		t.Fatalf("after the timeout: %+v", b1)
	}
	// Lost ante+bet on box 1, ante on box 2; the bonus on box 2 still pays.
	net := -3*ante - ante + b1.BonusReturn - bonus
	f.wantMoney(t, player, 1000*money.KZT+net, -net)
	if n, _ := f.svc.ExpireDue(ctx); n != 0 {
		t.Errorf("a settled hand expired again")
	}
}

func TestServiceLateDecisionFolds(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	sn := f.start(t, "start", oneBox)
	f.advance(30 * time.Second)
	_, err := f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: sn.ID, Box: 0, Decision: holdem.Call, IdempotencyKey: "late"})
	errstest.Is(t, err, errs.Conflict, "DECISION_TIMED_OUT")
	got, err := f.svc.Hand(ctx, player, sn.ID)
	if err != nil {
		t.Fatal(err)
	}
	if b := got.View.Settlement.Boxes[0]; !b.TimedOut || b.Outcome != holdem.OutcomeFold {
		t.Fatalf("box = %+v", b)
	}
	f.wantMoney(t, player, 900*money.KZT, 100*money.KZT)
}

func TestServiceConcurrentExpirySettlesOnce(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	f.useSeed(seedFor(t, "my cut", withBonus, fold, outcome(holdem.OutcomeFold, true)))
	sn := f.start(t, "start", withBonus)
	f.advance(time.Minute)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for range 8 {
		wg.Go(func() {
			ok, err := f.svc.Expire(ctx, sn.ID)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				done++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if done != 1 {
		t.Fatalf("%d expiries settled the hand, want 1", done)
	}
	got, _ := f.svc.Hand(ctx, player, sn.ID)
	net := got.Returned - got.Staked
	f.wantMoney(t, player, 1000*money.KZT+net, -net)
}

func TestServiceInsufficientFunds(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 149*money.KZT)
	_, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: withBonus, IdempotencyKey: "k1"})
	errstest.Is(t, err, errs.Conflict, "INSUFFICIENT_FUNDS")
	f.wantMoney(t, player, 149*money.KZT, 0)
	if p, _ := f.svc.Hands(ctx, player, "", 0); len(p.Items) != 0 {
		t.Fatalf("a hand was stored: %+v", p.Items)
	}

	// The Ante is affordable, the Bet is not: the call fails and nothing
	// changes; a fold is still possible.
	sn := f.start(t, "k1", oneBox)
	_, err = f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: sn.ID, Box: 0, Decision: holdem.Call, IdempotencyKey: "c"})
	errstest.Is(t, err, errs.Conflict, "INSUFFICIENT_FUNDS")
	f.wantMoney(t, player, 49*money.KZT, 100*money.KZT)
	got, _ := f.svc.Hand(ctx, player, sn.ID)
	if got.View.Phase != holdem.Deciding || got.View.Boxes[0].Decision != holdem.Undecided {
		t.Fatalf("the failed call changed the hand: %+v", got.View)
	}
	// After a deposit the same request may succeed.
	f.deposit(t, player, 151*money.KZT)
	sn = f.decide(t, sn.ID, 0, holdem.Call, "c")
	if sn.View.Phase != holdem.Settled {
		t.Fatal("not settled")
	}
}

func TestServiceMayNotStake(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	f.blocked[player] = errs.R(errs.Forbidden, "NOT_VERIFIED", "verify your age before you bet")
	_, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: oneBox, IdempotencyKey: "k"})
	errstest.Is(t, err, errs.Forbidden, "NOT_VERIFIED")
	f.wantMoney(t, player, 1000*money.KZT, 0)
}

func TestServiceInvalidRequests(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	tests := []struct {
		name   string
		req    holdem.StartRequest
		reason string
	}{
		{"no key", holdem.StartRequest{Stakes: oneBox}, "INVALID_IDEMPOTENCY_KEY"},
		{"no box", holdem.StartRequest{IdempotencyKey: "k"}, "BOX_COUNT"},
		{"three boxes", holdem.StartRequest{Stakes: []holdem.Stake{{Ante: ante}, {Ante: ante}, {Ante: ante}}, IdempotencyKey: "k"}, "BOX_COUNT"},
		{"small ante", holdem.StartRequest{Stakes: []holdem.Stake{{Ante: ante - 1}}, IdempotencyKey: "k"}, "ANTE_OUT_OF_RANGE"},
		{"big bonus", holdem.StartRequest{Stakes: []holdem.Stake{{Ante: ante, Bonus: 25_000*money.KZT + 1}}, IdempotencyKey: "k"}, "BONUS_OUT_OF_RANGE"},
		{"long cut", holdem.StartRequest{Stakes: oneBox, Cut: string(make([]byte, 257)), IdempotencyKey: "k"}, "INVALID_CUT"},
		{"bad commitment", holdem.StartRequest{Stakes: oneBox, Commitment: "abc", IdempotencyKey: "k"}, "INVALID_COMMITMENT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.UserID = player
			_, err := f.startWith(t, tc.req)
			errstest.Is(t, err, errs.Invalid, tc.reason)
		})
	}
	// An empty or blank cut would let the house's seed alone fix the deck,
	// and a constant one ("a", "0000", "abab") is the same for many
	// players, so a seed could be ground against it: refused, nothing moves.
	for cut, reason := range map[string]string{"": "CUT_REQUIRED", "  \t ": "CUT_REQUIRED", "a": "WEAK_CUT", "0000": "WEAK_CUT", " abab ": "WEAK_CUT", "ab ": "WEAK_CUT"} {
		_, err := f.svc.Start(ctx, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: cut, IdempotencyKey: "k", Commitment: f.commitment(t, player)})
		errstest.Is(t, err, errs.Invalid, reason)
	}
	f.wantMoney(t, player, 1000*money.KZT, 0)
	if _, err := f.svc.Start(ctx, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "abc1", IdempotencyKey: "k", Commitment: f.commitment(t, player)}); err != nil {
		t.Errorf("a cut of four characters, three different: %v", err)
	}
}

func TestServiceStartIsIdempotent(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		ids  []int64
		same = f.commitment(t, player)
	)
	for range 8 {
		wg.Go(func() {
			sn, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: withBonus, Cut: "cut c", IdempotencyKey: "same", Commitment: same})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			ids = append(ids, sn.ID)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(ids)
	if len(slices.Compact(slices.Clone(ids))) != 1 {
		t.Fatalf("retries started hands %v", ids)
	}
	f.wantMoney(t, player, 850*money.KZT, 150*money.KZT)
	_, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "cut c", IdempotencyKey: "same"})
	errstest.Is(t, err, errs.Conflict, ledger.ReasonKeyReused)
	// Keys belong to one player: another may use the same one.
	f.deposit(t, player+1, 1000*money.KZT)
	other, err := f.startWith(t, holdem.StartRequest{UserID: player + 1, Stakes: oneBox, IdempotencyKey: "same"})
	if err != nil || other.ID == ids[0] {
		t.Fatalf("another player's start = %v, %v", other.ID, err)
	}
}

func TestServiceDecideIsIdempotent(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	stakes := []holdem.Stake{{Ante: ante}, {Ante: ante}}
	sn := f.start(t, "start", stakes)
	first := f.decide(t, sn.ID, 0, holdem.Call, "d1")
	again := f.decide(t, sn.ID, 0, holdem.Call, "d1")
	if again.View.Turn != 1 || first.View.Turn != 1 {
		t.Fatalf("turns %d %d", first.View.Turn, again.View.Turn)
	}
	f.wantMoney(t, player, 600*money.KZT, 400*money.KZT)
	_, err := f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: sn.ID, Box: 0, Decision: holdem.Fold, IdempotencyKey: "d1"})
	errstest.Is(t, err, errs.Conflict, ledger.ReasonKeyReused)
	_, err = f.svc.Decide(ctx, holdem.DecideRequest{UserID: player, HandID: sn.ID, Box: 0, Decision: holdem.Fold, IdempotencyKey: "d9"})
	errstest.Is(t, err, errs.Conflict, "ALREADY_DECIDED")
	final := f.decide(t, sn.ID, 1, holdem.Fold, "d2")
	retry := f.decide(t, sn.ID, 1, holdem.Fold, "d2")
	if final.View.Phase != holdem.Settled || retry.View.Phase != holdem.Settled || retry.Returned != final.Returned {
		t.Fatalf("retry of the last decision: %+v", retry)
	}
	net := final.Returned - final.Staked
	f.wantMoney(t, player, 1000*money.KZT+net, -net)
	// Someone else's hand does not exist for this player.
	_, err = f.svc.Decide(ctx, holdem.DecideRequest{UserID: player + 1, HandID: sn.ID, Box: 1, Decision: holdem.Fold, IdempotencyKey: "x"})
	errstest.Code(t, err, errs.NotFound)
	_, err = f.svc.Hand(ctx, player+1, sn.ID)
	errstest.Code(t, err, errs.NotFound)
}

func TestServiceCommitmentFlowIsVerifiable(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	var seed cards.Seed
	seed[0] = 42
	f.useSeed(seed)
	pc, err := f.svc.Commit(ctx, player)
	if err != nil {
		t.Fatal(err)
	}
	f.useSeed(cards.Seed{9})
	if again, _ := f.svc.Commit(ctx, player); again.Commitment != pc.Commitment {
		t.Fatal("a second Commit drew another seed before the first was used")
	}
	hexc := cards.FormatCommitment(pc.Commitment)
	sn, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "lucky", Commitment: hexc, IdempotencyKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if sn.Commitment != pc.Commitment || sn.ServerSeed != nil {
		t.Fatalf("hand commitment %x, seed shown %v", sn.Commitment, sn.ServerSeed != nil)
	}
	// Retrying the start is idempotent even though the pending seed is used.
	if again, err := f.startWith(t, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "lucky", Commitment: hexc, IdempotencyKey: "k"}); err != nil || again.ID != sn.ID {
		t.Fatalf("retry = %v, %v", again.ID, err)
	}
	_, err = f.startWith(t, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "lucky", Commitment: hexc, IdempotencyKey: "k2"})
	errstest.Is(t, err, errs.Conflict, "UNKNOWN_COMMITMENT")

	sn = f.decide(t, sn.ID, 0, holdem.Call, "d")
	if sn.ServerSeed == nil || *sn.ServerSeed != seed {
		t.Fatal("the settled hand does not reveal its seed")
	}
	// What a player does to verify the hand.
	deck, err := cards.Verify(*sn.ServerSeed, sn.Commitment, sn.PublicSeed())
	if err != nil {
		t.Fatal(err)
	}
	d := cards.DealHoldem(deck, 1)
	v := sn.View
	if !slices.Equal(v.Boxes[0].Pocket, d.Boxes[0][:]) || !slices.Equal(v.Dealer, d.Dealer[:]) || !slices.Equal(v.Board, func() []cards.Card { b := d.Board(); return b[:] }()) {
		t.Fatalf("the revealed seed does not reproduce the cards: %v %v %v vs %v", v.Boxes[0].Pocket, v.Dealer, v.Board, d)
	}
	if next, _ := f.svc.Commit(ctx, player); next.Commitment == pc.Commitment {
		t.Fatal("the used seed is still pending")
	}
}

func TestServiceHandsPaged(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 10_000*money.KZT)
	var ids []int64
	for i := range 5 {
		ids = append(ids, f.start(t, "k"+string(rune('a'+i)), oneBox).ID)
	}
	var got []int64
	after := ""
	for {
		p, err := f.svc.Hands(ctx, player, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, sn := range p.Items {
			got = append(got, sn.ID)
		}
		if p.Next == "" {
			break
		}
		after = p.Next
	}
	slices.Reverse(ids)
	if !slices.Equal(got, ids) {
		t.Fatalf("pages gave %v, want %v", got, ids)
	}
	// Backward from the end (the oldest hands), two at a time: the same
	// hands, each page newest first.
	var back []int64
	before := ""
	for {
		p, err := f.svc.HandsBefore(ctx, player, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		var page []int64
		for _, sn := range p.Items {
			page = append(page, sn.ID)
		}
		back = append(page, back...)
		if p.Next == "" {
			break
		}
		before = p.Next
	}
	if !slices.Equal(back, ids) {
		t.Fatalf("backward pages gave %v, want %v", back, ids)
	}
	_, err := f.svc.HandsBefore(ctx, player, "nonsense", 2)
	errstest.Is(t, err, errs.Invalid, "INVALID_CURSOR")
	_, err = f.svc.Hands(ctx, player, "nonsense", 2)
	errstest.Is(t, err, errs.Invalid, "INVALID_CURSOR")
	if p, _ := f.svc.Hands(ctx, player+1, "", 0); len(p.Items) != 0 {
		t.Fatal("another player sees these hands")
	}
}

func TestServicePublishesAfterCommit(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	sn := f.start(t, "start", oneBox)
	f.decide(t, sn.ID, 0, holdem.Fold, "d")
	f.decide(t, sn.ID, 0, holdem.Fold, "d") // a replay announces nothing
	if n := f.pub.count(event.HoldemUpdated); n != 2 {
		t.Errorf("%d HOLDEM_UPDATED events, want 2", n)
	}
	if n := f.pub.count(event.BalanceChanged); n != 1 {
		t.Errorf("%d BALANCE_CHANGED events, want 1 (the stake; a fold pays nothing)", n)
	}
}

func TestRunSweeperStopsWithContext(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	sn := f.start(t, "start", oneBox)
	f.advance(time.Minute)
	c, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- f.svc.RunSweeper(c, time.Millisecond) }()
	for {
		got, err := f.svc.Hand(ctx, player, sn.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.View.Phase == holdem.Settled {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestSweepInterval(t *testing.T) {
	for _, tc := range []struct{ timeout, want time.Duration }{
		{30 * time.Second, time.Second},
		{2 * time.Second, 500 * time.Millisecond},
		{10 * time.Millisecond, 20 * time.Millisecond},
	} {
		if got := holdem.SweepInterval(tc.timeout); got != tc.want {
			t.Errorf("SweepInterval(%s) = %s, want %s", tc.timeout, got, tc.want)
		}
	}
}

// TestServiceRefusesAHandWithoutCommitment: a seed drawn after the cut is
// known would let the house choose the deal, so every hand starts from a
// seed committed before the cut.
func TestServiceRefusesAHandWithoutCommitment(t *testing.T) {
	f := newFixture(t)
	f.deposit(t, player, 1000*money.KZT)
	_, err := f.svc.Start(ctx, holdem.StartRequest{UserID: player, Stakes: oneBox, Cut: "my cut", IdempotencyKey: "k"})
	errstest.Is(t, err, errs.Invalid, "COMMITMENT_REQUIRED")
	f.wantMoney(t, player, 1000*money.KZT, 0)
	if p, _ := f.svc.Hands(ctx, player, "", 0); len(p.Items) != 0 {
		t.Fatalf("a hand was stored: %+v", p.Items)
	}
}
