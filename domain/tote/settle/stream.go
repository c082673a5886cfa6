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
//     A store offering tote.DrawPayer pays every pool of the draw at once
//     (one pass over the draw's bets for the sums, one for the credits).
//  3. The money: the pool-level legs from the figures, and the players'
//     credits summed from the paid bets (Tx.PoolCredits, or PayDraw's),
//     one transfer per page of creditPage players; every pool's transfers
//     are posted as one ledger batch.
//
// Every pool is planned before any is paid: a pool's jackpot figures
// depend on its totals and the jackpot the pools before it leave, never on
// what its bets sum to. Memory is one rate per backed selection and one
// credit per player and pool: independent of the number of bets. The
// property test (totetest's
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

// plannedPool is one pool of a streamed settlement: its totals, its
// figures and rates from planPool, the jackpot it was planned with, and
// once paid what the store summed and what it credits each player.
type plannedPool struct {
	k       tote.PoolKey
	sel     []tote.SelectionTotal
	st      parimutuel.PoolSettlement
	rates   []tote.SelectionRate
	jackpot money.Amount
	paid    []tote.SelectionPaid
	credits []tote.WalletCredit
	owners  []tote.BetOwner // the pool's bets, when the payer read them
}

// payPools pays every planned pool's bets: at once through the store's
// DrawPayer where it has one (one pass over the draw's bets on the
// database stores), else pool by pool with PayPool, then each pool's
// credits read in pages of creditPage players.
func payPools(ctx context.Context, tx tote.Tx, d *tote.Draw, plans []plannedPool, at time.Time) error {
	if len(plans) == 0 {
		return nil
	}
	if dp, ok := tx.(tote.DrawPayer); ok {
		in := make([]tote.PoolRates, len(plans))
		for i, p := range plans {
			in[i] = tote.PoolRates{Round: p.k.Round, Market: p.k.Market, Rates: p.rates}
		}
		out, err := dp.PayDraw(ctx, d.ID, in, at)
		if err != nil {
			return err
		}
		if len(out) != len(plans) {
			return errs.E(errs.Internal, "draw %d: %d pools paid, %d asked", d.ID, len(out), len(plans))
		}
		for i := range plans {
			plans[i].paid, plans[i].credits, plans[i].owners = out[i].Paid, out[i].Credits, out[i].Owners
		}
		return nil
	}
	for i := range plans {
		p := &plans[i]
		paid, err := tx.PayPool(ctx, d.ID, p.k.Round, p.k.Market, p.rates, at)
		if err != nil {
			return err
		}
		p.paid = paid
	}
	for i := range plans {
		p := &plans[i]
		var after ids.UserID
		for {
			page, err := tx.PoolCredits(ctx, d.ID, p.k.Round, p.k.Market, after, creditPage)
			if err != nil {
				return err
			}
			p.credits = append(p.credits, page...)
			if len(page) < creditPage {
				break
			}
			after = page[len(page)-1].UserID
		}
	}
	return nil
}

