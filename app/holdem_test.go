package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/internal/gqltest"
)

var (
	anteOdds  = holdem.DefaultAntePaytable()
	bonusOdds = holdem.DefaultBonusPaytable()
)

func odds(t *testing.T, p holdem.Paytable, h *apiHandInfo) money.Amount {
	t.Helper()
	c, err := hand.ParseCategory(h.Category)
	if err != nil {
		t.Fatal(err)
	}
	return money.Amount(p.Odds(c))
}

// TestHoldemOverGraphQL plays every branch of Casino Hold'em through the
// API, on SQLite and on Postgres + Redis, checking the player's wallet and
// the house bank to the tiyn after each step and verifying each settled
// hand from its revealed seed.
func TestHoldemOverGraphQL(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			w := newHoldemWorld(t, b, nil)
			t.Run("settings", func(t *testing.T) { testHoldemSettings(t, w) })
			t.Run("outcomes", func(t *testing.T) { testHoldemOutcomes(t, w) })
			t.Run("two boxes", func(t *testing.T) { testHoldemTwoBoxes(t, w) })
			t.Run("insufficient funds", func(t *testing.T) { testHoldemInsufficientFunds(t, w) })
			t.Run("who may play", func(t *testing.T) { testHoldemWhoMayPlay(t, w) })
			t.Run("idempotent start", func(t *testing.T) { testHoldemIdempotentStart(t, w) })
			t.Run("idempotent decide", func(t *testing.T) { testHoldemIdempotentDecide(t, w) })
			t.Run("history", func(t *testing.T) { testHoldemHistory(t, w) })
		})
	}
}

func testHoldemSettings(t *testing.T, w *holdemWorld) {
	var out struct {
		HoldemSettings struct {
			MinAnte, MaxAnte, MaxBonus  string
			DecisionSeconds             int
			AntePaytable, BonusPaytable []struct {
				Category string
				Odds     int
			}
		}
	}
	w.c.MustDo(t, `{ holdemSettings { minAnte maxAnte maxBonus decisionSeconds antePaytable { category odds } bonusPaytable { category odds } } }`, nil, &out)
	s := out.HoldemSettings
	if s.MinAnte != "100.00" || s.MaxAnte != "100000.00" || s.MaxBonus != "25000.00" || s.DecisionSeconds != 30 {
		t.Fatalf("settings = %+v", s)
	}
	if len(s.AntePaytable) != 10 || s.AntePaytable[0].Category != "ROYAL_FLUSH" || s.AntePaytable[0].Odds != 100 {
		t.Errorf("ante paytable = %+v", s.AntePaytable)
	}
	// The bonus pays from a pair (of aces) up: nine lines.
	if len(s.BonusPaytable) != 9 || s.BonusPaytable[8].Category != "PAIR" || s.BonusPaytable[8].Odds != 7 {
		t.Errorf("bonus paytable = %+v", s.BonusPaytable)
	}
}

