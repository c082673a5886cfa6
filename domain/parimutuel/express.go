package parimutuel

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
)

// Guessed counts how many of coupon c's three predictions the outcome sets
// make true: the flop leader among flopLeaders, the turn leader among
// turnLeaders, the river winner among winners. Naming any one of several tied
// leaders counts as guessed (SPEC 1.4).
func (c Coupon) Guessed(flopLeaders, turnLeaders, winners []int) int {
	return c.guessed(setOf(flopLeaders), setOf(turnLeaders), setOf(winners))
}

func (c Coupon) guessed(flop, turn, win positionSet) int {
	g := 0
	for _, hit := range [3]bool{flop.has(c.Flop), turn.has(c.Turn), win.has(c.River)} {
		if hit {
			g++
		}
	}
	return g
}

// setOf builds a position set, ignoring positions outside 1..10.
func setOf(ps []int) positionSet {
	var s positionSet
	for _, p := range ps {
		if p >= 1 && p <= cards.MaxPositions {
			s |= 1 << p
		}
	}
	return s
}

// settleTwoTier settles a pool of SchemeTwoTier (EXPRESS) by the rules in
// SettlePool's documentation.
func settleTwoTier(s *PoolSettlement, p Pool, grades []Grade, jackpot money.Amount) {
	wins1 := make([]bool, len(p.Bets))
	wins2 := make([]bool, len(p.Bets))
	backed1, backed2 := false, false
	for i, g := range grades {
		wins1[i], wins2[i] = g.Cat1, g.Cat2
		backed1 = backed1 || wins1[i]
		backed2 = backed2 || wins2[i]
	}
	if !backed2 {
		s.refund(RefundNoWinner)
		return
	}
	s.takeCuts(p.Config)
	fund1 := p.Config.ExpressShare1.Of(s.Net)
	fund2 := s.Net - fund1
	var pot, rolled money.Amount
	switch {
	case backed1 && p.Config.JackpotEnabled:
		pot = jackpot
	case !backed1 && p.Config.JackpotEnabled:
		rolled, fund1 = fund1, 0
	case !backed1:
		fund2, fund1 = fund2+fund1, 0
	}
	c1 := shareFund(1, fund1+pot, p.Bets, wins1, func(i int, a money.Amount) { s.Payouts[i].Cat1 = a })
	c1.Jackpot, c1.Rollover = pot, rolled
	s.addCategory(c1)
	s.addCategory(shareFund(2, fund2, p.Bets, wins2, func(i int, a money.Amount) { s.Payouts[i].Cat2 = a }))
	s.finishPayouts()
}
