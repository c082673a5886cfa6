package tote

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// SuspendAtMax is the highest SUSPEND_AT a table may have, and its
// default: a selection whose exact chance of being paid is at least 90 %
// when its round opens takes no bet in that round (SPEC 1.9).
const SuspendAtMax money.BasisPoints = 9000

// SuspendAtMin is the lowest SUSPEND_AT an admin may set: 50 %, below which
// a favourite of every two-position deal would be suspended.
const SuspendAtMin money.BasisPoints = 5000

// SelectionChance is one selection's exact chance of being paid in a
// round, as fixed when the round opened: Paid of Of equally likely boards
// (WIN, COMBINATION) or deals of flop, turn and river (EXPRESS).
type SelectionChance struct {
	Market    parimutuel.Market `json:"market"`
	Selection string            `json:"selection"` // parimutuel.Selection.String
	Paid      int64             `json:"paid"`
	Of        int64             `json:"of"`
}

// Probability is the chance for display.
func (c SelectionChance) Probability() float64 { return odds.Chance{Paid: c.Paid, Of: c.Of}.Float() }

// SuspendedAt reports whether the chance reaches the threshold at, exactly.
func (c SelectionChance) SuspendedAt(at money.BasisPoints) bool {
	return odds.Chance{Paid: c.Paid, Of: c.Of}.AtLeast(int64(at))
}

// RoundChances is what a betting round opened with: the chances each market
// offered in the round publishes (its spec's Chances rule), in the
// registry's order: every WIN position's and every COMBINATION category's
// chance, and the EXPRESS coupons whose chance reaches the threshold (every
// coupon not listed is below it). The pre-deal round has none: every
// position is symmetric there (SPEC 1.9).
type RoundChances struct {
	Round   parimutuel.Round  `json:"round"`
	Chances []SelectionChance `json:"chances"`
}

// Suspended lists the chances at or above at.
func (rc RoundChances) Suspended(at money.BasisPoints) []SelectionChance {
	var out []SelectionChance
	for _, c := range rc.Chances {
		if c.SuspendedAt(at) {
			out = append(out, c)
		}
	}
	return out
}

// ChancesAtOpening computes the chances round r opens with, for the
// pockets and the board dealt before it (round 2: no board; 3: the flop;
// 4: the turn), by exact enumeration of every unseen card: each production
// market offered in r, in order, adds the chances its spec's Chances rule
// publishes (every WIN position and COMBINATION category, the EXPRESS
// coupons reaching at). It is pure: the dealer runs it before the
// transaction that opens the round, the verifiers after the draw; both go
// through odds' cache of recent deals, which the live odds of the same
// cards share.
func ChancesAtOpening(pockets [][2]cards.Card, board []cards.Card, r parimutuel.Round, at money.BasisPoints) (RoundChances, error) {
	return ChancesAtOpeningIn(parimutuel.Production(), pockets, board, r, at)
}

// ChancesAtOpeningIn is ChancesAtOpening for the markets of reg.
func ChancesAtOpeningIn(reg *parimutuel.Registry, pockets [][2]cards.Card, board []cards.Card, r parimutuel.Round, at money.BasisPoints) (RoundChances, error) {
	want := map[parimutuel.Round]int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}
	if n, ok := want[r]; !ok || len(board) != n {
		return RoundChances{}, errs.E(errs.Invalid, "round %s opens with no chances computed from a board of %d cards", r, len(board))
	}
	src := &oddsSource{pockets: pockets, board: board, round: r}
	rc := RoundChances{Round: r}
	for _, m := range reg.Offered(r) {
		cs, err := m.Chances(src, at)
		if err != nil {
			return RoundChances{}, err
		}
		for _, c := range cs {
			if c.Selection.Market != m.Name {
				return RoundChances{}, errs.E(errs.Internal, "market %s published a chance of a %s selection", m.Name, c.Selection.Market)
			}
			rc.Chances = append(rc.Chances, SelectionChance{Market: m.Name, Selection: m.Format(c.Selection), Paid: c.Paid, Of: c.Of})
		}
	}
	return rc, nil
}

