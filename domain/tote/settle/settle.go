// Package settle settles and voids a draw inside a transaction of the
// store: the pools paid (or refunded) through the ledger, the result
// recorded, the seed revealed, and the closing event returned as an
// outbox.Step for the caller to append and publish. The dealer settles and
// voids through it; the service's admin void does too.
package settle

import (
	"context"
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

// Settle settles every pool of the fully dealt draw d in tx (SPEC 1.5): the
// outcome from its cards, the jackpot read and locked in tx, one balanced
// transfer (or a few for huge pools) per pool, each bet's status and payout,
// the immutable result, the seed revealed, and DRAW_SETTLED.
//
// The draw is settled streamed (stream.go): from its pools' per-selection
// totals, its bets paid by set-based statements, and a result publishing
// per-selection totals, so that neither time nor memory holds a row per
// bet. A version-1 draw, whose result had to list its round-1 bets, is
// refused (tote.DealtFromBeacons): no release since fair deal 2 opens one.
func (s *Settler) Settle(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table) (outbox.Step, error) {
	if err := tote.DealtFromBeacons(d); err != nil {
		return outbox.Step{}, err
	}
	deal, ok := d.Deal()
	if !ok || len(d.Board) != 5 || len(d.Pockets) != d.Positions {
		return outbox.Step{}, errs.E(errs.Internal, "draw id %d is not fully dealt", d.ID)
	}
	return s.settleStreamed(ctx, tx, d, t, parimutuel.OutcomeOf(deal), nil)
}

// Void voids draw d in tx: every stake refunded in full, one transfer per
// pool, the result recorded with the void's kind and reason, the seed
// revealed, and DRAW_VOIDED.
func (s *Settler) Void(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table, detail tote.VoidDetail) (outbox.Step, error) {
	if err := tote.DealtFromBeacons(d); err != nil {
		return outbox.Step{}, err
	}
	d.VoidKind = detail.Kind
	return s.settleStreamed(ctx, tx, d, t, parimutuel.Outcome{}, &detail)
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
func (s *Settler) finish(ctx context.Context, tx tote.Tx, d tote.Draw, t tote.Table, res tote.DrawResult, phase tote.Phase, balances map[ids.UserID]money.Amount) (outbox.Step, error) {
	now := res.SettledAt
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
	for uid, bal := range balances {
		out.Notes = append(out.Notes, outbox.Note{UserID: uid, Event: event.UserEvent{Type: event.BalanceChanged, At: now, Balance: int64(bal)}})
	}
	return out, nil
}

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
