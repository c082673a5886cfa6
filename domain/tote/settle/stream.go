package settle

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
)

// Streamed settlement: a pool is settled from its per-selection
// totals, never from its bets held in memory.
//
//  1. The coefficients: SettlePool on a pool holding one "bet" per backed
//     selection (its total stake) gives exactly the figures that depend on
//     sums only: gross, cuts, net, refund or not, the winning selections,
//     each category's fund, jackpot, rollover, winning stakes and
//     coefficient. What it cannot give is the sum of floor(stake × coef)
//     over the real bets (Paid, and so breakage and top-up).
//  2. The bets: the store pays every bet of the pool at once from a rate
//     per selection (Tx.PayPool; the database stores record the rates and
//     derive each bet's payout when it is read) and returns, per
//     selection, the sums of floor(stake × coef) over its bets; those
//     complete the figures exactly as SettlePool computes them bet by bet.
//  3. The money: the pool-level legs from the figures, and the players'
//     credits read back from the paid bets in pages of user ids
//     (Tx.PoolCredits), one transfer per page.
//
// Memory is one rate per backed selection plus one page: independent of the
// number of bets. The property test (totetest's
// StreamedSettlementIsReference, run on the twin and both databases)
// checks that the result equals SettlePool over the individual bets.

// creditPage is how many players one settlement transfer credits.
const creditPage = 4000

// poolTotals groups a draw's per-selection totals by pool, each pool's
// selections in ascending order of their string.
func poolTotals(totals []tote.SelectionTotal) map[tote.PoolKey][]tote.SelectionTotal {
	out := map[tote.PoolKey][]tote.SelectionTotal{}
	for _, t := range totals {
		if t.Bets <= 0 {
			continue // every bet of the selection was withdrawn in its transaction
		}
		k := tote.PoolKey{Round: t.Round, Market: t.Selection.Market}
		out[k] = append(out[k], t)
	}
	for _, ts := range out {
		slices.SortFunc(ts, func(a, b tote.SelectionTotal) int { return strings.Compare(a.Selection.String(), b.Selection.String()) })
	}
	return out
}

// planPool settles a pool from its per-selection totals: the figures that
// depend on sums only, and the rate every bet of each selection is paid at.
// void refunds every stake. The figures Paid, Breakage, TopUp and the
// categories' NumBets are completed by completePool once the bets are paid.
func planPool(d *tote.Draw, k tote.PoolKey, totals []tote.SelectionTotal, cfg parimutuel.PoolConfig, o parimutuel.Outcome, jackpot money.Amount, void bool) (parimutuel.PoolSettlement, []tote.SelectionRate, error) {
	p := parimutuel.Pool{ID: tote.PoolID(d.ID, k.Round, k.Market), Market: k.Market, Round: k.Round, Positions: d.Positions, Config: cfg}
	p.Bets = make([]parimutuel.PoolBet, len(totals))
	for i, t := range totals {
		p.Bets[i] = parimutuel.PoolBet{ID: t.Selection.String(), Player: "0", Stake: t.Stake, Selection: t.Selection}
	}
	var st parimutuel.PoolSettlement
	var err error
	if void {
		st, err = parimutuel.VoidPool(p)
	} else {
		st, err = parimutuel.SettlePool(p, o, jackpot)
	}
	if err != nil {
		return parimutuel.PoolSettlement{}, nil, err
	}
	var coef [2]money.Coef
	for i, c := range st.Categories {
		coef[i] = c.Coef
	}
	rates := make([]tote.SelectionRate, len(totals))
	for i, t := range totals {
		po := st.Payouts[i]
		r := tote.SelectionRate{Selection: t.Selection.String(), Refund: po.Refund, Guessed: po.Guessed}
		// A backed category pays every stake at least floor(1 × 1.10) = 1,
		// so a selection takes part in a category exactly when its
		// aggregate won something there.
		if po.Cat1 > 0 {
			r.Coef1 = coef[0]
		}
		if po.Cat2 > 0 {
			r.Coef2 = coef[1]
		}
		// The store computes stake × coef in 64 bits: refuse what could
		// overflow (no real pool comes near).
		if c := int64(r.Coef1) + int64(r.Coef2); c > 0 && int64(t.Stake) > math.MaxInt64/c {
			return parimutuel.PoolSettlement{}, nil, errs.E(errs.Internal, "pool %s: stake %s at coefficient %d overflows", p.ID, t.Stake, c)
		}
		rates[i] = r
	}
	st.Payouts, st.Legs = nil, nil
	st.NumBets = 0
	for _, t := range totals {
		st.NumBets += t.Bets
	}
	return st, rates, nil
}

