package parimutuel

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// GradeKind is a kind of grading rule: how an outcome pays a selection,
// written once here and once in the independent TypeScript verifier
// (web/src/verify/grades.ts), which reads each market's rule from
// web/src/markets.gen.ts. A market of an existing kind is data (its
// GradeRule); a new kind is code on both sides.
type GradeKind string

// The grading rules.
const (
	// GradePlacedWithin pays a position (PositionShape) placed first to
	// Within-th after the river. A position's place is one more than the
	// number of positions with a strictly better hand, so tied positions
	// share a place and every one of them counts in full (two tied winners
	// are both first and the next position third). Within 1 pays the
	// winners and reads Outcome.Winners (WIN); more places read every
	// position's final hand, Outcome.Hands (TOP_TWO: within 2).
	GradePlacedWithin GradeKind = "PLACED_WITHIN"
	// GradeCategoryIs pays a hand category (CategoryShape) equal to the
	// winning hand's, Outcome.Category (COMBINATION).
	GradeCategoryIs GradeKind = "CATEGORY_IS"
	// GradeCouponLegs grades a coupon (CouponShape) of three legs, the
	// leader after the flop, the leader after the turn and the winner
	// after the river (naming any one of several tied leaders guesses the
	// leg): category 1 from Cat1Legs legs guessed, category 2 from
	// Cat2Legs (0: none), and the legs guessed published as Guessed
	// (EXPRESS: 3 and 2).
	GradeCouponLegs GradeKind = "COUPON_LEGS"
)

// GradeRule is a market's grading rule as data: its kind and the kind's
// parameters (the others stay zero). MarketSpec.Grade and
// MarketSpec.Chances follow from it; cmd/gen-markets publishes it to the
// web client's verifier.
type GradeRule struct {
	Kind GradeKind
	// Within is GradePlacedWithin's last paid place, 1 to 10.
	Within int
	// Cat1Legs and Cat2Legs are GradeCouponLegs' legs guessed (1 to 3)
	// that put a coupon in category 1 and in category 2; Cat2Legs is 0
	// for a market of one category.
	Cat1Legs, Cat2Legs int
}

// PlacedWithin is the rule paying a position placed 1 to n after the river.
func PlacedWithin(n int) GradeRule { return GradeRule{Kind: GradePlacedWithin, Within: n} }

// CategoryIs is the rule paying the winning hand's category.
func CategoryIs() GradeRule { return GradeRule{Kind: GradeCategoryIs} }

// CouponLegs is the rule of a flop-turn-river coupon: category 1 from cat1
// legs guessed, category 2 from cat2 (0: none).
func CouponLegs(cat1, cat2 int) GradeRule {
	return GradeRule{Kind: GradeCouponLegs, Cat1Legs: cat1, Cat2Legs: cat2}
}

// ChancesKind is how a round's chances of a market are counted (SPEC
// 1.9); it follows from the market's grading rule.
type ChancesKind string

// The ways chances are counted.
const (
	// ChancesBoards: every selection is published, paid on the
	// completions of the board on which its grade pays it.
	ChancesBoards ChancesKind = "BOARDS"
	// ChancesCoupons: before the flop, the coupons whose chance reaches
	// the threshold are published, paid on the ordered deals of flop,
	// turn and river that guess at least two of their three legs.
	ChancesCoupons ChancesKind = "COUPONS"
)

// String writes the rule as "PLACED_WITHIN(2)", "CATEGORY_IS",
// "COUPON_LEGS(3, 2)".
func (r GradeRule) String() string {
	switch r.Kind {
	case GradePlacedWithin:
		return fmt.Sprintf("%s(%d)", r.Kind, r.Within)
	case GradeCouponLegs:
		return fmt.Sprintf("%s(%d, %d)", r.Kind, r.Cat1Legs, r.Cat2Legs)
	}
	return string(r.Kind)
}

// Reads is what of the outcome the rule grades by: what a market of the
// rule declares in MarketSpec.Reads. It is 0 for a rule that is no rule.
func (r GradeRule) Reads() Reads {
	switch r.Kind {
	case GradePlacedWithin:
		if r.Within == 1 {
			return ReadsWinners
		}
		return ReadsHands
	case GradeCategoryIs:
		return ReadsCategory
	case GradeCouponLegs:
		return ReadsWinners | ReadsFlopLeaders | ReadsTurnLeaders
	}
	return 0
}

// Shape is the selection shape the rule grades (nil for no rule).
func (r GradeRule) Shape() *Shape {
	switch r.Kind {
	case GradePlacedWithin:
		return PositionShape
	case GradeCategoryIs:
		return CategoryShape
	case GradeCouponLegs:
		return CouponShape
	}
	return nil
}

// Chances is how the chances of a market of the rule are counted.
func (r GradeRule) Chances() ChancesKind {
	if r.Kind == GradeCouponLegs {
		return ChancesCoupons
	}
	return ChancesBoards
}

