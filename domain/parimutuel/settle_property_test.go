package parimutuel_test

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// genConfig draws a valid pool configuration: commission from 3% up to 90%,
// the jackpot on or off at up to 0.10%, any split of the EXPRESS net.
func genConfig() *rapid.Generator[parimutuel.PoolConfig] {
	return rapid.Custom(func(t *rapid.T) parimutuel.PoolConfig {
		share1 := rapid.Int64Range(0, 10000).Draw(t, "share1")
		return parimutuel.PoolConfig{
			Commission: money.BasisPoints(rapid.OneOf(
				rapid.Just(int64(300)), rapid.Int64Range(300, 1500), rapid.Int64Range(300, 9000),
			).Draw(t, "commission")),
			JackpotEnabled: rapid.Bool().Draw(t, "jackpotEnabled"),
			JackpotRate:    money.BasisPoints(rapid.OneOf(rapid.Just(int64(1)), rapid.Int64Range(0, 10)).Draw(t, "jackpotRate")),
			ExpressShare1:  money.BasisPoints(share1),
			ExpressShare2:  money.BasisPoints(10000 - share1),
		}
	})
}

// genStake draws stakes from one tiyn to 5×10^13 (so 200 of them stay below
// MaxPoolAmount), mostly small, some huge.
func genStake() *rapid.Generator[money.Amount] {
	return rapid.Map(rapid.OneOf(
		rapid.Int64Range(1, 100),
		rapid.Int64Range(1, 10_000_000),
		rapid.Int64Range(1, 50_000_000_000_000),
	), func(v int64) money.Amount { return money.Amount(v) })
}

// genPositions draws a non-empty set of positions of a table of n: usually
// one, sometimes a tie, sometimes the whole table.
func genPositions(n int) *rapid.Generator[[]int] {
	all := make([]int, n)
	for i := range all {
		all[i] = i + 1
	}
	return rapid.OneOf(
		rapid.Map(rapid.IntRange(1, n), func(p int) []int { return []int{p} }),
		rapid.SliceOfNDistinct(rapid.IntRange(1, n), 1, n, rapid.ID[int]),
		rapid.Just(all),
	)
}

type randomPool struct {
	pool    parimutuel.Pool
	outcome parimutuel.Outcome
	jackpot money.Amount
}

func genRandomPool(t *rapid.T) randomPool {
	n := rapid.IntRange(2, 10).Draw(t, "positions")
	market := rapid.SampledFrom(parimutuel.Markets).Draw(t, "market")
	lastRound := parimutuel.RoundTurn
	if market == parimutuel.MarketExpress {
		lastRound = parimutuel.RoundPocket
	}
	p := parimutuel.Pool{
		ID:        "pool-x",
		Market:    market,
		Round:     parimutuel.Round(rapid.IntRange(1, int(lastRound)).Draw(t, "round")),
		Positions: n,
		Config:    genConfig().Draw(t, "config"),
	}
	// Selections from a narrowed range make winners common.
	pos := rapid.IntRange(1, rapid.IntRange(1, n).Draw(t, "spread"))
	sel := rapid.Custom(func(t *rapid.T) parimutuel.Selection {
		switch market {
		case parimutuel.MarketWin:
			return parimutuel.WinSelection(pos.Draw(t, "position"))
		case parimutuel.MarketCombination:
			return parimutuel.CombinationSelection(parimutuel.Combination(rapid.IntRange(0, 9).Draw(t, "category")))
		}
		return parimutuel.ExpressSelection(pos.Draw(t, "flop"), pos.Draw(t, "turn"), pos.Draw(t, "river"))
	})
	count := rapid.IntRange(0, 200).Draw(t, "bets")
	players := rapid.IntRange(1, 20)
	for i := range count {
		p.Bets = append(p.Bets, parimutuel.PoolBet{
			ID:        fmt.Sprintf("bet-%d", i),
			Player:    fmt.Sprintf("player-%d", players.Draw(t, "player")),
			Stake:     genStake().Draw(t, "stake"),
			Selection: sel.Draw(t, "selection"),
		})
	}
	o := parimutuel.Outcome{
		Winners:     genPositions(n).Draw(t, "winners"),
		Category:    parimutuel.Combination(rapid.IntRange(0, 9).Draw(t, "category")),
		FlopLeaders: genPositions(n).Draw(t, "flopLeaders"),
		TurnLeaders: genPositions(n).Draw(t, "turnLeaders"),
	}
	jackpot := money.Amount(rapid.OneOf(
		rapid.Just(int64(0)), rapid.Int64Range(0, 1_000_000_000_000), rapid.Int64Range(0, int64(parimutuel.MaxPoolAmount)),
	).Draw(t, "jackpot"))
	return randomPool{pool: p, outcome: o, jackpot: jackpot}
}