// completePool finishes a planned pool with what paying its bets summed:
// each category's winning bets and paid amount, and from them the pool's
// Paid, Breakage and TopUp, reckoned per category as SettlePool does. It
// fails when the bets paid are not the bets the totals counted.
func completePool(st *parimutuel.PoolSettlement, totals []tote.SelectionTotal, rates []tote.SelectionRate, paid []tote.SelectionPaid) error {
	bySel := make(map[string]tote.SelectionPaid, len(paid))
	for _, p := range paid {
		bySel[p.Selection] = p
	}
	if len(bySel) != len(paid) || len(paid) > len(totals) {
		return errs.E(errs.Internal, "pool %s: %d selections paid, %d backed", st.PoolID, len(paid), len(totals))
	}
	for _, t := range totals {
		p := bySel[t.Selection.String()]
		if p.Bets != t.Bets || p.Stake != t.Stake {
			return errs.E(errs.Internal, "pool %s: selection %s holds %d bets of %s, its totals say %d of %s",
				st.PoolID, t.Selection, p.Bets, p.Stake, t.Bets, t.Stake)
		}
	}
	if st.Refunded {
		return nil
	}
	for ci := range st.Categories {
		c := &st.Categories[ci]
		c.NumBets, c.Paid, c.Breakage, c.TopUp = 0, 0, 0, 0
		for i, r := range rates {
			in, amount := r.Coef1 > 0, bySel[r.Selection].Paid1
			if ci == 1 {
				in, amount = r.Coef2 > 0, bySel[r.Selection].Paid2
			}
			if in {
				c.NumBets += totals[i].Bets
				c.Paid += amount
			}
		}
	}
	st.SumCategories()
	return nil
}

// poolLegs is the pool-level money of a settlement: everything but the
// players' credits, in parimutuel.SettlePool's order (inflows first, so
// the escrow never dips below zero).
func poolLegs(poolID string, s *parimutuel.PoolSettlement) []parimutuel.Leg {
	escrow := parimutuel.Account{Kind: parimutuel.AccountPoolEscrow, Ref: poolID}
	organiser := parimutuel.Account{Kind: parimutuel.AccountOrganiser}
	jackpot := parimutuel.Account{Kind: parimutuel.AccountJackpot}
	var legs []parimutuel.Leg
	add := func(from, to parimutuel.Account, a money.Amount, why parimutuel.LegPurpose) {
		if a > 0 {
			legs = append(legs, parimutuel.Leg{From: from, To: to, Amount: a, Purpose: why})
		}
	}
	add(organiser, escrow, s.TopUp, parimutuel.PurposeTopUp)
	add(jackpot, escrow, s.JackpotPaid, parimutuel.PurposeJackpotPayout)
	add(escrow, organiser, s.Commission, parimutuel.PurposeCommission)
	add(escrow, organiser, s.Breakage, parimutuel.PurposeBreakage)
	add(escrow, jackpot, s.JackpotContribution, parimutuel.PurposeJackpotContribution)
	add(escrow, jackpot, s.Rollover, parimutuel.PurposeJackpotRollover)
	return legs
}

