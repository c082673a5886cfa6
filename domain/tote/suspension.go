package tote

import (
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

// RoundChances is what a betting round opened with: every WIN position's
// and every COMBINATION category's chance, and the EXPRESS coupons whose
// chance reaches the threshold (every coupon not listed is below it). The
// pre-deal round has none: every position is symmetric there (SPEC 1.9).
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
// 4: the turn), by exact enumeration of every unseen card, and keeps the
// EXPRESS coupons reaching at. It is pure: the dealer runs it before the
// transaction that opens the round, the verifiers after the draw; both go
// through odds' cache of recent deals, which the live odds of the same
// cards share.
func ChancesAtOpening(pockets [][2]cards.Card, board []cards.Card, r parimutuel.Round, at money.BasisPoints, workers int) (RoundChances, error) {
	want := map[parimutuel.Round]int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}
	if n, ok := want[r]; !ok || len(board) != n {
		return RoundChances{}, errs.E(errs.Invalid, "round %s opens with no chances computed from a board of %d cards", r, len(board))
	}
	res, err := odds.ComputeShared(pockets, board, workers)
	if err != nil {
		return RoundChances{}, err
	}
	rc := RoundChances{Round: r}
	for i, p := range res.Positions {
		rc.Chances = append(rc.Chances, SelectionChance{Market: parimutuel.MarketWin, Selection: strconv.Itoa(i + 1), Paid: p.Wins + p.Ties, Of: res.Boards})
	}
	for c := range hand.NumCategories {
		rc.Chances = append(rc.Chances, SelectionChance{Market: parimutuel.MarketCombination, Selection: hand.Category(c).String(), Paid: res.Categories[c], Of: res.Boards})
	}
	if !parimutuel.MarketExpress.Offers(r) {
		return rc, nil
	}
	may, err := odds.ExpressCanReach(pockets, res, int64(at))
	if err != nil || !may {
		return rc, err
	}
	x, err := odds.ComputeExpressShared(pockets, workers)
	if err != nil {
		return RoundChances{}, err
	}
	n := len(pockets)
	for f := range n {
		for t := range n {
			for rv := range n {
				if ch := x.Paid(f, t, rv); ch.AtLeast(int64(at)) {
					rc.Chances = append(rc.Chances, SelectionChance{Market: parimutuel.MarketExpress,
						Selection: parimutuel.ExpressSelection(f+1, t+1, rv+1).String(), Paid: ch.Paid, Of: ch.Of})
				}
			}
		}
	}
	return rc, nil
}

// Suspended reports whether sel is suspended in round r of the draw, with
// its chance: the round opened with a chance for it at or above the draw's
// SUSPEND_AT.
func (d *Draw) Suspended(r parimutuel.Round, sel parimutuel.Selection) (SelectionChance, bool) {
	if len(d.Chances) == 0 {
		return SelectionChance{}, false
	}
	s := sel.String()
	for _, rc := range d.Chances {
		if rc.Round != r {
			continue
		}
		for _, c := range rc.Chances {
			if c.Market == sel.Market && c.Selection == s {
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
