package verify

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Verification is what recomputing a finished draw from its published
// result found. Problems has one line per broken link; the draw verifies
// when it is empty.
type Verification struct {
	// CommitmentValid: SHA-256 of the revealed server seed is the
	// commitment published when the draw opened.
	CommitmentValid bool
	// BeaconsValid: the beacon chain is known, every committed round is the
	// first after its betting round's close, and every signature verifies
	// against the chain's key (version 2); for a version-1 draw, the public
	// seed is the hash of the published round-1 bets.
	BeaconsValid bool
	// Beacon names the chain the cards were drawn from: "quicknet", or
	// "local" (the server's own chain, which proves nothing to players),
	// or "" for a version-1 draw.
	Beacon string
	// CardsMatch: every street recomputed from the seed and its beacon
	// deals exactly the published cards, and the published hands, statuses,
	// winners, category and leaders follow from them.
	CardsMatch bool
	// PayoutsMatch: every pool recomputed from its bets gives the published
	// figures, coefficients and payouts.
	PayoutsMatch bool
	// SuspensionsMatch: each round's chances recomputed from the published
	// cards are the published ones, and no pool took a bet on a selection
	// its round opened suspended (SPEC 1.9; verify_suspension.go).
	SuspensionsMatch bool
	Problems         []string
}

// Verifier recomputes published results by the rules of a set of markets:
// how each market's selections are read, which rounds offer it, how its
// pools settle and what its rounds' chances are (parimutuel.MarketSpec).
// The zero Verifier reads the production markets, as Result and Draw do;
// a test of a market not yet offered gives its own registry.
type Verifier struct {
	// Markets is the registry the results' markets are looked up in; nil
	// is parimutuel.Production().
	Markets *parimutuel.Registry
}

// markets is the registry in force.
func (vf Verifier) markets() *parimutuel.Registry {
	if vf.Markets == nil {
		return parimutuel.Production()
	}
	return vf.Markets
}

// Result recomputes a published result (SPEC 1.8, docs/fairness.md):
// the commitment, the beacon chain, rounds and signatures, every street's
// cards, the hands and the outcome, and every pool from its bets with the
// published settings and jackpot. It needs nothing but the result, so
// anyone holding the published JSON can run it (cmd/verify-draw does).
func Result(res tote.DrawResult) Verification { return Verifier{}.Result(res) }

// Result is Result by the verifier's markets.
func (vf Verifier) Result(res tote.DrawResult) Verification {
	v := Verification{}
	problem := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
	if res.Positions < cards.MinPositions || res.Positions > cards.MaxPositions {
		problem("positions: a table of %d positions cannot exist", res.Positions)
		return v
	}
	canonical := verifyCanonical(res, problem)
	seed, ok := verifyCommitment(res, &v, problem)
	if !canonical {
		v.CommitmentValid = false
	}
	if ok {
		var deal cards.ToteDeal
		var streets int
		if res.Beacons != nil {
			deal, streets, v.BeaconsValid = verifyBeacons(res, seed, problem)
			v.Beacon = res.Beacons.Chain.Name
		} else {
			deal, streets, v.BeaconsValid = verifyPublicSeed(res, seed, problem)
		}
		v.CardsMatch = v.BeaconsValid && verifyCards(res, deal, streets, problem)
	}
	v.PayoutsMatch = vf.verifyPools(res, problem)
	if !verifyVoid(res, problem) {
		v.CardsMatch = false
	}
	if !verifyBetRoots(res, problem) {
		v.PayoutsMatch = false
	}
	v.SuspensionsMatch = vf.verifySuspensions(res, problem)
	return v
}