// categoriesWon is the test's own reading of the rules: which categories a
// bet wins (bit 0: category 1, bit 1: category 2).
func categoriesWon(b parimutuel.PoolBet, o parimutuel.Outcome) (cat1, cat2 bool) {
	s := b.Selection
	switch s.Market {
	case parimutuel.MarketWin:
		return slices.Contains(o.Winners, s.Position), false
	case parimutuel.MarketCombination:
		return s.Combination == o.Category, false
	}
	g := 0
	for _, hit := range []bool{
		slices.Contains(o.FlopLeaders, s.Coupon.Flop),
		slices.Contains(o.TurnLeaders, s.Coupon.Turn),
		slices.Contains(o.Winners, s.Coupon.River),
	} {
		if hit {
			g++
		}
	}
	return g == 3, g >= 2
}

// floorRate is floor(a × bp / 10000) computed with big integers.
func floorRate(a money.Amount, bp money.BasisPoints) money.Amount {
	v := new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(bp)))
	return money.Amount(v.Quo(v, big.NewInt(10000)).Int64())
}

func TestSettlePoolProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rp := genRandomPool(t)
		p, o := rp.pool, rp.outcome
		s, err := parimutuel.SettlePool(p, o, rp.jackpot)
		if err != nil {
			t.Fatalf("SettlePool: %v", err)
		}
		checkSettlement(t, p, s)

		backed1, backed2 := false, false
		for i, b := range p.Bets {
			c1, c2 := categoriesWon(b, o)
			backed1, backed2 = backed1 || c1, backed2 || c2 || (p.Market != parimutuel.MarketExpress && c1)
			po := s.Payouts[i]
			if s.Refunded {
				continue
			}
			least := money.MinCoef.Pay(b.Stake)
			if c1 != (po.Cat1 > 0) || c2 != (po.Cat2 > 0) {
				t.Fatalf("bet %+v wins (%v, %v) but is paid %+v", b, c1, c2, po)
			}
			if (c1 && po.Cat1 < least) || (c2 && po.Cat2 < least) {
				t.Fatalf("winning bet %+v paid %+v, less than floor(stake × 1.10) = %s per category", b, po, least)
			}
			if p.Market == parimutuel.MarketExpress && c1 && !c2 {
				t.Fatalf("a 3-of-3 coupon must also win category 2")
			}
		}
		if s.Refunded != !backed2 || (s.Refunded && s.RefundReason != parimutuel.RefundNoWinner) {
			t.Fatalf("refunded = %v (%s) with a backed winner = %v", s.Refunded, s.RefundReason, backed2)
		}
		if s.Refunded {
			return
		}
		cfg := p.Config
		if s.Commission != floorRate(s.Gross, cfg.Commission) {
			t.Fatalf("C = %s, want floor(%s × %s%%)", s.Commission, s.Gross, cfg.Commission)
		}
		wantJ := money.Amount(0)
		if cfg.JackpotEnabled {
			wantJ = floorRate(s.Gross, cfg.JackpotRate)
		}
		if s.JackpotContribution != wantJ {
			t.Fatalf("J = %s, want %s", s.JackpotContribution, wantJ)
		}
		checkFunds(t, p, s, rp.jackpot, backed1)
		for _, c := range s.Categories {
			checkTruncation(t, c)
		}
		if p.Market != parimutuel.MarketExpress {
			checkImpliedAgrees(t, p, s)
		}
	})
}

