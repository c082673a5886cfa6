package tote

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// Verification is what recomputing a finished draw from its revealed seeds
// found.
type Verification struct {
	// CommitmentValid: SHA-256 of the revealed server seed is the
	// commitment published when the draw opened.
	CommitmentValid bool
	// CardsMatch: the deck recomputed from the seeds deals exactly the
	// published cards, and the published winners, category and leaders
	// follow from them.
	CardsMatch bool
	// PayoutsMatch: every pool recomputed from its bets gives the published
	// figures, coefficients and payouts.
	PayoutsMatch bool
	Problems     []string
}

// VerifyResult recomputes a published result (SPEC 1.8): the deck from the
// seeds against the commitment, the deal, the outcome, and every pool from
// its bets with the published settings and jackpot. It needs nothing but
// the result, so anyone holding the published JSON can run it
// (cmd/verify-draw does).
func VerifyResult(res DrawResult) Verification {
	v := Verification{}
	problem := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
	deck, ok := verifyDeck(res, &v, problem)
	if ok {
		v.CardsMatch = verifyCards(res, deck, problem)
	}
	v.PayoutsMatch = verifyPools(res, problem)
	return v
}

// verifyDeck checks the seeds and recomputes the deck.
func verifyDeck(res DrawResult, v *Verification, problem func(string, ...any)) (cards.Deck, bool) {
	seed, err := cards.ParseSeed(res.ServerSeed)
	if err != nil {
		problem("server seed: %v", err)
		return cards.Deck{}, false
	}
	commitment, err := cards.ParseCommitment(res.Commitment)
	if err != nil {
		problem("commitment: %v", err)
		return cards.Deck{}, false
	}
	if c := cards.Commitment(seed); c != commitment {
		problem("SHA-256 of the server seed is %s, the published commitment is %s", cards.FormatCommitment(c), res.Commitment)
		return cards.Deck{}, false
	}
	v.CommitmentValid = true
	if res.PublicSeed == "" {
		if len(res.Pockets) > 0 {
			problem("cards were dealt but no public seed is published")
		}
		return cards.Deck{}, false
	}
	public, err := hex.DecodeString(res.PublicSeed)
	if err != nil {
		problem("public seed is not hexadecimal")
		return cards.Deck{}, false
	}
	return cards.Shuffle(seed, public), true
}

// verifyCards compares the published cards and outcome with the deal.
func verifyCards(res DrawResult, deck cards.Deck, problem func(string, ...any)) bool {
	if res.Positions < cards.MinPositions || res.Positions > cards.MaxPositions {
		problem("a table of %d positions cannot exist", res.Positions)
		return false
	}
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		problem(format, args...)
	}
	deal := cards.DealTote(deck, res.Positions)
	board := deal.Board()
	same := func(what string, got, want []string) {
		if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
			bad("%s: published %v, the seeds deal %v", what, got, want)
		}
	}
	if len(res.Pockets) > res.Positions {
		bad("%d pockets published for %d positions", len(res.Pockets), res.Positions)
	}
	for i, p := range res.Pockets[:min(len(res.Pockets), res.Positions)] {
		same(fmt.Sprintf("pocket of position %d", i+1), p, cardStrings(deal.Pockets[i][:]))
	}
	same("board", res.Board, cardStrings(board[:]))
	same("burned cards", res.Burns, cardStrings(deal.Burns[:]))
	if !res.Void {
		o := OutcomeOf(deal)
		if !slices.Equal(o.Winners, res.Winners) || o.Category != res.Category ||
			!slices.Equal(o.FlopLeaders, res.FlopLeaders) || !slices.Equal(o.TurnLeaders, res.TurnLeaders) {
			bad("outcome: published winners %v (%s), leaders %v/%v; the cards give %v (%s), %v/%v",
				res.Winners, res.Category, res.FlopLeaders, res.TurnLeaders, o.Winners, o.Category, o.FlopLeaders, o.TurnLeaders)
		}
	}
	return ok
}

// verifyPools recomputes every pool and compares it with the published one.
func verifyPools(res DrawResult, problem func(string, ...any)) bool {
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		problem(format, args...)
	}
	cfg := PoolConfig{
		Commission: res.Commission, JackpotEnabled: res.JackpotEnabled, JackpotRate: res.JackpotRate,
		ExpressShare1: res.ExpressShares[0], ExpressShare2: res.ExpressShares[1],
	}
	outcome := Outcome{Winners: res.Winners, Category: res.Category, FlopLeaders: res.FlopLeaders, TurnLeaders: res.TurnLeaders}
	jackpot := res.JackpotBefore
	for _, pr := range res.Pools {
		if !res.Void && pr.JackpotBefore != jackpot {
			bad("pool %s: settled against a jackpot of %s, the pools before it leave %s", pr.PoolID, pr.JackpotBefore, jackpot)
		}
		pool, err := poolFromResult(pr, res.Positions, cfg)
		if err != nil {
			bad("pool %s: %v", pr.PoolID, err)
			continue
		}
		var st PoolSettlement
		if res.Void {
			st, err = VoidPool(pool)
		} else {
			st, err = SettlePool(pool, outcome, pr.JackpotBefore)
		}
		if err != nil {
			bad("pool %s: %v", pr.PoolID, err)
			continue
		}
		for _, d := range diffPool(pr, newPoolResult(st, betsOfResult(pr), pr.JackpotBefore)) {
			bad("pool %s: %s", pr.PoolID, d)
		}
		jackpot += st.JackpotChange()
	}
	if !res.Void && jackpot != res.JackpotAfter {
		bad("the pools leave a jackpot of %s, published %s", jackpot, res.JackpotAfter)
	}
	return ok
}