// verifyCommitment checks the revealed seed against the commitment.
func verifyCommitment(res tote.DrawResult, v *Verification, problem func(string, ...any)) (cards.Seed, bool) {
	seed, err := cards.ParseSeed(res.ServerSeed)
	if err != nil {
		problem("server seed: %v", err)
		return cards.Seed{}, false
	}
	commitment, err := cards.ParseCommitment(res.Commitment)
	if err != nil {
		problem("commitment: %v", err)
		return cards.Seed{}, false
	}
	c, err := tote.DrawCommitment(seed, res.Positions, res.Beacons)
	if err != nil {
		problem("commitment: %v", err)
		return cards.Seed{}, false
	}
	if c != commitment {
		what := "SHA-256 of the server seed"
		switch {
		case res.Beacons != nil && res.Beacons.Version >= tote.FairnessTerms:
			what = "the hash of the server seed, positions, beacon commitment and terms"
		case res.Beacons != nil && res.Beacons.Version >= tote.FairnessBound:
			what = "the hash of the server seed, positions and beacon commitment"
		}
		problem("commitment: %s is %s, the published commitment is %s", what, cards.FormatCommitment(c), res.Commitment)
		return cards.Seed{}, false
	}
	if !versionsAgree(res) {
		problem("versions: a result of version %d with a fair deal of version %d (results of version %d are of fair deal %d, of version %d of fair deal %d, earlier ones of %d or less)",
			res.Version, beaconsVersion(res), tote.ResultVersionTerms, tote.FairnessTerms, tote.ResultVersionBound, tote.FairnessBound, tote.FairnessPerStreet)
		return cards.Seed{}, false
	}
	v.CommitmentValid = true
	return seed, true
}

// beaconsVersion is the fair-deal version of res (1 without beacons).
func beaconsVersion(res tote.DrawResult) int {
	if res.Beacons == nil {
		return 1
	}
	return res.Beacons.Version
}

// versionsAgree reports whether res's result version and fair-deal version
// go together: results of version 4 on are of draws whose commitment
// covers the beacons (fair deal 3), and only they are; so neither can be
// relabelled to dodge the other's checks.
func versionsAgree(res tote.DrawResult) bool {
	f := beaconsVersion(res)
	return (res.Version >= tote.ResultVersionBound) == (f >= tote.FairnessBound) &&
		(res.Version >= tote.ResultVersionTerms) == (f >= tote.FairnessTerms)
}

// verifyPublicSeed checks a version-1 draw's public seed against the
// round-1 bets the result publishes and deals its deck.
func verifyPublicSeed(res tote.DrawResult, seed cards.Seed, problem func(string, ...any)) (cards.ToteDeal, int, bool) {
	if res.Positions < cards.MinPositions || res.Positions > cards.MaxPositions {
		problem("positions: a table of %d positions cannot exist", res.Positions)
		return cards.ToteDeal{}, 0, false
	}
	var ids []string
	for _, p := range res.Pools {
		if p.Round == parimutuel.RoundPreDeal {
			for _, b := range p.Bets {
				ids = append(ids, tote.FormatBetID(b.ID))
			}
		}
	}
	if res.PublicSeed == "" {
		if len(res.Pockets) > 0 {
			problem("public seed: cards were dealt but neither beacons nor a public seed are published")
			return cards.ToteDeal{}, 0, false
		}
		return cards.ToteDeal{}, 0, true
	}
	want := hex.EncodeToString(cards.PublicSeedFromIDs(ids))
	if res.PublicSeed != want {
		problem("public seed: published %s, the %d round-1 bets published give %s", res.PublicSeed, len(ids), want)
		return cards.ToteDeal{}, 0, false
	}
	public, _ := hex.DecodeString(want)
	return cards.DealTote(cards.Shuffle(seed, public), res.Positions), 4, true
}

