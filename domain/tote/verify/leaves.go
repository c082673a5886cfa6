package verify

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Every bet public (SPEC 1.8): a finished draw publishes each accepted
// bet as a leaf without identity (betroot.PublicLeaf), round by round in
// the order its round's root commits to them. CheckLeaves reads them one
// at a time, in memory bounded by the number of selections (a million
// bets take no more than ten), and recomputes from the bets themselves
// what the result only sums: each round's root, bet count and stakes, each
// selection's bets, stakes and exact payout (the sum of every bet's
// floor(stake × coefficient), where the totals alone allow a bound), and
// that every bet is one the draw could take: a canonical selection of the
// table, a stake within the committed terms, placed before its round
// closed and not before the street it bets on was drawn.

// LeafReader yields published leaves in order; io.EOF ends them.
type LeafReader func() (betroot.PublicLeaf, error)

// leafKey is a selection of a pool.
type leafKey struct {
	round     int
	market    string
	selection string
}

// leafSums are one selection's bets as its leaves sum them.
type leafSums struct {
	n      int
	stakes money.Amount
	payout money.Amount
}

// maxLeafProblems bounds the problem lines about single leaves: a result
// with a million bad leaves says so in a few lines, then counts them.
const maxLeafProblems = 20

// CheckLeaves checks res against its published leaves, read from next.
func CheckLeaves(res tote.DrawResult, next LeafReader) []string {
	return Verifier{}.CheckLeaves(res, next)
}

// CheckLeaves is CheckLeaves by the verifier's markets.
func (vf Verifier) CheckLeaves(res tote.DrawResult, next LeafReader) []string {
	var out []string
	rates, err := vf.leafRates(res)
	if err != nil {
		return []string{fmt.Sprintf("leaves: the pools cannot be recomputed: %v", err)}
	}
	sums := map[leafKey]*leafSums{}
	folders := map[int]*betroot.Folder{}
	round, n, bad := 0, 0, 0
	leafBad := func(format string, args ...any) {
		if bad++; bad <= maxLeafProblems {
			out = append(out, fmt.Sprintf("leaf %d: ", n)+fmt.Sprintf(format, args...))
		}
	}
	for {
		l, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return append(out, fmt.Sprintf("leaves: unreadable after %d: %v", n, err))
		}
		n++
		if l.Round < round {
			leafBad("of round %d after leaves of round %d: leaves come round by round", l.Round, round)
		}
		round = max(round, l.Round)
		h, err := l.Hash()
		if err != nil {
			leafBad("%v", err)
			continue
		}
		if why := vf.leafFits(res, l); why != "" {
			leafBad("%s", why)
		}
		f := folders[l.Round]
		if f == nil {
			f = betroot.NewFolder()
			folders[l.Round] = f
		}
		if err := f.Add(h, l.Stake); err != nil {
			return append(out, fmt.Sprintf("leaves: %v", err))
		}
		k := leafKey{l.Round, l.Market, l.Selection}
		s := sums[k]
		if s == nil {
			s = &leafSums{}
			sums[k] = s
		}
		s.n++
		s.stakes += money.Amount(l.Stake)
		if r, ok := rates[k]; ok {
			s.payout += r.pay(money.Amount(l.Stake))
		}
	}
	if bad > maxLeafProblems {
		out = append(out, fmt.Sprintf("leaves: %d more leaves with problems", bad-maxLeafProblems))
	}
	out = append(out, checkLeafRoots(res, folders)...)
	return append(out, checkLeafTotals(res, sums)...)
}

// leafRate is how a selection's bets are paid: refunded, or floor(stake ×
// coefficient) of each category it is in.
type leafRate struct {
	refund       bool
	coef1, coef2 money.Coef
}

func (r leafRate) pay(stake money.Amount) money.Amount {
	if r.refund {
		return stake
	}
	return r.coef1.Pay(stake) + r.coef2.Pay(stake)
}

// leafRates recomputes the rate of every published selection of a
// version-2 result.
func (vf Verifier) leafRates(res tote.DrawResult) (map[leafKey]leafRate, error) {
	if res.Version < tote.ResultVersionTotals {
		return nil, fmt.Errorf("a version-%d result lists its bets itself", res.Version)
	}
	cfg, outcome := resultConfig(res)
	out := map[leafKey]leafRate{}
	for _, pr := range res.Pools {
		_, rates, err := vf.selectionRates(pr, res.Positions, cfg, outcome, res.Void)
		if err != nil {
			return nil, fmt.Errorf("pool %s: %w", pr.PoolID, err)
		}
		for _, r := range rates {
			out[leafKey{int(pr.Round), string(pr.Market), r.Selection}] = leafRate{refund: r.Refund, coef1: r.Coef1, coef2: r.Coef2}
		}
	}
	return out, nil
}