// oddsSource is a round's parimutuel.ChanceSource over domain/odds: the
// board enumeration is computed once, on first use, through odds' shared
// cache.
type oddsSource struct {
	pockets [][2]cards.Card
	board   []cards.Card
	round   parimutuel.Round
	res     *odds.Result
}

func (s *oddsSource) Round() parimutuel.Round { return s.round }
func (s *oddsSource) Positions() int          { return len(s.pockets) }

// result is the round's board enumeration.
func (s *oddsSource) result() (*odds.Result, error) {
	if s.res == nil {
		res, err := odds.ComputeShared(s.pockets, s.board)
		if err != nil {
			return nil, err
		}
		s.res = res
	}
	return s.res, nil
}

func (s *oddsSource) Boards() (parimutuel.BoardCounts, error) {
	res, err := s.result()
	if err != nil {
		return parimutuel.BoardCounts{}, err
	}
	b := parimutuel.BoardCounts{Boards: res.Boards, Winners: make([]int64, len(res.Positions)), Categories: res.Categories}
	for i, p := range res.Positions {
		b.Winners[i] = p.Wins + p.Ties
	}
	return b, nil
}

func (s *oddsSource) CouponsAtLeast(at money.BasisPoints) ([]parimutuel.CouponChance, error) {
	if len(s.board) != 0 {
		return nil, errs.E(errs.Internal, "coupons are counted before the flop, not with a board of %d cards", len(s.board))
	}
	res, err := s.result()
	if err != nil {
		return nil, err
	}
	may, err := odds.ExpressCanReach(s.pockets, res, int64(at))
	if err != nil || !may {
		return nil, err
	}
	x, err := odds.ComputeExpressShared(s.pockets)
	if err != nil {
		return nil, err
	}
	var out []parimutuel.CouponChance
	n := len(s.pockets)
	for f := range n {
		for t := range n {
			for rv := range n {
				if ch := x.Paid(f, t, rv); ch.AtLeast(int64(at)) {
					out = append(out, parimutuel.CouponChance{Coupon: parimutuel.Coupon{Flop: f + 1, Turn: t + 1, River: rv + 1}, Paid: ch.Paid, Of: ch.Of})
				}
			}
		}
	}
	return out, nil
}

// EachBoard walks every completion of the board, in the order of the
// unseen cards, and hands fn its outcome after the river.
func (s *oddsSource) EachBoard(fn func(o parimutuel.Outcome)) error {
	n := len(s.pockets)
	if n < cards.MinPositions || n > cards.MaxPositions || len(s.board) > 5 {
		return errs.E(errs.Invalid, "%d pockets and a board of %d cards are no table", n, len(s.board))
	}
	var seen [cards.NumCards]bool
	mark := func(c cards.Card) error {
		if int(c) >= cards.NumCards || seen[c] {
			return errs.E(errs.Invalid, "card %v is dealt twice or does not exist", c)
		}
		seen[c] = true
		return nil
	}
	for _, p := range s.pockets {
		if err := errors.Join(mark(p[0]), mark(p[1])); err != nil {
			return err
		}
	}
	for _, c := range s.board {
		if err := mark(c); err != nil {
			return err
		}
	}
	var unseen []cards.Card
	for c := range cards.NumCards {
		if !seen[c] {
			unseen = append(unseen, cards.Card(c))
		}
	}
	var full [5]cards.Card
	copy(full[:], s.board)
	o := parimutuel.Outcome{Hands: make([]hand.Value, n)}
	var walk func(k, from int)
	walk = func(k, from int) {
		if k == 5 {
			var best hand.Value
			o.Winners = o.Winners[:0]
			for i, p := range s.pockets {
				v := hand.Eval7(p[0], p[1], full[0], full[1], full[2], full[3], full[4])
				o.Hands[i] = v
				switch {
				case v > best:
					best, o.Winners = v, append(o.Winners[:0], i+1)
				case v == best:
					o.Winners = append(o.Winners, i+1)
				}
			}
			o.Category = best.Category()
			fn(o)
			return
		}
		for i := from; i < len(unseen); i++ {
			full[k] = unseen[i]
			walk(k+1, i+1)
		}
	}
	walk(len(s.board), 0)
	return nil
}

