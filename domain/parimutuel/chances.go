package parimutuel

import (
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// Chance is one selection's exact chance of being paid when a betting
// round opens: Paid of Of equally likely ways the unseen cards can fall
// (SPEC 1.9).
type Chance struct {
	Selection Selection
	Paid, Of  int64
}

// BoardCounts is what enumerating every completion of the board counts.
type BoardCounts struct {
	// Boards is how many boards there are.
	Boards int64
	// Winners has one count per position (position p at index p-1): the
	// boards on which it is among the winners after the river, alone or
	// tied.
	Winners []int64
	// Categories counts the boards whose winning hand has each category.
	Categories [NumCombinations]int64
}

// CouponChance is an EXPRESS-style coupon's chance over every ordered deal
// of flop, turn and river: Paid counts the deals on which it guesses at
// least two of its three predictions.
type CouponChance struct {
	Coupon   Coupon
	Paid, Of int64
}

// ChanceSource is the exact enumeration a betting round's chances are
// counted over: every way the cards still unseen can fall, from the
// pockets and the board dealt when the round opens (burned cards are
// unknown, so enumerated like any other). Package tote implements it over
// domain/odds, whose cache shares each deal's enumeration with the live
// odds and the verifier; a market's Chances rule reads what it needs.
type ChanceSource interface {
	// Round is the betting round that opens.
	Round() Round
	// Positions is the table's number of positions.
	Positions() int
	// Boards counts every completion of the board.
	Boards() (BoardCounts, error)
	// CouponsAtLeast lists the coupons whose chance is at least at, in
	// order of flop leader, turn leader, river winner: none when no coupon
	// can reach it. Only before the flop (the pocket round).
	CouponsAtLeast(at money.BasisPoints) ([]CouponChance, error)
	// EachBoard calls fn, one board at a time, with the outcome after the
	// river of every completion of the board: its Winners, Category and
	// Hands (no leaders). fn must not keep o. It is the general way for a
	// market whose chance Boards does not count, and far slower.
	EachBoard(fn func(o Outcome)) error
}

// ChancesOverBoards is a Chances rule for any market settled on what the
// river decides (it reads only Winners, Category and Hands): each
// selection's chance is the share of the boards on which its Grade pays it
// (category 1 or 2). Every selection is published. It walks every board
// (ChanceSource.EachBoard).
func ChancesOverBoards(m MarketSpec, src ChanceSource, _ money.BasisPoints) ([]Chance, error) {
	if m.Reads&^(ReadsWinners|ReadsCategory|ReadsHands) != 0 {
		return nil, errs.E(errs.Internal, "market %s reads %v, which a board alone does not decide", m.Name, m.Reads.Names())
	}
	n := src.Positions()
	sels := m.Selections(n)
	out := make([]Chance, len(sels))
	for i, s := range sels {
		out[i].Selection = s
	}
	var bad error
	err := src.EachBoard(func(o Outcome) {
		if bad != nil {
			return
		}
		d, err := checkOutcome(o, m.Reads, n)
		if err != nil {
			bad = err
			return
		}
		for i, s := range sels {
			out[i].Of++
			if g := m.Grade(d, s); g.Cat1 || g.Cat2 {
				out[i].Paid++
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, errs.E(errs.Internal, "a board's outcome: %v", bad)
	}
	return out, nil
}
