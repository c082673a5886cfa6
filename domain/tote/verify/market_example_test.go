package verify_test

// Adding a market, worked through: TOP_TWO, "a position finishes first or
// second after the river". The market is the one registry entry topTwo
// below (its English text is About; the web client's texts would be two
// entries of web/src/i18n.ts). Nothing else is written for it: with that
// entry its selections are read and checked, its pools settle, its rounds
// open with its chances and refuse its suspended selections, and the
// verifier recomputes its pools from a published result. It is not a
// production market: the tests build a registry of the production markets
// plus this one (the production registry cannot be extended).
//
// Ties: a position's place is one more than the number of positions with
// a strictly better hand after the river (parimutuel.Decided.Place), and
// TOP_TWO pays the positions placed first or second. So a position tied
// for second wins (one winner and three tied behind it: four winning
// selections), while two or more tied winners leave no second place (the
// next position is third). Every winning selection is paid in full at the
// pool's one coefficient, as WIN pays every tied winner: no dead-heat
// reduction.

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

const marketTopTwo parimutuel.Market = "TOP_TWO"

// topTwo is the whole of the market.
var topTwo = parimutuel.MarketSpec{
	Name:   marketTopTwo,
	Input:  "topTwo",
	About:  "a position finishes first or second after the river",
	Rounds: parimutuel.RoundsOf(parimutuel.RoundPreDeal, parimutuel.RoundPocket, parimutuel.RoundFlop, parimutuel.RoundTurn),
	Shape:  parimutuel.PositionShape,
	Reads:  parimutuel.ReadsHands,
	Scheme: parimutuel.SchemeSingle,
	Grade: func(d parimutuel.Decided, s parimutuel.Selection) parimutuel.Grade {
		p := d.Place(s.Position)
		return parimutuel.Grade{Cat1: p == 1 || p == 2}
	},
	Chances: parimutuel.ChancesOverBoards,
}

// withTopTwo is the production markets and TOP_TWO.
func withTopTwo(t *testing.T) *parimutuel.Registry {
	t.Helper()
	reg, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), topTwo)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func topTwoSel(p int) parimutuel.Selection {
	return parimutuel.Selection{Market: marketTopTwo, Position: p}
}

func TestTopTwoSelections(t *testing.T) {
	reg := withTopTwo(t)
	if got := reg.Markets(); !slices.Equal(got, []parimutuel.Market{"WIN", "COMBINATION", "EXPRESS", "TOP_TWO"}) {
		t.Fatalf("markets %v", got)
	}
	for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
		if err := reg.CheckMarketRound(marketTopTwo, r); err != nil {
			t.Errorf("round %s: %v", r, err)
		}
	}
	for _, text := range []string{"1", "2", "10"} {
		sel, err := reg.ParseSelection(marketTopTwo, text)
		if err != nil || sel.Position == 0 || reg.Format(sel) != text {
			t.Errorf("%q reads as %+v, %v", text, sel, err)
		}
	}
	for _, text := range []string{"0", "02", "11", "-1", "1-2-3", "PAIR", " 1", ""} {
		_, err := reg.ParseSelection(marketTopTwo, text)
		errstestIs(t, err, parimutuel.ReasonInvalidSelection)
	}
	errstestIs(t, reg.ValidateSelection(topTwoSel(7), 6), parimutuel.ReasonPositionOutOfRange)
	errstestIs(t, reg.ValidateSelection(parimutuel.Selection{Market: marketTopTwo, Position: 1, Combination: parimutuel.Flush}, 6), parimutuel.ReasonInvalidSelection)
	if err := reg.ValidateSelection(topTwoSel(6), 6); err != nil {
		t.Error(err)
	}
	spec, _ := reg.Lookup(marketTopTwo)
	if got := spec.Selections(4); !slices.Equal(got, []parimutuel.Selection{topTwoSel(1), topTwoSel(2), topTwoSel(3), topTwoSel(4)}) || !spec.Listed() {
		t.Errorf("selections of 4 positions: %v", got)
	}
	// Production does not know it: every entry point refuses it.
	_, err := parimutuel.ParseSelection(marketTopTwo, "1")
	errstestIs(t, err, parimutuel.ReasonUnknownMarket)
	errstestIs(t, parimutuel.CheckMarketRound(marketTopTwo, parimutuel.RoundFlop), parimutuel.ReasonUnknownMarket)
}

func errstestIs(t *testing.T, err error, reason string) {
	t.Helper()
	if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != reason {
		t.Errorf("error %v, want Invalid %s", err, reason)
	}
}

// hands builds final hands whose only meaning is their order: rank[i] is
// position i+1's strength, higher better.
func hands(rank ...int) []hand.Value {
	out := make([]hand.Value, len(rank))
	for i, r := range rank {
		out[i] = hand.Value(1000 + r)
	}
	return out
}