// checkFunds checks where N (and the jackpot) went.
func checkFunds(t *rapid.T, p parimutuel.Pool, s parimutuel.PoolSettlement, jackpot money.Amount, backed1 bool) {
	cfg := p.Config
	if p.Market != parimutuel.MarketExpress {
		if len(s.Categories) != 1 || s.Categories[0].Fund != s.Net || s.JackpotPaid != 0 || s.Rollover != 0 {
			t.Fatalf("%s pool shares %+v, want N = %s and no jackpot", p.Market, s.Categories, s.Net)
		}
		return
	}
	if len(s.Categories) != 2 {
		t.Fatalf("EXPRESS with %d categories", len(s.Categories))
	}
	c1, c2 := s.Categories[0], s.Categories[1]
	share1 := floorRate(s.Net, cfg.ExpressShare1)
	var want1, want2, wantPaid, wantRoll money.Amount
	switch {
	case backed1 && cfg.JackpotEnabled:
		want1, want2, wantPaid = share1+jackpot, s.Net-share1, jackpot
	case backed1:
		want1, want2 = share1, s.Net-share1
	case cfg.JackpotEnabled:
		want2, wantRoll = s.Net-share1, share1
	default:
		want2 = s.Net
	}
	if c1.Fund != want1 || c2.Fund != want2 || s.JackpotPaid != wantPaid || c1.Jackpot != wantPaid || s.Rollover != wantRoll || c1.Rollover != wantRoll {
		t.Fatalf("EXPRESS funds %+v / %+v, jackpot paid %s, rollover %s; want %s / %s, %s, %s",
			c1, c2, s.JackpotPaid, s.Rollover, want1, want2, wantPaid, wantRoll)
	}
}

// checkTruncation checks that a category's coefficient is fund / stakes
// truncated (k×S ≤ 100×fund < (k+1)×S) unless it was raised to 1.10, and that
// its breakage is rounding only.
func checkTruncation(t *rapid.T, c parimutuel.CategoryResult) {
	if c.NumBets == 0 {
		return
	}
	S, F := big.NewInt(int64(c.Stakes)), big.NewInt(100*int64(c.Fund))
	k := big.NewInt(int64(c.Coef))
	lo := new(big.Int).Mul(k, S)
	hi := new(big.Int).Add(lo, S)
	raised := c.Coef == money.MinCoef && lo.Cmp(F) > 0
	if !raised && (lo.Cmp(F) > 0 || hi.Cmp(F) <= 0) {
		t.Fatalf("category %+v: coefficient is not fund/stakes truncated", c)
	}
	if raised {
		return
	}
	// breakage = F − Σ floor(s×k) < (F − k×S) + bets < S/100 + bets
	if c.TopUp != 0 || 100*int64(c.Breakage) >= int64(c.Stakes)+100*int64(c.NumBets) {
		t.Fatalf("category %+v: breakage larger than rounding", c)
	}
}

// checkImpliedAgrees checks that when one selection wins, the live implied
// coefficient computed from the same stakes is the settled one (before the
// 1.10 floor).
func checkImpliedAgrees(t *rapid.T, p parimutuel.Pool, s parimutuel.PoolSettlement) {
	totals := map[parimutuel.Selection]money.Amount{}
	for _, b := range p.Bets {
		totals[b.Selection] += b.Stake
	}
	backed := 0
	var winner parimutuel.Selection
	for _, w := range s.Winning {
		if totals[w] > 0 {
			backed++
			winner = w
		}
	}
	if backed != 1 {
		return
	}
	implied, err := parimutuel.ImpliedCoefs(totals, p.Config)
	if err != nil {
		t.Fatalf("ImpliedCoefs: %v", err)
	}
	if got := s.Categories[0].Coef; got != max(implied[winner], money.MinCoef) {
		t.Fatalf("settled at %s, implied %s", got, implied[winner])
	}
}

func TestVoidPoolProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genRandomPool(t).pool
		s, err := parimutuel.VoidPool(p)
		if err != nil {
			t.Fatalf("VoidPool: %v", err)
		}
		checkSettlement(t, p, s)
		if !s.Refunded || s.RefundReason != parimutuel.RefundVoidDraw || s.Refunds != s.Gross || len(s.Legs) != len(p.Bets) {
			t.Fatalf("void settlement %+v", s)
		}
	})
}
