package parimutuel

import "github.com/pokertote/pokertote/domain/money"

// The markets the game offers (SPEC 1.4), in display and settlement order.
// This is the one place a market is declared: docs/architecture.md
// ("Adding a market") lists what else a new one takes.
func productionMarkets() []MarketSpec {
	return []MarketSpec{winMarket(), combinationMarket(), expressMarket()}
}

// winMarket is WIN: a bet on a position winning.
func winMarket() MarketSpec {
	return MarketSpec{
		Name:   MarketWin,
		Input:  "position",
		About:  "a position wins after the river (alone or in a tie)",
		Rounds: RoundsOf(RoundPreDeal, RoundPocket, RoundFlop, RoundTurn),
		Shape:  PositionShape,
		Reads:  ReadsWinners,
		Scheme: SchemeSingle,
		// Every tied winner wins in full.
		Grade: func(d Decided, s Selection) Grade { return Grade{Cat1: d.Winner(s.Position)} },
		// Paid on the boards it wins or ties; every position published.
		Chances: func(m MarketSpec, src ChanceSource, _ money.BasisPoints) ([]Chance, error) {
			b, err := src.Boards()
			if err != nil {
				return nil, err
			}
			out := make([]Chance, 0, len(b.Winners))
			for i, paid := range b.Winners {
				out = append(out, Chance{Selection: Selection{Market: m.Name, Position: i + 1}, Paid: paid, Of: b.Boards})
			}
			return out, nil
		},
	}
}

// combinationMarket is COMBINATION: a bet on the winning hand's category.
func combinationMarket() MarketSpec {
	return MarketSpec{
		Name:   MarketCombination,
		Input:  "combination",
		About:  "the category of the winning hand",
		Rounds: RoundsOf(RoundPreDeal, RoundPocket, RoundFlop, RoundTurn),
		Shape:  CategoryShape,
		Reads:  ReadsCategory,
		Scheme: SchemeSingle,
		Grade:  func(d Decided, s Selection) Grade { return Grade{Cat1: s.Combination == d.Category()} },
		// Paid on the boards whose winning hand has its category; every
		// category published.
		Chances: func(m MarketSpec, src ChanceSource, _ money.BasisPoints) ([]Chance, error) {
			b, err := src.Boards()
			if err != nil {
				return nil, err
			}
			out := make([]Chance, 0, NumCombinations)
			for c, paid := range b.Categories {
				out = append(out, Chance{Selection: Selection{Market: m.Name, Combination: Combination(c)}, Paid: paid, Of: b.Boards})
			}
			return out, nil
		},
	}
}

// expressMarket is EXPRESS: a coupon of three predictions.
func expressMarket() MarketSpec {
	return MarketSpec{
		Name:  MarketExpress,
		Input: "express",
		About: "a coupon of the leader after the flop, the leader after the turn and the winner after the river",
		// Its first prediction is the flop leader, so it closes before
		// the flop is known.
		Rounds: RoundsOf(RoundPreDeal, RoundPocket),
		Shape:  CouponShape,
		Reads:  ReadsWinners | ReadsFlopLeaders | ReadsTurnLeaders,
		Scheme: SchemeTwoTier,
		// Naming any one of several tied leaders counts as guessed.
		Grade: func(d Decided, s Selection) Grade {
			g := 0
			for _, hit := range [3]bool{d.FlopLeader(s.Coupon.Flop), d.TurnLeader(s.Coupon.Turn), d.Winner(s.Coupon.River)} {
				if hit {
					g++
				}
			}
			return Grade{Cat1: g == 3, Cat2: g >= 2, Guessed: g}
		},
		// Paid (category 2: at least 2 of 3) on that share of the
		// ordered deals of flop, turn and river; only the coupons at or
		// above the threshold are published.
		Chances: func(m MarketSpec, src ChanceSource, at money.BasisPoints) ([]Chance, error) {
			cs, err := src.CouponsAtLeast(at)
			if err != nil {
				return nil, err
			}
			out := make([]Chance, 0, len(cs))
			for _, c := range cs {
				out = append(out, Chance{Selection: Selection{Market: m.Name, Coupon: c.Coupon}, Paid: c.Paid, Of: c.Of})
			}
			return out, nil
		},
	}
}