func TestTopTwoSettles(t *testing.T) {
	reg := withTopTwo(t)
	cfg := parimutuel.DefaultPoolConfig()
	bets := []parimutuel.PoolBet{
		{ID: "a", Player: "p1", Stake: 10000, Selection: topTwoSel(3)},
		{ID: "b", Player: "p2", Stake: 5000, Selection: topTwoSel(1)},
		{ID: "c", Player: "p3", Stake: 3333, Selection: topTwoSel(5)},
		{ID: "d", Player: "p1", Stake: 20000, Selection: topTwoSel(2)},
		{ID: "e", Player: "p4", Stake: 1777, Selection: topTwoSel(6)},
		{ID: "f", Player: "p2", Stake: 1234, Selection: topTwoSel(1)},
	}
	pool := parimutuel.Pool{ID: "9:3:TOP_TWO", Market: marketTopTwo, Round: parimutuel.RoundFlop, Positions: 6, Config: cfg, Bets: bets}
	// Position 3 wins; 1 and 5 tie for second; 2, 6 and 4 follow.
	o := parimutuel.Outcome{Winners: []int{3}, Category: parimutuel.Flush, Hands: hands(5, 3, 9, 1, 5, 2)}
	s, err := reg.SettlePool(pool, o, 123456)
	if err != nil {
		t.Fatal(err)
	}
	// G = 413.44; C = floor(3 %) = 12.40; J = floor(0.01 %) = 0.04;
	// N = 401.00. The winning stakes (3, 1, 5, 1) are 195.67, so
	// k = 401.00 / 195.67 = 2.049… → 2.04; each bet floor(stake × 2.04).
	want := map[string]money.Amount{"a": 20400, "b": 10200, "c": 6799, "d": 0, "e": 0, "f": 2517}
	for _, p := range s.Payouts {
		if p.Amount != want[p.BetID] || p.Refund || p.Guessed != 0 || p.Cat2 != 0 {
			t.Errorf("bet %s: %+v, want %s", p.BetID, p, want[p.BetID])
		}
	}
	if s.Gross != 41344 || s.Commission != 1240 || s.JackpotContribution != 4 || s.Net != 40100 ||
		s.Paid != 39916 || s.Breakage != 184 || s.TopUp != 0 || s.JackpotPaid != 0 || s.Rollover != 0 || s.Refunded {
		t.Errorf("figures %+v", s)
	}
	if len(s.Categories) != 1 || s.Categories[0].Coef != 204 || s.Categories[0].Stakes != 19567 || s.Categories[0].NumBets != 4 {
		t.Errorf("categories %+v", s.Categories)
	}
	if !slices.Equal(s.Winning, []parimutuel.Selection{topTwoSel(1), topTwoSel(3), topTwoSel(5)}) {
		t.Errorf("winning %v", s.Winning)
	}
	checkInvariants(t, s)
	res := tote.NewPoolResultIn(reg, s, nil, 123456)
	if !slices.Equal(res.Winning, []string{"1", "3", "5"}) || res.Coef() != 204 {
		t.Errorf("published winning %v, coefficient %s", res.Winning, res.Coef())
	}

	// Two tied winners leave no second place: 2 and 4 win, 6 (third) does
	// not; nobody backed them, so every stake is refunded.
	tied := parimutuel.Outcome{Winners: []int{2, 4}, Hands: hands(1, 9, 2, 9, 3, 8)}
	pool.Bets = []parimutuel.PoolBet{bets[0], bets[4]}
	s, err = reg.SettlePool(pool, tied, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Winning, []parimutuel.Selection{topTwoSel(2), topTwoSel(4)}) || !s.Refunded || s.RefundReason != parimutuel.RefundNoWinner || s.Refunds != s.Gross {
		t.Errorf("tied winners: %+v", s)
	}
	checkInvariants(t, s)

	// The 1.10 guarantee: one winning bet against a pool of little else.
	pool.Bets = []parimutuel.PoolBet{{ID: "x", Player: "p1", Stake: 100000, Selection: topTwoSel(4)}, {ID: "y", Player: "p2", Stake: 100, Selection: topTwoSel(1)}}
	s, err = reg.SettlePool(pool, tied, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Payouts[0].Amount != 110000 || s.TopUp != 110000-s.Net || s.Payouts[1].Amount != 0 {
		t.Errorf("minus pool: %+v", s)
	}
	checkInvariants(t, s)

	// The outcome must carry every position's final hand.
	_, err = reg.SettlePool(pool, parimutuel.Outcome{Winners: []int{2}}, 0)
	errstestIs(t, err, parimutuel.ReasonInvalidOutcome)
}

// checkInvariants: paid + commission + jackpot + breakage = pool (plus the
// organiser's top-up and any jackpot paid in), and the legs empty the
// escrow.
func checkInvariants(t *testing.T, s parimutuel.PoolSettlement) {
	t.Helper()
	if s.Gross+s.TopUp+s.JackpotPaid != s.Paid+s.Refunds+s.Commission+s.Breakage+s.JackpotContribution+s.Rollover {
		t.Errorf("the figures do not balance: %+v", s)
	}
	var escrow money.Amount = s.Gross
	for _, l := range s.Legs {
		if l.To.Kind == parimutuel.AccountPoolEscrow {
			escrow += l.Amount
		}
		if l.From.Kind == parimutuel.AccountPoolEscrow {
			escrow -= l.Amount
		}
	}
	if escrow != 0 {
		t.Errorf("the legs leave %s in escrow", escrow)
	}
}

func TestTopTwoSuspension(t *testing.T) {
	reg := withTopTwo(t)
	// Position 1 flopped a set of aces: it finishes in the top two on
	// nearly every turn and river.
	pockets := [][2]cards.Card{
		{cards.MustParse("Ah"), cards.MustParse("As")}, {cards.MustParse("Kh"), cards.MustParse("Ks")},
		{cards.MustParse("9c"), cards.MustParse("8c")}, {cards.MustParse("5d"), cards.MustParse("4d")},
	}
	flop := cards.MustParseList("Ad 7c 2h")
	rc, err := tote.ChancesAtOpeningIn(reg, pockets, flop, parimutuel.RoundFlop, tote.SuspendAtMax, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The production markets' chances are unchanged, TOP_TWO's follow.
	prod, err := tote.ChancesAtOpening(pockets, flop, parimutuel.RoundFlop, tote.SuspendAtMax, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rc.Chances[:len(prod.Chances)], prod.Chances) || len(rc.Chances) != len(prod.Chances)+4 {
		t.Fatalf("chances %v, production's %v", rc.Chances, prod.Chances)
	}
	// Brute force: every turn and river, each position's place.
	used := map[cards.Card]bool{}
	for _, c := range append(slices.Concat(pockets[0][:], pockets[1][:], pockets[2][:], pockets[3][:]), flop...) {
		used[c] = true
	}
	var unseen []cards.Card
	for c := range cards.Card(cards.NumCards) {
		if !used[c] {
			unseen = append(unseen, c)
		}
	}
	paid := make([]int64, 4)
	var boards int64
	for i := range unseen {
		for j := i + 1; j < len(unseen); j++ {
			board := [5]cards.Card{flop[0], flop[1], flop[2], unseen[i], unseen[j]}
			final := parimutuel.FinalHands(pockets, board)
			for p, v := range final {
				better := 0
				for _, w := range final {
					if w > v {
						better++
					}
				}
				if better < 2 {
					paid[p]++
				}
			}
			boards++
		}
	}
	for p, c := range rc.Chances[len(prod.Chances):] {
		if c.Market != marketTopTwo || c.Selection != string(rune('1'+p)) || c.Paid != paid[p] || c.Of != boards {
			t.Errorf("TOP_TWO chance %+v, brute force %d of %d", c, paid[p], boards)
		}
	}
	d := tote.Draw{SuspendAt: tote.SuspendAtMax, Chances: []tote.RoundChances{rc}}
	if c, sus := d.SuspendedAs(parimutuel.RoundFlop, marketTopTwo, "1"); !sus || c.Paid != paid[0] {
		t.Errorf("TOP_TWO 1 at %d of %d is not suspended at 90 %%", c.Paid, c.Of)
	}
	if _, sus := d.SuspendedAs(parimutuel.RoundFlop, marketTopTwo, "4"); sus {
		t.Error("TOP_TWO 4 is suspended")
	}
	// On two positions both always finish in the top two.
	rc2, err := tote.ChancesAtOpeningIn(reg, pockets[:2], flop, parimutuel.RoundFlop, tote.SuspendAtMax, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rc2.Suspended(tote.SuspendAtMax) {
		if c.Market == marketTopTwo && c.Paid != c.Of {
			t.Errorf("%+v", c)
		}
	}
	if n := len(rc2.Suspended(tote.SuspendAtMax)); n < 2 {
		t.Errorf("%d selections suspended on two positions", n)
	}
}

// TestTopTwoVerifies: a draw settled with a TOP_TWO pool of the flop
// round verifies by the registry that declares it, and fails by
// production's (which does not know the market) or once a payout is
// changed.
func TestTopTwoVerifies(t *testing.T) {
	reg := withTopTwo(t)
	// Ten positions: the fewest boards to walk from the pockets.
	h := totetest.NewHarness(t, totetest.MemEnv(t), 10)
	h.Deposit(1, 10_000*money.KZT)
	d := h.RunUntil(h.Dealer, "FLOP", totetest.InPhase(tote.PhaseFlop))
	// The flop round's bets: one on each position TOP_TWO would take (its
	// chance below SUSPEND_AT), placed as WIN bets (the service takes the
	// production markets) and published as a TOP_TWO pool below.
	rc, err := tote.ChancesAtOpeningIn(reg, d.Pockets, d.Board, parimutuel.RoundFlop, d.EffectiveSuspendAt(), 0)
	if err != nil {
		t.Fatal(err)
	}
	td := tote.Draw{SuspendAt: d.SuspendAt, Chances: []tote.RoundChances{rc}}
	placed := 0
	for p := 1; p <= 10; p++ {
		sel := strconv.Itoa(p)
		if _, sus := td.SuspendedAs(parimutuel.RoundFlop, marketTopTwo, sel); sus {
			continue
		}
		if _, ok := h.BetIfOffered(1, d, parimutuel.MarketWin, sel, 100*money.KZT+money.Amount(37*p)); ok {
			placed++
		}
	}
	if placed < 2 {
		t.Fatalf("only %d bets placed", placed)
	}
	d = h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	res := *d.Result
	if v := verify.Result(res); len(v.Problems) > 0 {
		t.Fatalf("the honest result fails: %v", v.Problems)
	}
	deal, ok := d.Deal()
	if !ok {
		t.Fatal("the draw is not dealt")
	}
	asTopTwo(t, reg, &res, parimutuel.OutcomeOf(deal))

	v := verify.Verifier{Markets: reg}.Result(res)
	if len(v.Problems) > 0 || !v.PayoutsMatch || !v.SuspensionsMatch || !v.CardsMatch || !v.CommitmentValid || !v.BeaconsValid {
		t.Fatalf("the TOP_TWO result fails by its registry: %+v", v)
	}
	if v := verify.Result(res); v.PayoutsMatch || !hasProblem(v.Problems, `"TOP_TWO" is not a market`) {
		t.Fatalf("production verifies a market it does not know: %v", v.Problems)
	}
	tampered := clone(t, res)
	for i, p := range tampered.Pools {
		if p.Market == marketTopTwo {
			tampered.Pools[i].Selections[0].Payout++
		}
	}
	if v := (verify.Verifier{Markets: reg}).Result(tampered); v.PayoutsMatch {
		t.Fatal("a TOP_TWO payout raised by a tiyn verifies")
	}
}

// asTopTwo republishes res's flop-round WIN pool as a TOP_TWO pool settled
// by reg (one bet per selection, so each selection's payout is its stake
// at the coefficient), the jackpot figures after it, and every round's
// chances with TOP_TWO's.
func asTopTwo(t *testing.T, reg *parimutuel.Registry, res *tote.DrawResult, o parimutuel.Outcome) {
	t.Helper()
	cfg := parimutuel.PoolConfig{Commission: res.Commission, JackpotEnabled: res.JackpotEnabled, JackpotRate: res.JackpotRate,
		ExpressShare1: res.ExpressShares[0], ExpressShare2: res.ExpressShares[1]}
	i := slices.IndexFunc(res.Pools, func(p tote.PoolResult) bool {
		return p.Round == parimutuel.RoundFlop && p.Market == parimutuel.MarketWin
	})
	if i < 0 {
		t.Fatal("no WIN pool in the flop round")
	}
	pr := res.Pools[i]
	pool := parimutuel.Pool{ID: tote.PoolID(res.DrawID, pr.Round, marketTopTwo), Market: marketTopTwo, Round: pr.Round, Positions: res.Positions, Config: cfg}
	for _, s := range pr.Selections {
		if s.NumBets != 1 {
			t.Fatalf("selection %s has %d bets", s.Selection, s.NumBets)
		}
		sel, err := reg.ParseSelection(marketTopTwo, s.Selection)
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
	res.Pools[i] = top
	jackpot := res.JackpotBefore
	for j := range res.Pools {
		p := &res.Pools[j]
		p.JackpotBefore = jackpot
		jackpot += p.JackpotContribution + p.Rollover - p.JackpotPaid
	}
	res.JackpotAfter = jackpot
	pockets := make([][2]cards.Card, len(res.Pockets))
	for j, p := range res.Pockets {
		pockets[j] = [2]cards.Card{cards.MustParse(p[0]), cards.MustParse(p[1])}
	}
	board := cards.MustParseList(strings.Join(res.Board, " "))
	for j, rc := range res.Chances {
		n := map[parimutuel.Round]int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}[rc.Round]
		if res.Chances[j], err = tote.ChancesAtOpeningIn(reg, pockets, board[:n], rc.Round, res.SuspendAt, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func clone(t *testing.T, res tote.DrawResult) tote.DrawResult {
	t.Helper()
	var c tote.DrawResult
	b, _ := json.Marshal(res)
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}
