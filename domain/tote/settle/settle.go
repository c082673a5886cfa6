// Package settle settles and voids a draw inside a transaction of the
// store: the pools paid (or refunded) through the ledger, the result
// recorded, the seed revealed, and the closing event returned as an
// outbox.Step for the caller to append and publish. The dealer settles and
// voids through it; the service's admin void does too.
package settle

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
)

// Settler settles and voids draws; it holds no state but the clock the
// results are stamped with and the time scale of the next draw's wait.
type Settler struct {
	clock tote.Clock
	scale tote.TimeScale
}

// New returns the settler stamping results by clock (nil: the wall clock)
// and timing the result's display at scale.
func New(clock tote.Clock, scale tote.TimeScale) *Settler {
	if clock == nil {
		clock = tote.RealClock{}
	}
	return &Settler{clock: clock, scale: scale}
}

// groupBets splits a draw's bets into its pools, keeping their order.
func groupBets(bets []tote.Bet) map[tote.PoolKey][]tote.Bet {
	out := map[tote.PoolKey][]tote.Bet{}
	for _, b := range bets {
		out[b.PoolKey()] = append(out[b.PoolKey()], b)
	}
	return out
}

// poolOf builds the settlement input of one pool.
func poolOf(d *tote.Draw, k tote.PoolKey, bets []tote.Bet, cfg parimutuel.PoolConfig) parimutuel.Pool {
	p := parimutuel.Pool{ID: tote.PoolID(d.ID, k.Round, k.Market), Market: k.Market, Round: k.Round, Positions: d.Positions, Config: cfg}
	p.Bets = make([]parimutuel.PoolBet, len(bets))
	for i, b := range bets {
		p.Bets[i] = parimutuel.PoolBet{ID: tote.FormatBetID(b.ID), Player: b.UserID.String(), Stake: b.Stake, Selection: b.Selection}
	}
	return p
}

// Settle settles every pool of the fully dealt draw d in tx (SPEC 1.5): the
// outcome from its cards, the jackpot read and locked in tx, one balanced
// transfer (or a few for huge pools) per pool, each bet's status and payout,
// the immutable result, the seed revealed, and DRAW_SETTLED.
//
// A draw dealt from beacons (fair deal version 2) is settled streamed
// (stream.go): from its pools' per-selection totals, its bets paid
// by set-based statements, and a result publishing per-selection totals
// (result version 2), so that neither time nor memory holds a row per bet.
// A version-1 draw's public seed is the hash of its round-1 bets, which
// its result must list for a verifier: it keeps the in-memory settlement.
func (s *Settler) Settle(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table) (outbox.Step, error) {
	deal, ok := d.Deal()
	if !ok || len(d.Board) != 5 || len(d.Pockets) != d.Positions {
		return outbox.Step{}, errs.E(errs.Internal, "draw id %d is not fully dealt", d.ID)
	}
	outcome := parimutuel.OutcomeOf(deal)
	if d.Beacons != nil {
		return s.settleStreamed(ctx, tx, d, t, outcome, nil)
	}
	bets, err := tx.DrawBets(ctx, d.ID)
	if err != nil {
		return outbox.Step{}, err
	}
	enabled, err := tx.JackpotEnabled(ctx)
	if err != nil {
		return outbox.Step{}, err
	}
	jackpot, err := tx.JackpotBalance(ctx)
	if err != nil {
		return outbox.Step{}, err
	}
	cfg := d.Pool
	cfg.JackpotEnabled = enabled
	res := settledResult(&d, outcome, cfg, jackpot, s.clock.Now())
	var outcomes []tote.BetOutcome
	balances := map[ids.UserID]money.Amount{}
	byPool := groupBets(bets)
	for _, k := range tote.DrawPools() {
		pb := byPool[k]
		st, err := parimutuel.SettlePool(poolOf(&d, k, pb, cfg), outcome, jackpot)
		if err != nil {
			return outbox.Step{}, err
		}
		kind := ledger.Settlement
		if st.Refunded {
			kind = ledger.Refund
		}
		what := "settled"
		if st.Refunded {
			what = "refunded"
		}
		memo := fmt.Sprintf("Draw #%d: %s pool of round %s %s", d.Number, st.Market, st.Round, what)
		if err := postLegs(ctx, tx.Ledger(), tote.LedgerRef{Kind: tote.LedgerSettle, DrawID: d.ID, Round: int(k.Round), Market: string(k.Market)}, kind, memo, st.Legs, balances); err != nil {
			return outbox.Step{}, err
		}
		res.Pools = append(res.Pools, tote.NewPoolResult(st, pb, jackpot))
		outcomes = append(outcomes, betOutcomes(pb, st.Payouts)...)
		jackpot += st.JackpotChange()
	}
	res.JackpotAfter = jackpot
	if err := recordJackpot(ctx, tx, &res); err != nil {
		return outbox.Step{}, err
	}
	return s.finish(ctx, tx, d, t, res, tote.PhaseSettled, outcomes, balances)
}

