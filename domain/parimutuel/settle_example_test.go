package parimutuel_test

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// A WIN pool of three bets with the default 3% commission and 0.01% jackpot
// contribution; position 3 wins.
//
//	G = 1000.00 + 500.00 + 333.33           = 1833.33
//	C = floor(1833.33 × 3%)    = floor(54.9999) = 54.99
//	J = floor(1833.33 × 0.01%) = floor(0.1833)  =  0.18
//	N = 1833.33 − 54.99 − 0.18              = 1778.16
//	S = 1000.00 + 333.33 (the bets on 3)    = 1333.33
//	k = 1778.16 / 1333.33 = 1.3336… → 1.33
//	paid floor(1000.00 × 1.33) = 1330.00 and floor(333.33 × 1.33) = 443.32
//	breakage = 1778.16 − 1773.32 = 4.84, to the organiser
func ExampleSettlePool() {
	pool := parimutuel.Pool{
		ID: "pool-1", Market: parimutuel.MarketWin, Round: parimutuel.RoundPocket, Positions: 6,
		Config: defaultPoolConfig(),
		Bets: []parimutuel.PoolBet{
			{ID: "b1", Player: "alice", Stake: 100000, Selection: parimutuel.WinSelection(3)},
			{ID: "b2", Player: "bob", Stake: 50000, Selection: parimutuel.WinSelection(5)},
			{ID: "b3", Player: "carol", Stake: 33333, Selection: parimutuel.WinSelection(3)},
		},
	}
	s, err := parimutuel.SettlePool(pool, parimutuel.Outcome{Winners: []int{3}}, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("G", s.Gross, "C", s.Commission, "J", s.JackpotContribution, "N", s.Net)
	c := s.Categories[0]
	fmt.Println("winning", s.Winning, "S", c.Stakes, "k", c.Coef)
	for _, p := range s.Payouts {
		fmt.Println(p.BetID, p.Stake, "->", p.Amount)
	}
	fmt.Println("paid", s.Paid, "breakage", s.Breakage, "top-up", s.TopUp)
	// Output:
	// G 1833.33 C 54.99 J 0.18 N 1778.16
	// winning [3] S 1333.33 k 1.33
	// b1 1000.00 -> 1330.00
	// b2 500.00 -> 0.00
	// b3 333.33 -> 443.32
	// paid 1773.32 breakage 4.84 top-up 0.00
}

// A minus pool: nearly all the money backs the winner, so N / S = 1.06 is
// below the guaranteed 1.10 and the organiser pays the shortfall.
//
//	G = 1000.00 + 100.00 = 1100.00, C = 33.00, J = 0.11, N = 1066.89
//	k = 1066.89 / 1000.00 = 1.06 → raised to 1.10
//	paid 1000.00 × 1.10 = 1100.00; top-up = 1100.00 − 1066.89 = 33.11
//
// The legs bring the top-up into the escrow first, then empty it.
func ExampleSettlePool_minusPool() {
	pool := parimutuel.Pool{
		ID: "pool-2", Market: parimutuel.MarketWin, Round: parimutuel.RoundTurn, Positions: 6,
		Config: defaultPoolConfig(),
		Bets: []parimutuel.PoolBet{
			{ID: "b1", Player: "alice", Stake: 100000, Selection: parimutuel.WinSelection(2)},
			{ID: "b2", Player: "bob", Stake: 10000, Selection: parimutuel.WinSelection(4)},
		},
	}
	s, err := parimutuel.SettlePool(pool, parimutuel.Outcome{Winners: []int{2}}, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("G", s.Gross, "C", s.Commission, "J", s.JackpotContribution, "N", s.Net)
	fmt.Println("k", s.Categories[0].Coef, "paid", s.Paid, "top-up", s.TopUp, "breakage", s.Breakage)
	for _, l := range s.Legs {
		fmt.Printf("%-20s %s:%s -> %s:%s %s\n", l.Purpose, l.From.Kind, l.From.Ref, l.To.Kind, l.To.Ref, l.Amount)
	}
	// Output:
	// G 1100.00 C 33.00 J 0.11 N 1066.89
	// k 1.10 paid 1100.00 top-up 33.11 breakage 0.00
	// MINUS_POOL_TOP_UP    ORGANISER: -> POOL_ESCROW:pool-2 33.11
	// PAYOUT               POOL_ESCROW:pool-2 -> PLAYER_WALLET:alice 1100.00
	// COMMISSION           POOL_ESCROW:pool-2 -> ORGANISER: 33.00
	// JACKPOT_CONTRIBUTION POOL_ESCROW:pool-2 -> JACKPOT: 0.11
}

// An EXPRESS pool: position 2 leads after the flop and the turn, position 5
// wins at the river, and the jackpot holds 5000.00.
//
//	G = 1000.00, C = 30.00, J = 0.10, N = 969.90
//	category 1 fund = floor(969.90 × 60%) + jackpot = 581.94 + 5000.00 = 5581.94
//	category 2 fund = 969.90 − 581.94 = 387.96
//	category 1 (2-2-5 only): k1 = 5581.94 / 100.00 = 55.81
//	category 2 (2-2-5, 2-3-5, 4-2-5): k2 = 387.96 / 700.00 = 0.55 → 1.10
//
// The 3-of-3 coupon is paid in both categories: 5581.00 + 110.00.
func ExampleSettlePool_express() {
	pool := parimutuel.Pool{
		ID: "pool-3", Market: parimutuel.MarketExpress, Round: parimutuel.RoundPreDeal, Positions: 6,
		Config: defaultPoolConfig(),
		Bets: []parimutuel.PoolBet{
			{ID: "e1", Player: "alice", Stake: 10000, Selection: parimutuel.ExpressSelection(2, 2, 5)},
			{ID: "e2", Player: "bob", Stake: 20000, Selection: parimutuel.ExpressSelection(2, 3, 5)},
			{ID: "e3", Player: "carol", Stake: 30000, Selection: parimutuel.ExpressSelection(1, 3, 5)},
			{ID: "e4", Player: "dave", Stake: 40000, Selection: parimutuel.ExpressSelection(4, 2, 5)},
		},
	}
	outcome := parimutuel.Outcome{FlopLeaders: []int{2}, TurnLeaders: []int{2}, Winners: []int{5}}
	s, err := parimutuel.SettlePool(pool, outcome, 500000)
	if err != nil {
		panic(err)
	}
	fmt.Println("G", s.Gross, "C", s.Commission, "J", s.JackpotContribution, "N", s.Net)
	for _, c := range s.Categories {
		fmt.Println("category", c.Category, "coupons", c.NumBets, "fund", c.Fund, "jackpot", c.Jackpot,
			"k", c.Coef, "paid", c.Paid, "breakage", c.Breakage, "top-up", c.TopUp)
	}
	for _, p := range s.Payouts {
		fmt.Println(p.BetID, "guessed", p.Guessed, "->", p.Cat1, "+", p.Cat2, "=", p.Amount)
	}
	fmt.Println("jackpot change", s.JackpotChange())
	// Output:
	// G 1000.00 C 30.00 J 0.10 N 969.90
	// category 1 coupons 1 fund 5581.94 jackpot 5000.00 k 55.81 paid 5581.00 breakage 0.94 top-up 0.00
	// category 2 coupons 3 fund 387.96 jackpot 0.00 k 1.10 paid 770.00 breakage 0.00 top-up 382.04
	// e1 guessed 3 -> 5581.00 + 110.00 = 5691.00
	// e2 guessed 2 -> 0.00 + 220.00 = 220.00
	// e3 guessed 1 -> 0.00 + 0.00 = 0.00
	// e4 guessed 2 -> 0.00 + 440.00 = 440.00
	// jackpot change -4999.90
}

// The live odds of an open WIN pool: N / stakes on each position, not raised
// to 1.10. N = 1000.00 − 30.00 − 0.10 = 969.90.
func ExampleImpliedCoefs() {
	totals := map[parimutuel.Selection]money.Amount{
		parimutuel.WinSelection(1): 60000,
		parimutuel.WinSelection(2): 30000,
		parimutuel.WinSelection(3): 10000,
		parimutuel.WinSelection(4): 0,
	}
	coefs, err := parimutuel.ImpliedCoefs(totals, defaultPoolConfig())
	if err != nil {
		panic(err)
	}
	for p := 1; p <= 4; p++ {
		fmt.Println(p, coefs[parimutuel.WinSelection(p)])
	}
	// Output:
	// 1 1.61
	// 2 3.23
	// 3 9.69
	// 4 0.00
}