// settlePoolStreamed pays one pool of draw d from its totals and posts its
// money: the pool legs with the first page of credits under key, then a
// transfer per further page of creditPage players under key:2, key:3 ...
// (the whole settlement is one transaction: a crash rolls all of it back,
// and the keys make a replay of a committed one answer instead of pay).
func (s *Settler) settlePoolStreamed(ctx context.Context, tx tote.Tx, d *tote.Draw, k tote.PoolKey, totals []tote.SelectionTotal, cfg parimutuel.PoolConfig, o parimutuel.Outcome, jackpot money.Amount, void bool, sink *settleSink) (parimutuel.PoolSettlement, []tote.SelectionRate, []tote.SelectionPaid, error) {
	st, rates, err := planPool(d, k, totals, cfg, o, jackpot, void)
	if err != nil {
		return parimutuel.PoolSettlement{}, nil, nil, err
	}
	paid, err := tx.PayPool(ctx, d.ID, k.Round, k.Market, rates, sink.at)
	if err != nil {
		return parimutuel.PoolSettlement{}, nil, nil, err
	}
	if err := completePool(&st, totals, rates, paid); err != nil {
		return parimutuel.PoolSettlement{}, nil, nil, err
	}
	key, kind := "tote:settle:"+st.PoolID, settleKind(st)
	memo := fmt.Sprintf("Draw #%d: %s pool of round %s %s", d.Number, st.Market, st.Round, settleWhat(st))
	if void {
		key = "tote:void:" + st.PoolID
		memo = fmt.Sprintf("Draw #%d voided: %s pool of round %s refunded", d.Number, st.Market, st.Round)
	}
	head := poolLegs(st.PoolID, &st)
	var after ids.UserID
	var paidOut money.Amount
	for part := 0; ; part++ {
		var credits []tote.WalletCredit
		if st.Paid+st.Refunds > 0 {
			if credits, err = tx.PoolCredits(ctx, d.ID, k.Round, k.Market, after, creditPage); err != nil {
				return parimutuel.PoolSettlement{}, nil, nil, err
			}
		}
		if part > 0 && len(credits) == 0 {
			break
		}
		legs := head
		head = nil
		why := parimutuel.PurposePayout
		if st.Refunded {
			why = parimutuel.PurposeRefund
		}
		for _, c := range credits {
			legs = append(legs, parimutuel.Leg{From: parimutuel.Account{Kind: parimutuel.AccountPoolEscrow, Ref: st.PoolID}, To: parimutuel.Account{Kind: parimutuel.AccountPlayerWallet, Ref: c.UserID.String()}, Amount: c.Amount, Purpose: why})
			paidOut += c.Amount
			after = c.UserID
		}
		k := key
		if part > 0 {
			k = fmt.Sprintf("%s:%d", key, part+1)
		}
		if err := postTransfer(ctx, tx, k, kind, memo, legs, sink.balances); err != nil {
			return parimutuel.PoolSettlement{}, nil, nil, err
		}
		if len(credits) < creditPage {
			break
		}
	}
	if paidOut != st.Paid+st.Refunds {
		return parimutuel.PoolSettlement{}, nil, nil, errs.E(errs.Internal, "pool %s: credited %s to players, the pool pays %s", st.PoolID, paidOut, st.Paid+st.Refunds)
	}
	return st, rates, paid, nil
}

// settleSink is what a streamed settlement collects beside its figures:
// the time, and each credited player's wallet balance after (one entry per
// player, not per bet) for BALANCE_CHANGED.
type settleSink struct {
	at       time.Time
	balances map[ids.UserID]money.Amount
}