// poolFromResult rebuilds a pool's settlement input from its published bets.
func poolFromResult(pr PoolResult, positions int, cfg PoolConfig) (Pool, error) {
	p := Pool{ID: pr.PoolID, Market: pr.Market, Round: pr.Round, Positions: positions, Config: cfg}
	for _, b := range pr.Bets {
		sel, err := ParseSelection(pr.Market, b.Selection)
		if err != nil {
			return Pool{}, err
		}
		p.Bets = append(p.Bets, PoolBet{ID: betIDString(b.ID), Player: "0", Stake: b.Stake, Selection: sel})
	}
	return p, nil
}

// betsOfResult turns published bets back into bets for newPoolResult.
func betsOfResult(pr PoolResult) []Bet {
	out := make([]Bet, len(pr.Bets))
	for i, b := range pr.Bets {
		sel, _ := ParseSelection(pr.Market, b.Selection)
		out[i] = Bet{ID: b.ID, Stake: b.Stake, Selection: sel}
	}
	return out
}

// diffPool lists the figures in which a published pool differs from its
// recomputation.
func diffPool(got, want PoolResult) []string {
	var out []string
	amount := func(name string, g, w money.Amount) {
		if g != w {
			out = append(out, fmt.Sprintf("%s published %s, recomputed %s", name, g, w))
		}
	}
	amount("gross", got.Gross, want.Gross)
	amount("commission", got.Commission, want.Commission)
	amount("jackpot contribution", got.JackpotContribution, want.JackpotContribution)
	amount("net", got.Net, want.Net)
	amount("paid", got.Paid, want.Paid)
	amount("breakage", got.Breakage, want.Breakage)
	amount("minus-pool top-up", got.TopUp, want.TopUp)
	amount("jackpot paid", got.JackpotPaid, want.JackpotPaid)
	amount("rollover", got.Rollover, want.Rollover)
	amount("refunds", got.Refunds, want.Refunds)
	if got.Refunded != want.Refunded || got.NumBets != want.NumBets {
		out = append(out, fmt.Sprintf("refunded/bets published %v/%d, recomputed %v/%d", got.Refunded, got.NumBets, want.Refunded, want.NumBets))
	}
	if !slices.Equal(got.Categories, want.Categories) {
		out = append(out, fmt.Sprintf("categories published %+v, recomputed %+v", got.Categories, want.Categories))
	}
	if !slices.Equal(got.Winning, want.Winning) {
		out = append(out, fmt.Sprintf("winning selections published %v, recomputed %v", got.Winning, want.Winning))
	}
	for i := range min(len(got.Bets), len(want.Bets)) {
		if got.Bets[i] != want.Bets[i] {
			out = append(out, fmt.Sprintf("bet %d published %+v, recomputed %+v", got.Bets[i].ID, got.Bets[i], want.Bets[i]))
		}
	}
	return out
}

// VerifyDraw recomputes a finished draw: VerifyResult on its published
// result, plus the bets as stored against the bets the result publishes
// (every stored bet is in its pool exactly once, with the published stake,
// selection and payout, and a status that matches).
func (s *Service) VerifyDraw(ctx context.Context, id int64) (Draw, Verification, error) {
	d, err := s.store.Draw(ctx, id)
	if err != nil {
		return Draw{}, Verification{}, err
	}
	if !d.Phase.Finished() || d.Result == nil {
		return Draw{}, Verification{}, errs.R(errs.Conflict, "DRAW_NOT_FINISHED", "draw #%d is not over yet: its seed is still secret", d.Number)
	}
	v := VerifyResult(*d.Result)
	if d.Result.Commitment != cards.FormatCommitment(d.Commitment) {
		v.CommitmentValid = false
		v.Problems = append(v.Problems, "the result's commitment is not the one published when the draw opened")
	}
	bets, err := s.store.DrawBets(ctx, id)
	if err != nil {
		return Draw{}, Verification{}, err
	}
	for _, p := range compareStoredBets(*d.Result, bets) {
		v.PayoutsMatch = false
		v.Problems = append(v.Problems, p)
	}
	return d, v, nil
}

// compareStoredBets lists the differences between stored bets and the
// bets a result publishes.
func compareStoredBets(res DrawResult, bets []Bet) []string {
	published := map[int64]ResultBet{}
	pools := map[int64]string{}
	var out []string
	for _, p := range res.Pools {
		for _, b := range p.Bets {
			if _, dup := published[b.ID]; dup {
				out = append(out, fmt.Sprintf("bet %d is published twice", b.ID))
			}
			published[b.ID], pools[b.ID] = b, p.PoolID
		}
	}
	for _, b := range bets {
		rb, ok := published[b.ID]
		delete(published, b.ID)
		want := BetLost
		switch {
		case rb.Refund:
			want = BetRefunded
		case rb.Payout > 0:
			want = BetWon
		}
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("bet %d is not in the published result", b.ID))
		case pools[b.ID] != PoolID(b.DrawID, b.Round, b.Selection.Market) || rb.Stake != b.Stake || rb.Selection != b.Selection.String():
			out = append(out, fmt.Sprintf("bet %d is published as %s %s %s, stored as %s %s %s", b.ID, pools[b.ID], rb.Selection, rb.Stake, PoolID(b.DrawID, b.Round, b.Selection.Market), b.Selection, b.Stake))
		case rb.Payout != b.Payout || b.Status != want:
			out = append(out, fmt.Sprintf("bet %d returned %s (%s), the result says %s (%s)", b.ID, b.Payout, b.Status, rb.Payout, want))
		}
	}
	for id := range published {
		out = append(out, fmt.Sprintf("published bet %d is not stored", id))
	}
	return out
}