// verifyCards compares the published cards, hands and outcome with the
// deal of the first streets streets.
func verifyCards(res tote.DrawResult, deal cards.ToteDeal, streets int, problem func(string, ...any)) bool {
	c := checker{problem: problem}
	bad := c.bad
	board := deal.Board()
	dealtBoard := []int{0, 0, 3, 4, 5}[streets]
	dealtBurns := []int{0, 0, 1, 2, 3}[streets]
	same := func(what string, got, want []string) {
		if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
			bad("%s: published %v, the seed and beacons deal %v", what, got, want)
		}
	}
	if len(res.Pockets) > 0 && streets < 1 || len(res.Pockets) > res.Positions {
		bad("pockets: %d published for %d positions, %d streets drawn", len(res.Pockets), res.Positions, streets)
	} else {
		for i, p := range res.Pockets {
			same(fmt.Sprintf("pocket of position %d", i+1), p, tote.CardStrings(deal.Pockets[i][:]))
		}
	}
	same("board", res.Board, tote.CardStrings(board[:dealtBoard]))
	same("burned cards", res.Burns, tote.CardStrings(deal.Burns[:dealtBurns]))
	if res.Void {
		switch {
		case res.Version >= tote.ResultVersionCommitted: // verifyVoid checks
		case len(res.Hands) > 0 && streets == 4 && len(res.Pockets) == res.Positions && len(res.Board) == 5:
			// A void after the river, before version 3: its settler wrote
			// every hand with no winner.
			if !legacyVoidHands(res, tote.HandViews(deal.Pockets, board[:], nil)) {
				bad("hands: the void draw's published hands are not the cards' (every one LOSS)")
			}
		case len(res.Hands) > 0 || len(res.Winners) > 0:
			bad("hands: a void draw publishes no hands or winners")
		}
		return c.ok()
	}
	if streets < 4 || len(res.Pockets) != res.Positions || len(res.Board) != 5 {
		bad("cards: a settled draw publishes %d pockets and a board of 5, got %d and %d", res.Positions, len(res.Pockets), len(res.Board))
		return false
	}
	o := parimutuel.OutcomeOf(deal)
	if !slices.Equal(o.Winners, res.Winners) || o.Category != res.Category ||
		!slices.Equal(o.FlopLeaders, res.FlopLeaders) || !slices.Equal(o.TurnLeaders, res.TurnLeaders) {
		bad("outcome: published winners %v (%s), leaders %v/%v; the cards give %v (%s), %v/%v",
			res.Winners, res.Category, res.FlopLeaders, res.TurnLeaders, o.Winners, o.Category, o.FlopLeaders, o.TurnLeaders)
	}
	want := tote.HandViews(deal.Pockets, board[:], o.Winners)
	if len(res.Hands) != len(want) {
		bad("hands: %d published, %d positions", len(res.Hands), len(want))
		return false
	}
	for i, h := range res.Hands {
		w := want[i]
		if h.Position != w.Position || h.Category != w.Category || h.Description != w.Description || !slices.Equal(h.Cards, w.Cards) || h.Status != w.Status {
			bad("hand of position %d: published %s %q %v %s, the cards give %s %q %v %s",
				w.Position, h.Category, h.Description, h.Cards, h.Status, w.Category, w.Description, w.Cards, w.Status)
		}
	}
	return c.ok()
}

// verifyPools recomputes every pool and compares it with the published one.
func (vf Verifier) verifyPools(res tote.DrawResult, problem func(string, ...any)) bool {
	reg := vf.markets()
	c := checker{problem: problem}
	bad := c.bad
	cfg, outcome := resultConfig(res)
	jackpot := res.JackpotBefore
	for _, pr := range res.Pools {
		if !res.Void && pr.JackpotBefore != jackpot {
			bad("pool %s: settled against a jackpot of %s, the pools before it leave %s", pr.PoolID, pr.JackpotBefore, jackpot)
		}
		if res.Version >= tote.ResultVersionTotals {
			diffs, st, err := vf.verifyPoolTotals(pr, res.Positions, cfg, outcome, res.Void)
			if err != nil {
				bad("pool %s: %v", pr.PoolID, err)
				continue
			}
			for _, d := range diffs {
				bad("pool %s: %s", pr.PoolID, d)
			}
			jackpot += st.JackpotChange()
			continue
		}
		if len(pr.Selections) > 0 {
			bad("pool %s: a result before version %d publishes bets, not selections", pr.PoolID, tote.ResultVersionTotals)
		}
		pool, err := vf.poolFromResult(pr, res.Positions, cfg)
		if err != nil {
			bad("pool %s: %v", pr.PoolID, err)
			continue
		}
		var st parimutuel.PoolSettlement
		if res.Void {
			st, err = reg.VoidPool(pool)
		} else {
			st, err = reg.SettlePool(pool, outcome, pr.JackpotBefore)
		}
		if err != nil {
			bad("pool %s: %v", pr.PoolID, err)
			continue
		}
		for _, d := range diffPool(pr, tote.NewPoolResultIn(reg, st, vf.betsOfResult(pr), pr.JackpotBefore)) {
			bad("pool %s: %s", pr.PoolID, d)
		}
		jackpot += st.JackpotChange()
	}
	if !res.Void && jackpot != res.JackpotAfter {
		bad("the pools leave a jackpot of %s, published %s", jackpot, res.JackpotAfter)
	}
	return c.ok()
}

