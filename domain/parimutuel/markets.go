package parimutuel

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
		// Placed first: every tied winner wins in full. Paid on the boards
		// it wins or ties; every position published.
		Rule: PlacedWithin(1),
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
		// Paid on the boards whose winning hand has its category; every
		// category published.
		Rule: CategoryIs(),
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
		// Category 1 for 3 of 3, category 2 for at least 2; naming any one
		// of several tied leaders counts as guessed. Paid (category 2) on
		// that share of the ordered deals of flop, turn and river; only the
		// coupons at or above the threshold are published.
		Rule: CouponLegs(3, 2),
	}
}