// check reports what makes r no rule of its kind.
func (r GradeRule) check() error {
	bad := func(why string) error { return fmt.Errorf("grade rule %s: %s", r, why) }
	switch r.Kind {
	case GradePlacedWithin:
		if r.Within < 1 || r.Within > cards.MaxPositions || r.Cat1Legs != 0 || r.Cat2Legs != 0 {
			return bad("a position is paid within places 1 to 10, and the rule has no legs")
		}
	case GradeCategoryIs:
		if r.Within != 0 || r.Cat1Legs != 0 || r.Cat2Legs != 0 {
			return bad("the rule has no parameters")
		}
	case GradeCouponLegs:
		paidFrom := r.Cat1Legs
		if r.Cat2Legs > 0 {
			paidFrom = min(paidFrom, r.Cat2Legs)
		}
		switch {
		case r.Within != 0 || r.Cat1Legs < 1 || r.Cat1Legs > 3 || r.Cat2Legs < 0 || r.Cat2Legs > 3:
			return bad("a coupon's categories are from 1 to 3 legs guessed")
		case paidFrom != 2:
			// The coupon enumeration (ChanceSource.CouponsAtLeast) counts
			// the deals guessing at least two legs.
			return bad("a coupon is paid from 2 legs guessed: its chances count no other")
		}
	default:
		return fmt.Errorf("grade rule %q is no kind of rule: PLACED_WITHIN, CATEGORY_IS or COUPON_LEGS", string(r.Kind))
	}
	return nil
}

// checkRule reports a spec whose rule is not whole or does not fit the
// rest of the spec: the shape it grades, what it reads, the rounds it can
// be offered in.
func checkRule(s MarketSpec) error {
	if err := s.Rule.check(); err != nil {
		return err
	}
	if s.Shape != s.Rule.Shape() {
		return fmt.Errorf("grade rule %s grades %s selections, not %s", s.Rule, s.Rule.Shape().Name(), s.Shape.Name())
	}
	if s.Reads != s.Rule.Reads() {
		return fmt.Errorf("grade rule %s reads %v of the outcome, and the spec declares %v", s.Rule, s.Rule.Reads().Names(), s.Reads.Names())
	}
	if s.Rule.Chances() == ChancesCoupons && s.Rounds&^RoundsOf(RoundPreDeal, RoundPocket) != 0 {
		return fmt.Errorf("grade rule %s: a coupon's first leg is the flop leader, so it closes before the flop", s.Rule)
	}
	return nil
}

// Grade is how the outcome settles one selection, by the spec's rule: the
// categories it wins in (ties: every tied position counts in full, no
// dead-heat reduction) and what the payout publishes as Guessed. The
// winning selections a settlement lists are the selections of the table
// that it puts in category 1. d must be checked for what the spec reads.
func (m MarketSpec) Grade(d Decided, s Selection) Grade {
	r := m.Rule
	switch r.Kind {
	case GradePlacedWithin:
		if r.Within == 1 {
			return Grade{Cat1: d.Winner(s.Position)}
		}
		p := d.Place(s.Position)
		return Grade{Cat1: p >= 1 && p <= r.Within}
	case GradeCategoryIs:
		return Grade{Cat1: s.Combination == d.Category()}
	case GradeCouponLegs:
		g := 0
		for _, hit := range [3]bool{d.FlopLeader(s.Coupon.Flop), d.TurnLeader(s.Coupon.Turn), d.Winner(s.Coupon.River)} {
			if hit {
				g++
			}
		}
		return Grade{Cat1: g >= r.Cat1Legs, Cat2: r.Cat2Legs > 0 && g >= r.Cat2Legs, Guessed: g}
	}
	// NewRegistry admits no other kind (gradeSample turns this into its error).
	panic(fmt.Sprintf("market %s: grade rule %q is no kind of rule", m.Name, string(r.Kind)))
}

// Chances computes the chances a betting round of the market opens with
// (SPEC 1.9), from the round's exact enumeration, as its rule's
// ChancesKind says: the selections to publish with their chance of being
// paid, in the order of its selections. Every selection not returned is
// below the threshold at. It is called only for the rounds after the deal
// that offer the market. The winners and the categories are read from the
// board counts; any other rule of the boards walks them
// (ChancesOverBoards).
func (m MarketSpec) Chances(src ChanceSource, at money.BasisPoints) ([]Chance, error) {
	switch r := m.Rule; {
	case r.Kind == GradePlacedWithin && r.Within == 1:
		b, err := src.Boards()
		if err != nil {
			return nil, err
		}
		out := make([]Chance, 0, len(b.Winners))
		for i, paid := range b.Winners {
			out = append(out, Chance{Selection: Selection{Market: m.Name, Position: i + 1}, Paid: paid, Of: b.Boards})
		}
		return out, nil
	case r.Kind == GradeCategoryIs:
		b, err := src.Boards()
		if err != nil {
			return nil, err
		}
		out := make([]Chance, 0, NumCombinations)
		for c, paid := range b.Categories {
			out = append(out, Chance{Selection: Selection{Market: m.Name, Combination: Combination(c)}, Paid: paid, Of: b.Boards})
		}
		return out, nil
	case r.Chances() == ChancesCoupons:
		return couponChances(m, src, at)
	}
	return ChancesOverBoards(m, src, at)
}

// couponChances lists the coupons whose chance of guessing at least two
// legs reaches at.
func couponChances(m MarketSpec, src ChanceSource, at money.BasisPoints) ([]Chance, error) {
	if m.Rule.Kind != GradeCouponLegs {
		return nil, errs.E(errs.Internal, "market %s: coupons are counted for a coupon rule, not %s", m.Name, m.Rule)
	}
	cs, err := src.CouponsAtLeast(at)
	if err != nil {
		return nil, err
	}
	out := make([]Chance, 0, len(cs))
	for _, c := range cs {
		out = append(out, Chance{Selection: Selection{Market: m.Name, Coupon: c.Coupon}, Paid: c.Paid, Of: c.Of})
	}
	return out, nil
}