func testHoldemOutcomes(t *testing.T, w *holdemWorld) {
	withBonus := []boxIn{{"100.00", "50.00"}}
	noBonus := []boxIn{{"100.00", ""}}
	const ante, bonus = 100 * money.KZT, 50 * money.KZT
	tests := []struct {
		name      string
		boxes     []boxIn
		decision  holdem.Decision
		outcome   holdem.Outcome
		bonusPays bool
		// net is the wallet's change, from the rules and the box's hands.
		net func(b apiBox) money.Amount
	}{
		{"fold", withBonus, holdem.Fold, holdem.OutcomeFold, false,
			func(apiBox) money.Amount { return -ante - bonus }},
		{"bonus paid after a fold", withBonus, holdem.Fold, holdem.OutcomeFold, true,
			func(b apiBox) money.Amount { return -ante + bonus*odds(t, bonusOdds, b.BonusHand) }},
		{"dealer not qualified", noBonus, holdem.Call, holdem.OutcomeDealerNotQualified, false,
			func(b apiBox) money.Amount { return ante * odds(t, anteOdds, b.Hand) }},
		{"win", noBonus, holdem.Call, holdem.OutcomeWin, false,
			func(b apiBox) money.Amount { return ante*odds(t, anteOdds, b.Hand) + 2*ante }},
		{"lose", withBonus, holdem.Call, holdem.OutcomeLose, false,
			func(apiBox) money.Amount { return -3*ante - bonus }},
		{"stay", noBonus, holdem.Call, holdem.OutcomeStay, false,
			func(apiBox) money.Amount { return 0 }},
	}
	p := newPlayer(t, w.c, "10000.00")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := w.snapshot(t, p)
			h := w.forcedStart(t, p, tc.boxes, []holdem.Decision{tc.decision}, func(s holdem.Settlement) bool {
				b := s.Boxes[0]
				return b.Outcome == tc.outcome && (b.BonusReturn > 0) == tc.bonusPays
			})
			staked := amount(t, tc.boxes[0].ante)
			if tc.boxes[0].bonus != "" {
				staked += amount(t, tc.boxes[0].bonus)
			}
			w.wantMoved(t, p, before, -staked)
			if h.Phase != "DECIDING" || *h.Turn != 1 || len(h.Board) != 3 || len(h.DealerCards) != 0 || h.DealerHand != nil ||
				len(h.Boxes[0].Cards) != 2 || h.Boxes[0].Outcome != nil || h.TotalReturn != nil || h.DecisionDeadline == nil {
				t.Fatalf("a deciding hand shows %+v", h)
			}
			h = decide(t, p, h.ID, 1, string(tc.decision), unique("decide"))
			b := h.Boxes[0]
			if h.Phase != "SETTLED" || *b.Outcome != string(tc.outcome) || len(h.Board) != 5 || len(h.DealerCards) != 2 || h.DealerHand == nil || h.Turn != nil {
				t.Fatalf("settled hand %+v", h)
			}
			if tc.decision == holdem.Call && (tc.outcome == holdem.OutcomeDealerNotQualified) == *h.DealerQualifies {
				t.Errorf("dealerQualifies %v with outcome %s", *h.DealerQualifies, tc.outcome)
			}
			net := tc.net(b)
			w.wantMoved(t, p, before, net)
			if amount(t, *h.Net) != net {
				t.Errorf("net %s, want %s", *h.Net, net)
			}
			verifyHand(t, h)
		})
	}
}

func testHoldemTwoBoxes(t *testing.T, w *holdemWorld) {
	p := newPlayer(t, w.c, "1000.00")
	before := w.snapshot(t, p)
	boxes := []boxIn{{"100.00", "50.00"}, {"200.00", ""}}
	h := w.forcedStart(t, p, boxes, []holdem.Decision{holdem.Call, holdem.Fold}, func(s holdem.Settlement) bool {
		return s.Boxes[0].Outcome == holdem.OutcomeWin
	})
	w.wantMoved(t, p, before, -350*money.KZT)
	if *h.Turn != 1 || len(h.Boxes) != 2 || len(h.Boxes[0].Cards) != 2 || len(h.Boxes[1].Cards) != 0 {
		t.Fatalf("box 2 must be hidden until box 1 decides: %+v", h.Boxes)
	}
	if again := getHand(t, p, h.ID); len(again.Boxes[1].Cards) != 0 {
		t.Fatal("holdemHand shows box 2 early")
	}
	p.Client.MustFail(t, "CONFLICT", "OUT_OF_TURN", decideMutation, decideVars(h.ID, 2, "FOLD", "early"))
	p.Client.MustFail(t, "BAD_USER_INPUT", "NO_SUCH_BOX", decideMutation, decideVars(h.ID, 3, "FOLD", "nonsense"))

	h = decide(t, p, h.ID, 1, "CALL", "box-1")
	w.wantMoved(t, p, before, -550*money.KZT)
	if h.Phase != "DECIDING" || *h.Turn != 2 || len(h.Boxes[1].Cards) != 2 || len(h.DealerCards) != 0 || len(h.Board) != 3 || h.Boxes[0].Bet != "200.00" {
		t.Fatalf("after box 1 calls: %+v", h)
	}
	h = decide(t, p, h.ID, 2, "FOLD", "box-2")
	b1, b2 := h.Boxes[0], h.Boxes[1]
	if *b1.Outcome != "WIN" || *b2.Outcome != "FOLD" || b2.Bet != "0.00" {
		t.Fatalf("outcomes %s %s", *b1.Outcome, *b2.Outcome)
	}
	won := 100*money.KZT*(1+odds(t, anteOdds, b1.Hand)) + 400*money.KZT + amount(t, *b1.BonusReturn)
	w.wantMoved(t, p, before, -550*money.KZT+won)
	verifyHand(t, h)
}

