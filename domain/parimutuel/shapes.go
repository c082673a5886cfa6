package parimutuel

import (
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// Shape is how a market's selection is held in a Selection (which one
// field), checked against a table, written, read back and listed. Markets
// share shapes: a new market of positions uses PositionShape and writes
// no code for its selections. The three shapes are the package's values;
// a Shape cannot be built elsewhere.
type Shape struct {
	name     string
	validate func(s Selection, n int) error
	format   func(s Selection) string
	parse    func(m Market, text string) (Selection, bool)
	all      func(m Market, n int) []Selection
	listed   bool
}

// Name is the shape's stable name: POSITION, CATEGORY or COUPON.
func (s *Shape) Name() string { return s.name }

// The selection shapes.
var (
	// PositionShape: one position 1..n in Selection.Position, written "3".
	PositionShape = &Shape{name: "POSITION", validate: validatePosition, format: formatPosition, parse: parsePositionSel, all: allPositions, listed: true}
	// CategoryShape: a hand category in Selection.Combination, written by
	// its name, "FLUSH".
	CategoryShape = &Shape{name: "CATEGORY", validate: validateCategory, format: formatCategory, parse: parseCategorySel, all: allCategories, listed: true}
	// CouponShape: three positions (flop leader, turn leader, river
	// winner) in Selection.Coupon, written "2-5-5". Its n³ selections are
	// not listed as rows.
	CouponShape = &Shape{name: "COUPON", validate: validateCoupon, format: formatCoupon, parse: parseCouponSel, all: allCoupons, listed: false}
)

// shapeError is the error of a selection that sets another shape's field.
func shapeError(s Selection) error {
	return errs.R(errs.Invalid, ReasonInvalidSelection, "a %s selection sets only its own field", s.Market)
}

// checkPosition reports POSITION_OUT_OF_RANGE unless p is 1..n.
func checkPosition(what string, p, n int) error {
	if p < 1 || p > n {
		return errs.R(errs.Invalid, ReasonPositionOutOfRange, "%s %d is not on this table: positions are 1 to %d", what, p, n)
	}
	return nil
}

func validatePosition(s Selection, n int) error {
	if s.Combination != 0 || s.Coupon != (Coupon{}) {
		return shapeError(s)
	}
	return checkPosition("position", s.Position, n)
}

func formatPosition(s Selection) string { return strconv.Itoa(s.Position) }

func parsePositionSel(m Market, text string) (Selection, bool) {
	p, ok := parsePosition(text)
	if !ok {
		return Selection{}, false
	}
	return Selection{Market: m, Position: p}, true
}

func allPositions(m Market, n int) []Selection {
	out := make([]Selection, 0, n)
	for p := 1; p <= n; p++ {
		out = append(out, Selection{Market: m, Position: p})
	}
	return out
}

func validateCategory(s Selection, _ int) error {
	if s.Position != 0 || s.Coupon != (Coupon{}) {
		return shapeError(s)
	}
	if !validCombination(s.Combination) {
		return errs.R(errs.Invalid, ReasonInvalidSelection, "hand category %d does not exist: categories are HIGH_CARD to ROYAL_FLUSH", int(s.Combination))
	}
	return nil
}

func formatCategory(s Selection) string { return s.Combination.String() }

func parseCategorySel(m Market, text string) (Selection, bool) {
	c, err := hand.ParseCategory(text)
	if err != nil {
		return Selection{}, false
	}
	return Selection{Market: m, Combination: c}, true
}

func allCategories(m Market, _ int) []Selection {
	out := make([]Selection, 0, NumCombinations)
	for c := range NumCombinations {
		out = append(out, Selection{Market: m, Combination: Combination(c)})
	}
	return out
}

func validateCoupon(s Selection, n int) error {
	if s.Position != 0 || s.Combination != 0 {
		return shapeError(s)
	}
	if err := checkPosition("flop leader", s.Coupon.Flop, n); err != nil {
		return err
	}
	if err := checkPosition("turn leader", s.Coupon.Turn, n); err != nil {
		return err
	}
	return checkPosition("river winner", s.Coupon.River, n)
}

func formatCoupon(s Selection) string {
	c := s.Coupon
	return strconv.Itoa(c.Flop) + "-" + strconv.Itoa(c.Turn) + "-" + strconv.Itoa(c.River)
}

func parseCouponSel(m Market, text string) (Selection, bool) {
	parts := strings.Split(text, "-")
	if len(parts) != 3 {
		return Selection{}, false
	}
	var ps [3]int
	for i, part := range parts {
		p, ok := parsePosition(part)
		if !ok {
			return Selection{}, false
		}
		ps[i] = p
	}
	return Selection{Market: m, Coupon: Coupon{Flop: ps[0], Turn: ps[1], River: ps[2]}}, true
}

// allCoupons lists the coupons by flop leader, then turn leader, then
// river winner.
func allCoupons(m Market, n int) []Selection {
	out := make([]Selection, 0, n*n*n)
	for f := 1; f <= n; f++ {
		for t := 1; t <= n; t++ {
			for r := 1; r <= n; r++ {
				out = append(out, Selection{Market: m, Coupon: Coupon{Flop: f, Turn: t, River: r}})
			}
		}
	}
	return out
}