// Suspended reports whether sel is suspended in round r of the draw, with
// its chance: the round opened with a chance for it at or above the draw's
// SUSPEND_AT.
func (d *Draw) Suspended(r parimutuel.Round, sel parimutuel.Selection) (SelectionChance, bool) {
	if len(d.Chances) == 0 {
		return SelectionChance{}, false
	}
	return d.SuspendedAs(r, sel.Market, sel.String())
}

// SuspendedAs is Suspended for the selection of market m written text (in
// its canonical form).
func (d *Draw) SuspendedAs(r parimutuel.Round, m parimutuel.Market, text string) (SelectionChance, bool) {
	if len(d.Chances) == 0 {
		return SelectionChance{}, false
	}
	for _, rc := range d.Chances {
		if rc.Round != r {
			continue
		}
		for _, c := range rc.Chances {
			if c.Market == m && c.Selection == text {
				return c, c.SuspendedAt(d.EffectiveSuspendAt())
			}
		}
	}
	return SelectionChance{}, false
}

// EffectiveSuspendAt is the draw's SUSPEND_AT; a draw stored before it had one
// (zero) has the default.
func (d *Draw) EffectiveSuspendAt() money.BasisPoints {
	if d.SuspendAt == 0 {
		return SuspendAtMax
	}
	return d.SuspendAt
}

// checkNotSuspended refuses a bet on a suspended selection (SPEC 1.9).
func checkNotSuspended(d Draw, r parimutuel.Round, sel parimutuel.Selection) error {
	c, ok := d.Suspended(r, sel)
	if !ok {
		return nil
	}
	return errs.R(errs.Conflict, ReasonSelectionSuspended,
		"%s %s is suspended in round %s: it is paid with a chance of %.2f %% (%d of %d), at or above this draw's %s (SPEC 1.9)",
		sel.Market, sel, r, 100*c.Probability(), c.Paid, c.Of, FormatPercent(d.EffectiveSuspendAt()))
}

// CheckSuspendAt reports an Invalid error (INVALID_SUSPEND_AT) unless at is
// 50.00 % to 90.00 %.
func CheckSuspendAt(at money.BasisPoints) error {
	if at < SuspendAtMin || at > SuspendAtMax {
		return errs.R(errs.Invalid, ReasonInvalidSuspendAt, "SUSPEND_AT is %s: it must be %s to %s", FormatPercent(at), FormatPercent(SuspendAtMin), FormatPercent(SuspendAtMax))
	}
	return nil
}

// FormatChances is the stored form of a draw's chances: one entry per
// selection, "round market selection paid/of", separated by ";". Selections
// contain no space or ";".
func FormatChances(rcs []RoundChances) string {
	var b strings.Builder
	for _, rc := range rcs {
		for _, c := range rc.Chances {
			if b.Len() > 0 {
				b.WriteByte(';')
			}
			fmt.Fprintf(&b, "%d %s %s %d/%d", rc.Round, c.Market, c.Selection, c.Paid, c.Of)
		}
	}
	return b.String()
}

// ParseChances reads FormatChances' form back.
func ParseChances(s string) ([]RoundChances, error) {
	if s == "" {
		return nil, nil
	}
	var out []RoundChances
	for _, e := range strings.Split(s, ";") {
		f := strings.Fields(e)
		if len(f) != 4 {
			return nil, errs.E(errs.Internal, "stored chance %q is not 'round market selection paid/of'", e)
		}
		r, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, errs.E(errs.Internal, "stored chance %q: %v", e, err)
		}
		p, o, ok := strings.Cut(f[3], "/")
		paid, err1 := strconv.ParseInt(p, 10, 64)
		of, err2 := strconv.ParseInt(o, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, errs.E(errs.Internal, "stored chance %q: paid/of", e)
		}
		if len(out) == 0 || out[len(out)-1].Round != parimutuel.Round(r) {
			out = append(out, RoundChances{Round: parimutuel.Round(r)})
		}
		last := &out[len(out)-1]
		last.Chances = append(last.Chances, SelectionChance{Market: parimutuel.Market(f[1]), Selection: f[2], Paid: paid, Of: of})
	}
	return out, nil
}