// settledResult is the head of d's result settled at now with outcome,
// the pools' configuration cfg (the jackpot switch as read) and the
// jackpot before: the pools and the jackpot after are added as they are
// settled.
func settledResult(d *tote.Draw, outcome parimutuel.Outcome, cfg parimutuel.PoolConfig, jackpot money.Amount, now time.Time) tote.DrawResult {
	return tote.DrawResult{
		DrawID: d.ID, TableID: d.TableID, Number: d.Number, Positions: d.Positions,
		Winners: outcome.Winners, Category: outcome.Category,
		FlopLeaders: outcome.FlopLeaders, TurnLeaders: outcome.TurnLeaders,
		Commission: cfg.Commission, JackpotEnabled: cfg.JackpotEnabled, JackpotRate: cfg.JackpotRate,
		ExpressShares: [2]money.BasisPoints{cfg.ExpressShare1, cfg.ExpressShare2},
		JackpotBefore: jackpot, SettledAt: now,
	}
}

// Void voids draw d in tx: every stake refunded in full, one transfer per
// pool, the result recorded with the void's kind and reason, the seed
// revealed, and DRAW_VOIDED.
func (s *Settler) Void(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table, detail tote.VoidDetail) (outbox.Step, error) {
	d.VoidKind = detail.Kind
	if d.Beacons != nil {
		return s.settleStreamed(ctx, tx, d, t, parimutuel.Outcome{}, &detail)
	}
	reason := detail.Reason()
	bets, err := tx.DrawBets(ctx, d.ID)
	if err != nil {
		return outbox.Step{}, err
	}
	res := tote.DrawResult{
		DrawID: d.ID, TableID: d.TableID, Number: d.Number, Positions: d.Positions,
		Void: true, VoidReason: reason, VoidDetail: &detail, Commission: d.Pool.Commission, JackpotRate: d.Pool.JackpotRate,
		ExpressShares: [2]money.BasisPoints{d.Pool.ExpressShare1, d.Pool.ExpressShare2},
		SettledAt:     s.clock.Now(),
	}
	var outcomes []tote.BetOutcome
	balances := map[ids.UserID]money.Amount{}
	byPool := groupBets(bets)
	for _, k := range tote.DrawPools() {
		pb := byPool[k]
		if len(pb) == 0 {
			continue
		}
		st, err := parimutuel.VoidPool(poolOf(&d, k, pb, d.Pool))
		if err != nil {
			return outbox.Step{}, err
		}
		memo := fmt.Sprintf("Draw #%d voided: %s pool of round %s refunded", d.Number, st.Market, st.Round)
		if err := postLegs(ctx, tx.Ledger(), tote.LedgerRef{Kind: tote.LedgerVoid, DrawID: d.ID, Round: int(k.Round), Market: string(k.Market)}, ledger.Refund, memo, st.Legs, balances); err != nil {
			return outbox.Step{}, err
		}
		res.Pools = append(res.Pools, tote.NewPoolResult(st, pb, 0))
		outcomes = append(outcomes, betOutcomes(pb, st.Payouts)...)
	}
	d.VoidReason = reason
	jackpot, err := tx.JackpotBalance(ctx)
	if err != nil {
		return outbox.Step{}, err
	}
	res.JackpotBefore, res.JackpotAfter = jackpot, jackpot
	if err := recordJackpot(ctx, tx, &res); err != nil {
		return outbox.Step{}, err
	}
	return s.finish(ctx, tx, d, t, res, tote.PhaseVoid, outcomes, balances)
}

// recordJackpot appends what settling res did to the jackpot (nothing for
// a void) to the public jackpot chain, after every posting of the draw,
// and names the entries in the result.
func recordJackpot(ctx context.Context, tx tote.Tx, res *tote.DrawResult) error {
	rng, err := tote.RecordJackpot(ctx, tx, tote.DrawJackpotMoves(res), res.SettledAt)
	if err != nil {
		return err
	}
	res.JackpotChain = &rng
	return nil
}