// poolTransfers is a paid pool's money: the pool legs with the first page
// of creditPage players' credits as part 1 of the pool's ledger key
// (tote.LedgerRef), then a transfer per further page as parts 2, 3 ...
// (the whole settlement is one transaction: a
// crash rolls all of it back, and the keys make a replay of a committed
// one answer instead of pay). A transfer left without entries is left out.
func poolTransfers(d *tote.Draw, p *plannedPool, void bool) ([]ledger.Transfer, error) {
	st := &p.st
	ref := tote.LedgerRef{Kind: tote.LedgerSettle, DrawID: d.ID, Round: int(p.k.Round), Market: string(p.k.Market)}
	kind := settleKind(*st)
	memo := fmt.Sprintf("Draw #%d: %s pool of round %s %s", d.Number, st.Market, st.Round, settleWhat(*st))
	if void {
		ref.Kind = tote.LedgerVoid
		memo = fmt.Sprintf("Draw #%d voided: %s pool of round %s refunded", d.Number, st.Market, st.Round)
	}
	credits := p.credits
	if st.Paid+st.Refunds == 0 {
		credits = nil
	}
	why := parimutuel.PurposePayout
	if st.Refunded {
		why = parimutuel.PurposeRefund
	}
	escrow := parimutuel.Account{Kind: parimutuel.AccountPoolEscrow, Ref: st.PoolID}
	head := poolLegs(st.PoolID, st)
	var out []ledger.Transfer
	var paidOut money.Amount
	for part := 0; part == 0 || part*creditPage < len(credits); part++ {
		legs := head
		head = nil
		for _, c := range credits[min(len(credits), part*creditPage):min(len(credits), (part+1)*creditPage)] {
			legs = append(legs, parimutuel.Leg{From: escrow, To: parimutuel.Account{Kind: parimutuel.AccountPlayerWallet, Ref: c.UserID.String()}, Amount: c.Amount, Purpose: why})
			paidOut += c.Amount
		}
		ref.Part = part + 1
		k := ref.Key()
		entries, err := legEntries(legs)
		if err != nil {
			return nil, err
		}
		if entries = ledger.Combine(entries); len(entries) > 0 {
			out = append(out, ledger.Transfer{IdempotencyKey: k, Kind: kind, Memo: memo, Entries: entries})
		}
	}
	if paidOut != st.Paid+st.Refunds {
		return nil, errs.E(errs.Internal, "pool %s: credited %s to players, the pool pays %s", st.PoolID, paidOut, st.Paid+st.Refunds)
	}
	return out, nil
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
	cfg, jackpot, err := settlingJackpot(ctx, tx, &d)
	if err != nil {
		return outbox.Step{}, err
	}
	sink := &settleSink{at: s.clock.Now(), balances: map[ids.UserID]money.Amount{}}
	res := streamedResult(&d, cfg, jackpot, sink.at, outcome, voided)
	plans, jackpot, err := planPools(&d, totals, cfg, outcome, jackpot, void)
	if err != nil {
		return outbox.Step{}, err
	}
	if err := payPools(ctx, tx, &d, plans, sink.at); err != nil {
		return outbox.Step{}, err
	}
	transfers, err := completePools(&d, plans, void, &res)
	if err != nil {
		return outbox.Step{}, err
	}
	if err := postTransfers(ctx, tx, transfers, sink.balances); err != nil {
		return outbox.Step{}, err
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
	out, err := s.finish(ctx, tx, d, t, res, phase, sink.balances)
	if err != nil {
		return outbox.Step{}, err
	}
	out.Settled = d.ID
	for _, p := range plans {
		out.SettledBets = append(out.SettledBets, p.owners...)
	}
	return out, nil
}

// settlingJackpot reads in tx the pools' configuration d settles with and
// the jackpot's balance. A draw of fair deal 4 settles with the jackpot
// flag it committed to when it opened; earlier draws with the game's flag
// now.
func settlingJackpot(ctx context.Context, tx tote.Tx, d *tote.Draw) (parimutuel.PoolConfig, money.Amount, error) {
	cfg := d.Pool
	var err error
	if tote.FairnessOf(d) < tote.FairnessTerms {
		if cfg.JackpotEnabled, err = tx.JackpotEnabled(ctx); err != nil {
			return parimutuel.PoolConfig{}, 0, err
		}
	}
	jackpot, err := tx.JackpotBalance(ctx)
	if err != nil {
		return parimutuel.PoolConfig{}, 0, err
	}
	return cfg, jackpot, nil
}

// streamedResult is the head of d's result settled (voided nil, with
// outcome) or voided at at, with the pools' configuration cfg and the
// jackpot before: the pools and the jackpot after are added as they are
// paid.
func streamedResult(d *tote.Draw, cfg parimutuel.PoolConfig, jackpot money.Amount, at time.Time, outcome parimutuel.Outcome, voided *tote.VoidDetail) tote.DrawResult {
	res := tote.DrawResult{
		Version: tote.ResultVersionOf(*d),
		DrawID:  d.ID, TableID: d.TableID, Number: d.Number, Positions: d.Positions,
		Commission: cfg.Commission, JackpotRate: cfg.JackpotRate,
		ExpressShares: [2]money.BasisPoints{cfg.ExpressShare1, cfg.ExpressShare2},
		SettledAt:     at,
	}
	res.JackpotEnabled, res.JackpotBefore = cfg.JackpotEnabled, jackpot
	if voided != nil {
		res.Void, res.VoidReason, res.VoidDetail = true, voided.Reason(), voided
	} else {
		res.Winners, res.Category = outcome.Winners, outcome.Category
		res.FlopLeaders, res.TurnLeaders = outcome.FlopLeaders, outcome.TurnLeaders
	}
	return res
}

// planPools plans every pool of d from its totals, each with the jackpot
// the pools before it leave (a pool's jackpot figures depend on its totals
// only), and returns the plans and the jackpot after them (unchanged by a
// void, which skips the pools without bets). The pools are then all paid
// at once, and their money posted as one batch, in the order the pools
// were once settled one after another.
func planPools(d *tote.Draw, totals []tote.SelectionTotal, cfg parimutuel.PoolConfig, outcome parimutuel.Outcome, jackpot money.Amount, void bool) ([]plannedPool, money.Amount, error) {
	byPool := poolTotals(totals)
	var plans []plannedPool
	for _, k := range tote.DrawPools() {
		sel := byPool[k]
		if void && len(sel) == 0 {
			continue
		}
		st, rates, err := planPool(d, k, sel, cfg, outcome, jackpot, void)
		if err != nil {
			return nil, 0, err
		}
		plans = append(plans, plannedPool{k: k, sel: sel, st: st, rates: rates, jackpot: jackpot})
		if !void {
			jackpot += st.JackpotChange()
		}
	}
	return plans, jackpot, nil
}

// completePools completes each paid pool's settlement, adds its result to
// res and returns the transfers of all of them, in pool order (each
// pool's credits are let go of once in its transfers).
func completePools(d *tote.Draw, plans []plannedPool, void bool, res *tote.DrawResult) ([]ledger.Transfer, error) {
	var transfers []ledger.Transfer
	for i := range plans {
		p := &plans[i]
		if err := completePool(&p.st, p.sel, p.rates, p.paid); err != nil {
			return nil, err
		}
		ts, err := poolTransfers(d, p, void)
		if err != nil {
			return nil, err
		}
		transfers = append(transfers, ts...)
		res.Pools = append(res.Pools, tote.NewPoolResultTotals(p.st, p.sel, p.rates, p.paid, p.jackpot))
		p.credits = nil
	}
	return transfers, nil
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

// postTransfers posts the transfers in order as one batch, through the
// batch poster where the store has one (set-based on Postgres: one lock
// statement and one write for all of them), and records the wallets'
// balances after. Any transfer refused fails the whole settlement (its
// transaction is rolled back).
func postTransfers(ctx context.Context, tx tote.Tx, ts []ledger.Transfer, balances map[ids.UserID]money.Amount) error {
	if len(ts) == 0 {
		return nil
	}
	posted, errList, err := ledger.PostEach(ctx, tx.Ledger(), ts)
	if err != nil {
		return err
	}
	for i := range ts {
		if errList[i] != nil {
			return errList[i]
		}
		noteBalances(posted[i], balances)
	}
	return nil
}
