package verify

import (
	"fmt"
	"reflect"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// verifySuspensions recomputes, from the published cards, the chances of
// every round that opened after the deal (round 2 once every pocket is
// out, 3 with the flop, 4 with the turn: each opens in the step that deals
// its cards), compares them with the published ones, and fails the draw
// when a pool took a bet on a selection at or above its SUSPEND_AT. A
// result without SUSPEND_AT predates SPEC 1.9 and is not checked; from
// ResultVersionCommitted on every result is written with it, so one that
// drops it (to hide a bet on a suspended selection) fails.
func (vf Verifier) verifySuspensions(res tote.DrawResult, problem func(string, ...any)) bool {
	if res.SuspendAt == 0 && len(res.Chances) == 0 {
		if res.Version >= tote.ResultVersionCommitted {
			problem("suspension: a version-%d result must publish suspendAt and the rounds' chances", res.Version)
			return false
		}
		return true
	}
	c := checker{problem: problem}
	bad := c.bad
	if err := tote.CheckSuspendAt(res.SuspendAt); err != nil {
		bad("suspension: %v", err)
		return false
	}
	want, err := vf.recomputeChances(res)
	if err != nil {
		bad("suspension: %v", err)
		return false
	}
	return vf.checkSuspensions(res, want, problem) && c.ok()
}

// recomputeChances computes, from the result's cards, the chances of every
// round that opened after the deal (for the production markets).
func recomputeChances(res tote.DrawResult) ([]tote.RoundChances, error) {
	return Verifier{}.recomputeChances(res)
}

// recomputeChances is recomputeChances by the verifier's markets.
func (vf Verifier) recomputeChances(res tote.DrawResult) ([]tote.RoundChances, error) {
	pockets, board, err := publishedCards(res)
	if err != nil {
		return nil, err
	}
	var want []tote.RoundChances
	for r := parimutuel.RoundPocket; r <= parimutuel.RoundTurn; r++ {
		n := []int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}[r]
		if len(pockets) < res.Positions || len(board) < n {
			break
		}
		rc, err := tote.ChancesAtOpeningIn(vf.markets(), pockets, board[:n], r, res.SuspendAt)
		if err != nil {
			return nil, fmt.Errorf("round %s: %w", r, err)
		}
		want = append(want, rc)
	}
	return want, nil
}

// checkSuspensions compares the published chances with want, the cards',
// and fails every pool that took a bet on a selection suspended by want
// (for the production markets).
func checkSuspensions(res tote.DrawResult, want []tote.RoundChances, problem func(string, ...any)) bool {
	return Verifier{}.checkSuspensions(res, want, problem)
}

// checkSuspensions is checkSuspensions by the verifier's markets.
func (vf Verifier) checkSuspensions(res tote.DrawResult, want []tote.RoundChances, problem func(string, ...any)) bool {
	reg := vf.markets()
	c := checker{problem: problem}
	bad := c.bad
	if !reflect.DeepEqual(normChances(res.Chances), normChances(want)) {
		bad("suspension: the published chances %s differ from the cards' %s", tote.FormatChances(res.Chances), tote.FormatChances(want))
	}
	d := tote.Draw{SuspendAt: res.SuspendAt, Chances: want}
	for _, p := range res.Pools {
		for _, s := range backedSelections(p) {
			sel, err := reg.ParseSelection(p.Market, s)
			if err != nil {
				continue // verifyPools reports it
			}
			if c, sus := d.SuspendedAs(p.Round, p.Market, reg.Format(sel)); sus {
				bad("suspension: pool %s took a bet on %s %s, suspended in round %s (paid %d of %d, at or above %s)",
					p.PoolID, p.Market, s, p.Round, c.Paid, c.Of, tote.FormatPercent(res.SuspendAt))
			}
		}
	}
	return c.ok()
}

// backedSelections lists the selections a published pool took bets on.
func backedSelections(p tote.PoolResult) []string {
	var out []string
	for _, b := range p.Bets {
		out = append(out, b.Selection)
	}
	for _, s := range p.Selections {
		if s.NumBets > 0 {
			out = append(out, s.Selection)
		}
	}
	return out
}

// parseCardStrings parses cards written one per string.
func parseCardStrings(ss []string) ([]cards.Card, error) {
	out := make([]cards.Card, 0, len(ss))
	for _, s := range ss {
		c, err := cards.Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// publishedCards parses the result's pockets and board.
func publishedCards(res tote.DrawResult) ([][2]cards.Card, []cards.Card, error) {
	var pockets [][2]cards.Card
	for i, p := range res.Pockets {
		cs, err := parseCardStrings(p)
		if err != nil || len(cs) != 2 {
			return nil, nil, fmt.Errorf("pocket of position %d: %v", i+1, p)
		}
		pockets = append(pockets, [2]cards.Card{cs[0], cs[1]})
	}
	board, err := parseCardStrings(res.Board)
	if err != nil {
		return nil, nil, fmt.Errorf("board %v: %w", res.Board, err)
	}
	return pockets, board, nil
}

// normChances makes an empty list and nil equal.
func normChances(rcs []tote.RoundChances) []tote.RoundChances {
	if len(rcs) == 0 {
		return nil
	}
	return rcs
}