// poolFromResult rebuilds a pool's settlement input from its published bets.
func (vf Verifier) poolFromResult(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig) (parimutuel.Pool, error) {
	p := parimutuel.Pool{ID: pr.PoolID, Market: pr.Market, Round: pr.Round, Positions: positions, Config: cfg}
	for _, b := range pr.Bets {
		sel, err := vf.markets().ParseSelection(pr.Market, b.Selection)
		if err != nil {
			return parimutuel.Pool{}, err
		}
		p.Bets = append(p.Bets, parimutuel.PoolBet{ID: tote.FormatBetID(b.ID), Player: "0", Stake: b.Stake, Selection: sel})
	}
	return p, nil
}

// betsOfResult turns published bets back into bets for NewPoolResult.
func (vf Verifier) betsOfResult(pr tote.PoolResult) []tote.Bet {
	out := make([]tote.Bet, len(pr.Bets))
	for i, b := range pr.Bets {
		sel, _ := vf.markets().ParseSelection(pr.Market, b.Selection)
		out[i] = tote.Bet{ID: b.ID, Stake: b.Stake, Selection: sel}
	}
	return out
}

// diffPool lists the figures in which a published pool differs from its
// recomputation.
func diffPool(got, want tote.PoolResult) []string {
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

// Reader reads what Draw recomputes: a service.Service or a
// store.
type Reader interface {
	Draw(ctx context.Context, id int64) (tote.Draw, error)
	DrawBets(ctx context.Context, drawID int64) ([]tote.Bet, error)
}

// Draw recomputes a finished draw: Result on its published
// result, plus the bets as stored against the bets the result publishes
// (every stored bet is in its pool exactly once, with the published stake,
// selection and payout, and a status that matches).
func Draw(ctx context.Context, r Reader, id int64) (tote.Draw, Verification, error) {
	return Verifier{}.Draw(ctx, r, id)
}

// Draw is Draw by the verifier's markets.
func (vf Verifier) Draw(ctx context.Context, r Reader, id int64) (tote.Draw, Verification, error) {
	d, err := r.Draw(ctx, id)
	if err != nil {
		return tote.Draw{}, Verification{}, err
	}
	if !d.Phase.Finished() || d.Result == nil {
		return tote.Draw{}, Verification{}, errs.R(errs.Conflict, tote.ReasonDrawNotFinished, "%s is not over yet: its seed is still secret", d.Named())
	}
	v := vf.Result(*d.Result)
	if d.Result.Commitment != cards.FormatCommitment(d.Commitment) {
		v.CommitmentValid = false
		v.Problems = append(v.Problems, "the result's commitment is not the one published when the draw opened")
	}
	bets, err := r.DrawBets(ctx, id)
	if err != nil {
		return tote.Draw{}, Verification{}, err
	}
	compare := vf.compareStoredBets
	if d.Result.Version >= tote.ResultVersionTotals {
		compare = vf.compareStoredTotals
	}
	for _, p := range compare(*d.Result, bets) {
		v.PayoutsMatch = false
		v.Problems = append(v.Problems, p)
	}
	return d, v, nil
}

// compareStoredBets lists the differences between stored bets and the
// bets a result publishes.
func (vf Verifier) compareStoredBets(res tote.DrawResult, bets []tote.Bet) []string {
	reg := vf.markets()
	published := map[int64]tote.ResultBet{}
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
		want := tote.SettledStatus(rb.Refund, rb.Payout)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("bet %d is not in the published result", b.ID))
		case pools[b.ID] != tote.PoolID(b.DrawID, b.Round, b.Selection.Market) || rb.Stake != b.Stake || rb.Selection != reg.Format(b.Selection):
			out = append(out, fmt.Sprintf("bet %d is published as %s %s %s, stored as %s %s %s", b.ID, pools[b.ID], rb.Selection, rb.Stake, tote.PoolID(b.DrawID, b.Round, b.Selection.Market), reg.Format(b.Selection), b.Stake))
		case rb.Payout != b.Payout || b.Status != want:
			out = append(out, fmt.Sprintf("bet %d returned %s (%s), the result says %s (%s)", b.ID, b.Payout, b.Status, rb.Payout, want))
		}
	}
	for id := range published {
		out = append(out, fmt.Sprintf("published bet %d is not stored", id))
	}
	return out
}