// settleStreamed settles (voided == nil) or voids draw d pool by pool
// from its totals and finishes it as finish does; the players hear of
// their bets after the commit (outbox.Step.Settled). A void publishes the
// jackpot as it stands (flag and balance, unchanged by the refunds).
func (s *Settler) settleStreamed(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table, outcome parimutuel.Outcome, voided *tote.VoidDetail) (outbox.Step, error) {
	void := voided != nil
	totals, err := tx.PoolTotals(ctx, d.ID, 0)
	if err != nil {
		return outbox.Step{}, err
	}
	cfg := d.Pool
	var jackpot money.Amount
	// A draw of fair deal 4 settles with the jackpot flag it committed to
	// when it opened; earlier draws with the game's flag now.
	if tote.FairnessOf(&d) < tote.FairnessTerms {
		if cfg.JackpotEnabled, err = tx.JackpotEnabled(ctx); err != nil {
			return outbox.Step{}, err
		}
	}
	if jackpot, err = tx.JackpotBalance(ctx); err != nil {
		return outbox.Step{}, err
	}
	sink := &settleSink{at: s.clock.Now(), balances: map[ids.UserID]money.Amount{}}
	res := tote.DrawResult{
		Version: tote.ResultVersionOf(d),
		DrawID:  d.ID, TableID: d.TableID, Number: d.Number, Positions: d.Positions,
		Commission: cfg.Commission, JackpotRate: cfg.JackpotRate,
		ExpressShares: [2]money.BasisPoints{cfg.ExpressShare1, cfg.ExpressShare2},
		SettledAt:     sink.at,
	}
	res.JackpotEnabled, res.JackpotBefore = cfg.JackpotEnabled, jackpot
	if void {
		res.Void, res.VoidReason, res.VoidDetail = true, voided.Reason(), voided
	} else {
		res.Winners, res.Category = outcome.Winners, outcome.Category
		res.FlopLeaders, res.TurnLeaders = outcome.FlopLeaders, outcome.TurnLeaders
	}
	byPool := poolTotals(totals)
	for _, k := range tote.DrawPools() {
		sel := byPool[k]
		if void && len(sel) == 0 {
			continue
		}
		st, rates, paid, err := s.settlePoolStreamed(ctx, tx, &d, k, sel, cfg, outcome, jackpot, void, sink)
		if err != nil {
			return outbox.Step{}, err
		}
		res.Pools = append(res.Pools, tote.NewPoolResultTotals(st, sel, rates, paid, jackpot))
		if !void {
			jackpot += st.JackpotChange()
		}
	}
	res.JackpotAfter = jackpot
	if err := recordJackpot(ctx, tx, &res); err != nil {
		return outbox.Step{}, err
	}
	phase := tote.PhaseSettled
	if void {
		d.VoidReason = res.VoidReason
		phase = tote.PhaseVoid
	}
	out, err := s.finish(ctx, tx, d, t, res, phase, nil, sink.balances)
	if err != nil {
		return outbox.Step{}, err
	}
	out.Settled = d.ID
	return out, nil
}

// settleKind and settleWhat name a settled pool's transfer and memo.
func settleKind(st parimutuel.PoolSettlement) ledger.TransferKind {
	if st.Refunded {
		return ledger.Refund
	}
	return ledger.Settlement
}

func settleWhat(st parimutuel.PoolSettlement) string {
	if st.Refunded {
		return "refunded"
	}
	return "settled"
}

// postTransfer posts legs as one balanced transfer under key (legs of one
// account pair combined), through the batch poster where the store has one
// (set-based on Postgres), and records the wallets' balances after.
func postTransfer(ctx context.Context, tx tote.Tx, key string, kind ledger.TransferKind, memo string, legs []parimutuel.Leg, balances map[ids.UserID]money.Amount) error {
	entries, err := legEntries(legs)
	if err != nil {
		return err
	}
	entries = ledger.Combine(entries)
	if len(entries) == 0 {
		return nil
	}
	posted, errList, err := ledger.PostEach(ctx, tx.Ledger(), []ledger.Transfer{{IdempotencyKey: key, Kind: kind, Memo: memo, Entries: entries}})
	if err != nil {
		return err
	}
	if errList[0] != nil {
		return errList[0]
	}
	noteBalances(posted[0], balances)
	return nil
}
