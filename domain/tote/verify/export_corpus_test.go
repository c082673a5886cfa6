package verify

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Resettle recomputes, after a tamper, everything of res that follows from
// its cards and its pools' selections, as a tamperer who knows the rules
// would: the outcome and hands, each selection's payout (its stakes at the
// coefficients), every pool's figures, the jackpot chain, the chances,
// and the commitment (from the seed, positions and beacons); with roots,
// each bet root's count and stakes, under a new root hash. The test
// corpus (testdata/fairness) is made with it: a tamper that survives it
// is caught only by a check a verifier makes, not by arithmetic left
// undone.
func Resettle(res *tote.DrawResult, roots bool) error {
	pockets, board, err := publishedCards(*res)
	if err != nil {
		return err
	}
	if !res.Void && len(board) == 5 && len(pockets) == res.Positions {
		deal := cards.ToteDeal{Pockets: pockets, Flop: [3]cards.Card(board[:3]), Turn: board[3], River: board[4]}
		o := parimutuel.OutcomeOf(deal)
		res.Winners, res.Category, res.FlopLeaders, res.TurnLeaders = o.Winners, o.Category, o.FlopLeaders, o.TurnLeaders
		res.Hands = tote.HandViews(pockets, board, o.Winners)
	}
	cfg, outcome := resultConfig(*res)
	jackpot := res.JackpotBefore
	for i := range res.Pools {
		pr := &res.Pools[i]
		if !res.Void {
			pr.JackpotBefore = jackpot
		}
		_, rates, err := selectionRates(*pr, res.Positions, cfg, outcome, res.Void)
		if err != nil {
			return err
		}
		for j := range pr.Selections {
			s, r := &pr.Selections[j], rates[j]
			s.Refund, s.Guessed = r.Refund, r.Guessed
			if r.Refund {
				s.Payout, s.Cat2 = s.Stakes, 0
			} else {
				s.Cat2 = r.Coef2.Pay(s.Stakes)
				s.Payout = r.Coef1.Pay(s.Stakes) + s.Cat2
			}
		}
		want, st, _, err := poolTotalsWant(*pr, res.Positions, cfg, outcome, res.Void)
		if err != nil {
			return err
		}
		want.Bets, want.Selections = nil, pr.Selections
		*pr = want
		jackpot += st.JackpotChange()
	}
	if !res.Void {
		res.JackpotAfter = jackpot
	}
	if res.SuspendAt != 0 {
		if res.Chances, err = recomputeChances(*res); err != nil {
			return err
		}
	}
	if roots {
		for i := range res.BetRoots {
			r := &res.BetRoots[i]
			r.NumBets, r.Stakes = 0, 0
			for _, p := range res.Pools {
				if int(p.Round) == r.Round {
					r.NumBets += p.NumBets
					r.Stakes += int64(p.Gross)
				}
			}
			h := sha256.Sum256([]byte(r.Root + "/re-committed"))
			r.Root = hex.EncodeToString(h[:])
		}
	}
	seed, err := cards.ParseSeed(res.ServerSeed)
	if err != nil {
		return err
	}
	c, err := tote.DrawCommitment(seed, res.Positions, res.Beacons)
	if err != nil {
		return err
	}
	res.Commitment = cards.FormatCommitment(c)
	return nil
}