func testHoldemInsufficientFunds(t *testing.T, w *holdemWorld) {
	p := newPlayer(t, w.c, "149.00")
	before := w.snapshot(t, p)
	p.Client.MustFail(t, "BAD_USER_INPUT", "COMMITMENT_REQUIRED", startMutation, startInput([]boxIn{{"100.00", "50.00"}}, "", "", "k1"))
	p.Client.MustFail(t, "CONFLICT", "INSUFFICIENT_FUNDS", startMutation, withCommit(t, p, startInput([]boxIn{{"100.00", "50.00"}}, "", "", "k1")))
	w.wantMoved(t, p, before, 0)
	var page struct {
		HoldemHands struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	p.Client.MustDo(t, `{ holdemHands { edges { node { id } } } }`, nil, &page)
	if len(page.HoldemHands.Edges) != 0 {
		t.Fatalf("a refused start left a hand: %+v", page)
	}
	// The Ante is affordable, the Bet is not: the call is refused and
	// nothing changes; the box can still fold.
	h := start(t, p, startInput([]boxIn{{"100.00", ""}}, "", "", "k1"))
	w.wantMoved(t, p, before, -100*money.KZT)
	p.Client.MustFail(t, "CONFLICT", "INSUFFICIENT_FUNDS", decideMutation, decideVars(h.ID, 1, "CALL", "call"))
	w.wantMoved(t, p, before, -100*money.KZT)
	if got := getHand(t, p, h.ID); got.Phase != "DECIDING" || got.Boxes[0].Decision != nil {
		t.Fatalf("the refused call changed the hand: %+v", got)
	}
	h = decide(t, p, h.ID, 1, "FOLD", "fold")
	if h.Phase != "SETTLED" {
		t.Fatal("not settled")
	}
	w.wantMoved(t, p, before, -100*money.KZT+amount(t, *h.TotalReturn))
	verifyHand(t, h)
}

func testHoldemWhoMayPlay(t *testing.T, w *holdemWorld) {
	in := startInput([]boxIn{{"100.00", ""}}, "", "", "k")
	w.c.MustFail(t, "UNAUTHENTICATED", "", startMutation, in)
	w.c.MustFail(t, "UNAUTHENTICATED", "", `{ holdemHands { edges { node { id } } } }`, nil)

	var reg struct{ Register struct{ AccessToken string } }
	w.c.MustDo(t, `mutation($in: RegisterInput!) { register(input: $in) { accessToken } }`, map[string]any{"in": map[string]any{
		"email": unique("unverified") + "@example.kz", "password": "player password 1", "name": "Unverified", "dateOfBirth": "1990-05-17",
		"acceptedTerms": account.DefaultTermsVersion,
	}}, &reg)
	unverified := w.c.WithToken(reg.Register.AccessToken)
	unverified.MustFail(t, "FORBIDDEN", "NOT_VERIFIED", startMutation, in)

	p := newPlayer(t, w.c, "1000.00")
	before := w.snapshot(t, p)
	p.Client.MustFail(t, "BAD_USER_INPUT", "ANTE_OUT_OF_RANGE", startMutation, startInput([]boxIn{{"99.99", ""}}, "", "", "k"))
	p.Client.MustFail(t, "BAD_USER_INPUT", "BOX_COUNT", startMutation, startInput([]boxIn{{"100.00", ""}, {"100.00", ""}, {"100.00", ""}}, "", "", "k"))
	p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_AMOUNT", startMutation, startInput([]boxIn{{"100.001", ""}}, "", "", "k"))
	p.Client.MustFail(t, "CONFLICT", "UNKNOWN_COMMITMENT", startMutation, startInput([]boxIn{{"100.00", ""}}, "", fmt.Sprintf("%064x", 1), "k"))
	w.wantMoved(t, p, before, 0)
}

func testHoldemIdempotentStart(t *testing.T, w *holdemWorld) {
	p := newPlayer(t, w.c, "1000.00")
	before := w.snapshot(t, p)
	in := startInput([]boxIn{{"100.00", "25.00"}}, "my cut", "", "retry-me")
	first := start(t, p, in)
	again := start(t, p, in)
	if first.ID != again.ID || first.Shuffle.Commitment != again.Shuffle.Commitment {
		t.Fatalf("a retry started another hand: %s, %s", first.ID, again.ID)
	}
	w.wantMoved(t, p, before, -125*money.KZT)
	p.Client.MustFail(t, "CONFLICT", "IDEMPOTENCY_KEY_REUSED", startMutation, startInput([]boxIn{{"200.00", ""}}, "my cut", "", "retry-me"))

	// Concurrent retries (a client that timed out and tried again at once).
	burst := withCommit(t, p, startInput([]boxIn{{"100.00", ""}}, "", "", "burst"))
	ids := make(chan string, 10)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			res, err := p.Client.Do(context.Background(), startMutation, burst)
			if err != nil || len(res.Errors) > 0 {
				t.Errorf("retry: %v %+v", err, res.Errors)
				return
			}
			var out struct{ HoldemStart apiHand }
			if err := json.Unmarshal(res.Data, &out); err != nil {
				t.Error(err)
				return
			}
			ids <- out.HoldemStart.ID
		})
	}
	wg.Wait()
	close(ids)
	var got []string
	for id := range ids {
		got = append(got, id)
	}
	if slices.Sort(got); len(slices.Compact(got)) != 1 {
		t.Fatalf("10 retries started hands %v", got)
	}
	w.wantMoved(t, p, before, -225*money.KZT)
}