// leafFits says why a leaf is no bet the draw could take ("" when it is):
// its selection not the canonical one of a market of its round and table;
// from fair deal 4 its stake outside the committed bounds, or its time
// not within its round: after the street it bets on was drawn (for rounds
// 2 to 4, the previous street's beacon round) and before its close.
func (vf Verifier) leafFits(res tote.DrawResult, l betroot.PublicLeaf) string {
	reg := vf.markets()
	sel, err := reg.ParseSelection(parimutuel.Market(l.Market), l.Selection)
	if err != nil || reg.Format(sel) != l.Selection || reg.CheckMarketRound(sel.Market, parimutuel.Round(l.Round)) != nil {
		return fmt.Sprintf("%s %q is not a selection of round %d", l.Market, l.Selection, l.Round)
	}
	if err := reg.ValidateSelection(sel, res.Positions); err != nil {
		return err.Error()
	}
	b := res.Beacons
	if b == nil || b.Version < tote.FairnessTerms {
		return ""
	}
	if l.Ref == "" {
		return "a fair deal 4 leaf carries a reference, not an id"
	}
	if t := b.Terms; t != nil && (money.Amount(l.Stake) < t.MinStake || money.Amount(l.Stake) > t.MaxStake) {
		return fmt.Sprintf("a stake of %s is outside the draw's %s to %s", money.Amount(l.Stake), t.MinStake, t.MaxStake)
	}
	if closes := b.ClosesAt[l.Round-1]; !l.PlacedAt.Before(closes) {
		return fmt.Sprintf("placed at %s, not before round %d closed at %s", l.PlacedAt.Format(tote.TimeLayout), l.Round, closes.Format(tote.TimeLayout))
	}
	if l.Round > 1 {
		if drawn := b.Chain.RoundTime(b.Rounds[l.Round-2]); l.PlacedAt.Before(drawn) {
			return fmt.Sprintf("placed at %s, before the %s it bets on was drawn (%s)", l.PlacedAt.Format(tote.TimeLayout), tote.StreetNames[l.Round-2], drawn.Format(time.RFC3339))
		}
	}
	return ""
}

// checkLeafRoots compares each round's folded leaves with its published
// root.
func checkLeafRoots(res tote.DrawResult, folders map[int]*betroot.Folder) []string {
	var out []string
	rooted := map[int]bool{}
	for _, want := range res.BetRoots {
		rooted[want.Round] = true
		f := folders[want.Round]
		if f == nil {
			f = betroot.NewFolder()
		}
		got, err := f.Root(want.Round)
		if err != nil {
			out = append(out, fmt.Sprintf("leaves of round %d: %v", want.Round, err))
			continue
		}
		if !betroot.Equal(got, want) {
			out = append(out, fmt.Sprintf("leaves of round %d: they fold to %s (%d bets, %d tiyn), the published root is %s (%d bets, %d tiyn)",
				want.Round, got.Root, got.NumBets, got.Stakes, want.Root, want.NumBets, want.Stakes))
		}
	}
	for r := range folders {
		if !rooted[r] && !openAtVoid(res, r) {
			out = append(out, fmt.Sprintf("leaves of round %d: the round has no published root", r))
		}
	}
	return out
}

// openAtVoid reports whether round r was open when res's draw was voided:
// its bets were refunded and it never got a root.
func openAtVoid(res tote.DrawResult, r int) bool {
	v := res.VoidDetail
	if !res.Void || v == nil {
		return false
	}
	switch v.Kind {
	case tote.VoidAdminBeforeDeal:
		return r == 1
	case tote.VoidBeaconEarly, tote.VoidRootLate:
		return r == v.Street
	}
	return false
}

// checkLeafTotals compares every published selection with the sums of its
// leaves: bets, stakes and the exact payout.
func checkLeafTotals(res tote.DrawResult, sums map[leafKey]*leafSums) []string {
	var out []string
	seen := map[leafKey]bool{}
	for _, pr := range res.Pools {
		for _, s := range pr.Selections {
			k := leafKey{int(pr.Round), string(pr.Market), s.Selection}
			seen[k] = true
			got := sums[k]
			if got == nil {
				out = append(out, fmt.Sprintf("pool %s: selection %s publishes %d bets, no leaf backs it", pr.PoolID, s.Selection, s.NumBets))
				continue
			}
			if got.n != s.NumBets || got.stakes != s.Stakes {
				out = append(out, fmt.Sprintf("pool %s: selection %s publishes %d bets staking %s, its leaves %d staking %s", pr.PoolID, s.Selection, s.NumBets, s.Stakes, got.n, got.stakes))
			} else if got.payout != s.Payout {
				out = append(out, fmt.Sprintf("pool %s: selection %s returned %s by its leaves' payouts, published %s", pr.PoolID, s.Selection, got.payout, s.Payout))
			}
		}
	}
	for k, s := range sums {
		if !seen[k] {
			out = append(out, fmt.Sprintf("leaves: %d bets on %s %s in round %d, which no pool publishes", s.n, k.market, k.selection, k.round))
		}
	}
	return out
}
