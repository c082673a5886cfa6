package totetest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// MarketTopTwo is the worked example of a new market (docs/architecture.md,
// "Adding a market"; domain/tote/verify/market_example_test.go tells it):
// "a position finishes first or second after the river". It is not a
// production market.
const MarketTopTwo parimutuel.Market = "TOP_TWO"

// TopTwo is the whole of the market: one registry entry, whose rule is
// data of an existing kind (the positions placed within 2), so that the
// settlement, suspension and both verifiers, the Go one and the web
// client's, take it with no code of its own.
var TopTwo = parimutuel.MarketSpec{
	Name:   MarketTopTwo,
	Input:  "topTwo",
	About:  "a position finishes first or second after the river",
	Rounds: parimutuel.RoundsOf(parimutuel.RoundPreDeal, parimutuel.RoundPocket, parimutuel.RoundFlop, parimutuel.RoundTurn),
	Shape:  parimutuel.PositionShape,
	Reads:  parimutuel.ReadsHands,
	Scheme: parimutuel.SchemeSingle,
	Rule:   parimutuel.PlacedWithin(2),
}

// WithTopTwo is the registry of the production markets and TOP_TWO.
func WithTopTwo(t testing.TB) *parimutuel.Registry {
	t.Helper()
	reg, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), TopTwo)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TopTwoResult runs a ten-position draw to settlement with one flop-round
// bet on each position TOP_TWO would take (its chance below SUSPEND_AT),
// and returns its honest result (which verifies) and that result
// republished as reg settles a TOP_TWO pool of those bets (asTopTwo). The
// service takes the production markets, so the bets are placed as WIN
// bets.
func TopTwoResult(t *testing.T, reg *parimutuel.Registry) (honest, top tote.DrawResult) {
	t.Helper()
	// Ten positions: the fewest boards to walk from the pockets.
	h := NewHarness(t, MemEnv(t), 10)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "FLOP", InPhase(tote.PhaseFlop))
	rc, err := tote.ChancesAtOpeningIn(reg, d.Pockets, d.Board, parimutuel.RoundFlop, d.EffectiveSuspendAt())
	if err != nil {
		t.Fatal(err)
	}
	td := tote.Draw{SuspendAt: d.SuspendAt, Chances: []tote.RoundChances{rc}}
	placed := 0
	for p := 1; p <= 10; p++ {
		sel := strconv.Itoa(p)
		if _, sus := td.SuspendedAs(parimutuel.RoundFlop, MarketTopTwo, sel); sus {
			continue
		}
		if _, ok := h.BetIfOffered(1, d, parimutuel.MarketWin, sel, 100*money.KZT+money.Amount(37*p)); ok {
			placed++
		}
	}
	if placed < 2 {
		t.Fatalf("only %d bets placed", placed)
	}
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	honest = *d.Result
	if v := verify.Result(honest); len(v.Problems) > 0 {
		t.Fatalf("the honest result fails: %v", v.Problems)
	}
	deal, ok := d.Deal()
	if !ok {
		t.Fatal("the draw is not dealt")
	}
	top = CloneResult(t, honest)
	asTopTwo(t, reg, &top, parimutuel.OutcomeOf(deal))
	return honest, top
}

// asTopTwo republishes res's flop-round WIN pool as a TOP_TWO pool settled
// by reg (one bet per selection, so each selection's payout is its stake
// at the coefficient), the jackpot figures after it, and every round's
// chances with TOP_TWO's.
func asTopTwo(t *testing.T, reg *parimutuel.Registry, res *tote.DrawResult, o parimutuel.Outcome) {
	t.Helper()
	i := slices.IndexFunc(res.Pools, func(p tote.PoolResult) bool {
		return p.Round == parimutuel.RoundFlop && p.Market == parimutuel.MarketWin
	})
	if i < 0 {
		t.Fatal("no WIN pool in the flop round")
	}
	res.Pools[i] = topTwoPool(t, reg, res, res.Pools[i], o)
	jackpot := res.JackpotBefore
	for j := range res.Pools {
		p := &res.Pools[j]
		p.JackpotBefore = jackpot
		jackpot += p.JackpotContribution + p.Rollover - p.JackpotPaid
	}
	res.JackpotAfter = jackpot
	pockets := make([][2]cards.Card, len(res.Pockets))
	for j, p := range res.Pockets {
		cs := cards.MustParseList(p[0] + " " + p[1])
		pockets[j] = [2]cards.Card{cs[0], cs[1]}
	}
	board := cards.MustParseList(strings.Join(res.Board, " "))
	for j, rc := range res.Chances {
		n := map[parimutuel.Round]int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}[rc.Round]
		var err error
		if res.Chances[j], err = tote.ChancesAtOpeningIn(reg, pockets, board[:n], rc.Round, res.SuspendAt); err != nil {
			t.Fatal(err)
		}
	}
}

// topTwoPool is pr's bets settled by reg as a TOP_TWO pool, published.
func topTwoPool(t *testing.T, reg *parimutuel.Registry, res *tote.DrawResult, pr tote.PoolResult, o parimutuel.Outcome) tote.PoolResult {
	t.Helper()
	cfg := parimutuel.PoolConfig{Commission: res.Commission, JackpotEnabled: res.JackpotEnabled, JackpotRate: res.JackpotRate,
		ExpressShare1: res.ExpressShares[0], ExpressShare2: res.ExpressShares[1]}
	pool := parimutuel.Pool{ID: tote.PoolID(res.DrawID, pr.Round, MarketTopTwo), Market: MarketTopTwo, Round: pr.Round, Positions: res.Positions, Config: cfg}
	for _, s := range pr.Selections {
		if s.NumBets != 1 {
			t.Fatalf("selection %s has %d bets", s.Selection, s.NumBets)
		}
		sel, err := reg.ParseSelection(MarketTopTwo, s.Selection)
		if err != nil {
			t.Fatal(err)
		}
		pool.Bets = append(pool.Bets, parimutuel.PoolBet{ID: s.Selection, Player: "0", Stake: s.Stakes, Selection: sel})
	}
	st, err := reg.SettlePool(pool, o, pr.JackpotBefore)
	if err != nil {
		t.Fatal(err)
	}
	top := tote.NewPoolResultIn(reg, st, nil, pr.JackpotBefore)
	top.Bets = nil
	for j, po := range st.Payouts {
		top.Selections = append(top.Selections, tote.ResultSelection{Selection: pool.Bets[j].ID, NumBets: 1, Stakes: po.Stake,
			Payout: po.Amount, Cat2: po.Cat2, Refund: po.Refund, Guessed: po.Guessed})
	}
	return top
}

// CloneResult is a deep copy of res (through its JSON).
func CloneResult(t testing.TB, res tote.DrawResult) tote.DrawResult {
	t.Helper()
	var c tote.DrawResult
	b, err := json.Marshal(res)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}