func testHoldemIdempotentDecide(t *testing.T, w *holdemWorld) {
	p := newPlayer(t, w.c, "1000.00")
	before := w.snapshot(t, p)
	h := start(t, p, startInput([]boxIn{{"100.00", ""}, {"100.00", ""}}, "", "", "k"))
	one := decide(t, p, h.ID, 1, "CALL", "call-1")
	two := decide(t, p, h.ID, 1, "CALL", "call-1")
	if *one.Turn != 2 || *two.Turn != 2 {
		t.Fatal("the retried decision moved the turn")
	}
	w.wantMoved(t, p, before, -400*money.KZT)
	p.Client.MustFail(t, "CONFLICT", "IDEMPOTENCY_KEY_REUSED", decideMutation, decideVars(h.ID, 1, "FOLD", "call-1"))
	p.Client.MustFail(t, "CONFLICT", "ALREADY_DECIDED", decideMutation, decideVars(h.ID, 1, "FOLD", "other"))
	last := decide(t, p, h.ID, 2, "CALL", "call-2")
	retry := decide(t, p, h.ID, 2, "CALL", "call-2")
	if last.Phase != "SETTLED" || retry.Phase != "SETTLED" || *retry.Net != *last.Net {
		t.Fatalf("retry of the settling decision: %+v", retry)
	}
	w.wantMoved(t, p, before, amount(t, *last.Net))
	p.Client.MustFail(t, "CONFLICT", "HAND_SETTLED", decideMutation, decideVars(h.ID, 2, "CALL", "late"))
	verifyHand(t, last)
}

func testHoldemHistory(t *testing.T, w *holdemWorld) {
	p := newPlayer(t, w.c, "1000.00")
	var ids []string
	for i := range 3 {
		ids = append(ids, start(t, p, startInput([]boxIn{{"100.00", ""}}, "", "", fmt.Sprint("h", i))).ID)
	}
	slices.Reverse(ids)
	type page struct {
		HoldemHands struct {
			Edges    []struct{ Node apiHand }
			PageInfo struct {
				HasNextPage bool
				EndCursor   *string
			}
		}
	}
	var got []string
	var after any
	for {
		var out page
		p.Client.MustDo(t, `query($a: String) { holdemHands(first: 2, after: $a) { edges { node { `+handFields+` } } pageInfo { hasNextPage endCursor } } }`, map[string]any{"a": after}, &out)
		for _, h := range nodes(out.HoldemHands.Edges) {
			got = append(got, h.ID)
		}
		if !out.HoldemHands.PageInfo.HasNextPage {
			break
		}
		after = *out.HoldemHands.PageInfo.EndCursor
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("history %v, want %v (newest first)", got, ids)
	}
	other := newPlayer(t, w.c, "")
	if h := getHand(t, other, ids[0]); h != nil {
		t.Fatalf("another player sees hand %s", h.ID)
	}
	other.Client.MustFail(t, "NOT_FOUND", "", decideMutation, decideVars(ids[0], 1, "FOLD", "x"))
	p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_ID", handQuery, map[string]any{"id": "abc"})
	p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_CURSOR", `{ holdemHands(after: "zzz") { edges { node { id } } } }`, nil)
}