// finish records a settled or void draw: bets, result, revealed seed,
// the next draw's time and the closing event.
func (s *Settler) finish(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table, res tote.DrawResult, phase tote.Phase, outcomes []tote.BetOutcome, balances map[ids.UserID]money.Amount) (outbox.Step, error) {
	now := res.SettledAt
	if err := tx.SettleBets(ctx, outcomes, now); err != nil {
		return outbox.Step{}, err
	}
	res.FillCards(&d)
	res.FillSuspension(&d)
	d.Phase, d.Result, d.Revealed = phase, &res, true
	d.RoundClosesAt, d.SettledAt = time.Time{}, now
	d.NextStepAt = now.Add(s.scale.Of(t.Settings.ResultDisplay))
	nd, err := tx.UpdateDraw(ctx, d)
	if err != nil {
		return outbox.Step{}, err
	}
	typ := tote.EventDrawSettled
	if phase == tote.PhaseVoid {
		typ = tote.EventDrawVoided
	}
	ev := tote.TableEvent{TableID: d.TableID, DrawID: d.ID, Type: typ, At: now, Result: &res, ServerSeed: res.ServerSeed, Reason: d.VoidReason,
		Board: tote.CardStrings(d.Board), Hands: tote.PositionStates(d)}
	out := outbox.Step{Draw: &nd, Events: []tote.TableEvent{ev}}
	for _, o := range outcomes {
		out.Notes = append(out.Notes, outbox.Note{UserID: o.UserID, Event: event.UserEvent{Type: event.BetSettled, At: now, BetID: o.BetID}})
	}
	for uid, bal := range balances {
		out.Notes = append(out.Notes, outbox.Note{UserID: uid, Event: event.UserEvent{Type: event.BalanceChanged, At: now, Balance: int64(bal)}})
	}
	return out, nil
}

// betOutcomes pairs a pool's bets with their payouts.
func betOutcomes(bets []tote.Bet, payouts []parimutuel.Payout) []tote.BetOutcome {
	out := make([]tote.BetOutcome, len(bets))
	for i, b := range bets {
		p := payouts[i]
		out[i] = tote.BetOutcome{BetID: b.ID, Status: tote.SettledStatus(p.Refund, p.Amount), Payout: p.Amount, UserID: b.UserID}
	}
	return out
}

// maxLegsPerTransfer keeps a settlement transfer well under
// ledger.MaxEntries even before legs are combined.
const maxLegsPerTransfer = 4000

// legEntries turns pool legs into ledger entries, two per leg.
func legEntries(legs []parimutuel.Leg) ([]ledger.Entry, error) {
	entries := make([]ledger.Entry, 0, 2*len(legs))
	for _, l := range legs {
		from, err := ledgerAccount(l.From)
		if err != nil {
			return nil, err
		}
		to, err := ledgerAccount(l.To)
		if err != nil {
			return nil, err
		}
		entries = append(entries, ledger.Entry{Account: from, Amount: -l.Amount}, ledger.Entry{Account: to, Amount: l.Amount})
	}
	return entries, nil
}

// postLegs posts a pool's legs as balanced transfers under pool's keys
// (part 1, then 2, 3 ... for a pool with very many winners; every leg balances on
// its own and the legs come inflows first, so the escrow never dips below
// zero between parts). The keys make a resumed settlement replay, never pay
// twice; memo is what the player reads in their history (never the key).
// balances collects each paid wallet's balance after.
func postLegs(ctx context.Context, p ledger.Poster, pool tote.LedgerRef, kind ledger.TransferKind, memo string, legs []parimutuel.Leg, balances map[ids.UserID]money.Amount) error {
	for part := 0; part*maxLegsPerTransfer < len(legs); part++ {
		chunk := legs[part*maxLegsPerTransfer : min(len(legs), (part+1)*maxLegsPerTransfer)]
		entries, err := legEntries(chunk)
		if err != nil {
			return err
		}
		pool.Part = part + 1
		k := pool.Key()
		entries = ledger.Combine(entries)
		if len(entries) == 0 {
			continue
		}
		posted, err := p.Post(ctx, ledger.Transfer{IdempotencyKey: k, Kind: kind, Memo: memo, Entries: entries})
		if err != nil {
			return err
		}
		noteBalances(posted, balances)
	}
	return nil
}

// noteBalances records the balance after a posted transfer of every wallet
// it moved.
func noteBalances(posted ledger.Posted, balances map[ids.UserID]money.Amount) {
	for _, e := range posted.Entries {
		if uid, ok := e.Account.User(); ok {
			balances[uid] = e.BalanceAfter
		}
	}
}

// ledgerAccount maps a settlement account onto the ledger's.
func ledgerAccount(a parimutuel.Account) (ledger.AccountRef, error) {
	switch a.Kind {
	case parimutuel.AccountPoolEscrow:
		return ledger.EscrowOf(a.Ref), nil
	case parimutuel.AccountPlayerWallet:
		id, err := strconv.ParseInt(a.Ref, 10, 64)
		if err != nil {
			return ledger.AccountRef{}, errs.E(errs.Internal, "player %q is not a user id", a.Ref)
		}
		return ledger.UserWallet(ids.UserID(id)), nil
	case parimutuel.AccountOrganiser:
		return ledger.OrganiserAccount, nil
	case parimutuel.AccountJackpot:
		return ledger.JackpotAccount, nil
	}
	return ledger.AccountRef{}, errs.E(errs.Internal, "unknown settlement account %q", a.Kind)
}