// TestHoldemTimeoutFolds leaves a hand undecided on a server whose decision
// timeout is one second: the sweeper folds it (the Bonus still pays) and
// settles it.
func TestHoldemTimeoutFolds(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			w := newHoldemWorld(t, b, func(c *app.Config) { c.TimeScale = 30 })
			p := newPlayer(t, w.c, "1000.00")
			before := w.snapshot(t, p)
			h := w.forcedStart(t, p, []boxIn{{"100.00", "50.00"}}, nil, func(s holdem.Settlement) bool { return s.Boxes[0].BonusReturn > 0 })
			if got := h.DecisionDeadline.Sub(h.CreatedAt); got != time.Second {
				t.Fatalf("decision time %s, want 1s", got)
			}
			h = waitSettled(t, p, h.ID)
			wantTimedOut(t, h)
			// The sweeper came first; a late decision still answers as the docs promise.
			p.Client.MustFail(t, "CONFLICT", "DECISION_TIMED_OUT", decideMutation, decideVars(h.ID, 1, "CALL", "late"))
			w.wantMoved(t, p, before, -100*money.KZT+amount(t, *h.Boxes[0].BonusReturn)-50*money.KZT)
			verifyHand(t, h)
		})
	}
}

// TestHoldemTimeoutAcrossRestart starts a hand, stops the server before the
// decision is due and starts another server on the same database: the new
// one folds and settles the hand when its time runs out.
func TestHoldemTimeoutAcrossRestart(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			w := &holdemWorld{b: b, sqlitePath: t.TempDir() + "/restart.db"}
			tweak := func(c *app.Config) { c.SQLitePath, c.TimeScale = w.sqlitePath, 15 } // 2 s to decide
			c, stop := launch(t, b, tweak)
			w.c = c
			w.openRaw(t)
			p := newPlayer(t, c, "1000.00")
			before := w.snapshot(t, p)
			h := start(t, p, startInput([]boxIn{{"100.00", "50.00"}, {"100.00", ""}}, "", "", "before-restart"))
			h = decide(t, p, h.ID, 1, "CALL", "box-1")
			stop()
			var state string
			w.queryRow(t, "SELECT state FROM holdem_hands WHERE id = ?", h.ID, &state)
			if state != "DECIDING" {
				t.Fatalf("the hand was %s before the restart; the test needs it still deciding", state)
			}

			c2, stop2 := launch(t, b, tweak)
			defer stop2()
			p.Client = c2.WithToken(p.Client.Token)
			settled := waitSettled(t, p, h.ID)
			if b2 := settled.Boxes[1]; !b2.TimedOut || *b2.Decision != "FOLD" || settled.Boxes[0].TimedOut {
				t.Fatalf("after the restart: %+v", settled.Boxes)
			}
			if settled.SettledAt.Before(*h.DecisionDeadline) {
				t.Fatalf("settled at %s, before the deadline %s", settled.SettledAt, h.DecisionDeadline)
			}
			w.wantMoved(t, p, before, amount(t, *settled.Net))
			verifyHand(t, settled)
		})
	}
}

func waitSettled(t *testing.T, p player, id string) apiHand {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		h := getHand(t, p, id)
		if h.Phase == "SETTLED" {
			return *h
		}
		if time.Now().After(deadline) {
			t.Fatalf("hand %s is still %s at %s (deadline %s)", id, h.Phase, time.Now(), h.DecisionDeadline)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func wantTimedOut(t *testing.T, h apiHand) {
	t.Helper()
	for _, b := range h.Boxes {
		if !b.TimedOut || *b.Decision != "FOLD" || *b.Outcome != "FOLD" {
			t.Fatalf("box %d after the timeout: %+v", b.Index, b)
		}
	}
}

// launch runs a server the test stops itself (startServer's stops only at
// the end of the test).
func launch(t *testing.T, b backend, tweak func(*app.Config)) (*gqltest.Client, func()) {
	t.Helper()
	cfg := app.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.JWTSecret = "test secret of at least thirty-two bytes!"
	cfg.DocumentPepper = "test pepper of at least thirty-two bytes!"
	cfg.AdminEmail, cfg.AdminPassword = testAdminEmail, testAdminPassword
	cfg.DemoTables, cfg.DealerEnabled = false, false
	cfg.DatabaseURL, cfg.RedisURL, cfg.RedisPrefix = b.databaseURL, b.redisURL, b.redisPrefix
	tweak(&cfg)
	seedSQLite(t, &cfg)
	a, err := app.New(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server stopped with %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return gqltest.New(a.Addr()), stop
}
