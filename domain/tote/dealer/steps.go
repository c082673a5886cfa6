package dealer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
)

// action is a dealer step.
type action int

// The dealer's steps, in the order a draw goes through them.
const (
	actNone       action = iota
	actOpen              // open a draw: seed, commitment, round 1
	actClose             // close the open round, publishing its bet root
	actDealPocket        // deal the next position's pocket; the last one opens round 2
	actDealFlop          // burn and flop; opens round 3
	actDealTurn          // burn and turn; opens round 4
	actDealRiver         // burn and river
	actSettle            // settle every pool, publish the result, reveal the seed
)

// plan is the state machine's transition function: from the persisted draw
// (and the table's status), the next step and when it is due.
func (d *Dealer) plan() (action, time.Time) {
	dr := d.draw
	if dr == nil || dr.Phase.Finished() {
		if d.table.Status != tote.TableRunning {
			return actNone, time.Time{}
		}
		if dr == nil {
			return actOpen, time.Time{}
		}
		return actOpen, dr.NextStepAt
	}
	switch dr.Phase {
	case tote.PhasePreDeal, tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn:
		return actClose, dr.RoundClosesAt
	case tote.PhaseDealingPocket:
		return actDealPocket, dr.NextStepAt
	case tote.PhaseDealingFlop:
		return actDealFlop, dr.NextStepAt
	case tote.PhaseDealingTurn:
		return actDealTurn, dr.NextStepAt
	case tote.PhaseDealingRiver:
		return actDealRiver, dr.NextStepAt
	case tote.PhaseSettling:
		return actSettle, dr.NextStepAt
	}
	return actNone, time.Time{}
}

// step runs one step.
func (d *Dealer) step(ctx context.Context, act action) error {
	switch act {
	case actOpen:
		return d.openDraw(ctx)
	case actClose:
		return d.closeRound(ctx)
	case actDealPocket, actDealFlop, actDealTurn, actDealRiver:
		return d.dealCards(ctx, act)
	case actSettle:
		return d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
			return d.settler.Settle(ctx, tx, dr, d.table)
		})
	}
	return nil
}

// commit runs fn in one transaction after checking the lease's fence and
// locking the current draw (Exclusive waits for bets in flight), appends
// the events fn returns, and publishes them after the commit.
func (d *Dealer) commit(ctx context.Context, mode tote.LockMode, fn func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error)) error {
	var res outbox.Step
	err := d.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		if err := tx.CheckLease(ctx, d.lease); err != nil {
			return err
		}
		var cur tote.Draw
		if d.draw != nil {
			var err error
			if cur, err = tx.LockDraw(ctx, d.draw.ID, mode); err != nil {
				return err
			}
			if cur.Version != d.draw.Version {
				return tote.ErrDrawChanged(cur.ID)
			}
		}
		var err error
		if res, err = fn(ctx, tx, cur); err != nil {
			return err
		}
		return outbox.Append(ctx, tx, &res)
	})
	if err != nil {
		return err
	}
	if res.Table != nil {
		d.table = *res.Table
	}
	if res.Draw != nil {
		if d.draw == nil || res.Draw.ID != d.draw.ID {
			clear(d.pools)
		}
		d.draw = res.Draw
	}
	for _, v := range res.Pools {
		d.pools[tote.PoolKey{Round: v.Round, Market: v.Market}] = tote.SignatureOf(v)
	}
	d.relay.Publish(ctx, res)
	return nil
}

// openDraw opens the table's next draw: a fresh server seed and its
// commitment, the minimum stake and pool settings copied from the table,
// round 1 open. A paused table opens nothing.
func (d *Dealer) openDraw(ctx context.Context) error {
	if d.beacon == nil {
		return errs.E(errs.Internal, "no beacon source is configured: a draw cannot open without public randomness")
	}
	chain := d.beacon.Chain()
	seed, err := cards.NewServerSeed()
	if err != nil {
		return err
	}
	var pre *tote.LiveOdds
	if d.odds != nil {
		o, err := d.odds.PreDeal(ctx, d.table.Positions)
		if err != nil {
			return err
		}
		pre = &o
	}
	return d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, prev tote.Draw) (outbox.Step, error) {
		t, err := tx.LockTable(ctx, d.cfg.TableID)
		if err != nil || t.Status != tote.TableRunning {
			return outbox.Step{Table: &t}, err
		}
		if d.draw != nil && !prev.Phase.Finished() {
			return outbox.Step{}, tote.ErrDrawChanged(prev.ID)
		}
		jackpot, err := tx.JackpotEnabled(ctx)
		if err != nil {
			return outbox.Step{}, err
		}
		now := d.clock.Now()
		plan := tote.PlanBeacons(chain, now, d.schedule(t))
		nd := tote.Draw{
			TableID: t.ID, Number: prev.Number + 1, Positions: t.Positions, Phase: tote.PhasePreDeal,
			RoundClosesAt: plan.ClosesAt[0],
			MinStake:      t.Settings.MinStake, MaxStake: t.Settings.MaxStake, Pool: t.Settings.PoolConfig(jackpot), SuspendAt: t.Settings.SuspendAt,
			ServerSeed: seed, OpenedAt: now, Odds: pre, Beacons: &plan,
		}
		terms := nd.Terms()
		plan.Terms = &terms
		if nd.Commitment, err = tote.DrawCommitment(seed, t.Positions, &plan); err != nil {
			return outbox.Step{}, errs.Wrap(err, "the beacon chain cannot be committed to")
		}
		if nd, err = tx.InsertDraw(ctx, nd); err != nil {
			return outbox.Step{}, err
		}
		closes := nd.RoundClosesAt
		return outbox.Step{Draw: &nd, Table: &t, Events: []tote.TableEvent{
			{TableID: t.ID, DrawID: nd.ID, Type: tote.EventDrawOpened, At: now, Commitment: cards.FormatCommitment(nd.Commitment), MinStake: nd.MinStake, Odds: pre,
				Number: nd.Number, Seats: nd.Positions, Beacons: plan.WithoutSignatures()},
			{TableID: t.ID, DrawID: nd.ID, Type: tote.EventRoundOpened, At: now, Round: parimutuel.RoundPreDeal, ClosesAt: &closes},
		}}, nil
	})
}

// closeRound closes the open round. Its Exclusive lock on the draw waits for
// every bet in flight; the final totals of the round's pools and the
// round's bet root are published with it.
func (d *Dealer) closeRound(ctx context.Context) error {
	if dr := d.draw; dr != nil && dr.OpenRound() != 0 {
		if detail, early := d.beaconEarly(ctx, *dr, dr.OpenRound()); early {
			return d.voidDraw(ctx, detail)
		}
	}
	var late *rootLate
	err := d.closeRoundTx(ctx)
	if errors.As(err, &late) {
		return d.voidDraw(ctx, late.detail)
	}
	return err
}

// rootLate is a close whose bet root would be published once its street's
// beacon round exists: the transaction is rolled back and the draw voided.
type rootLate struct{ detail tote.VoidDetail }

func (e *rootLate) Error() string { return e.detail.Reason() }

// lateRoot is the ROOT_LATE void of a close at now of round r of dr with
// root, when its root would be published at or after its street's beacon
// round's time with bets in it (fair deal 4): a round without bets has
// nothing the next cards could have changed.
func lateRoot(dr tote.Draw, r parimutuel.Round, root betroot.Root, now time.Time) error {
	b := dr.Beacons
	if b.Version < tote.FairnessTerms || root.NumBets == 0 || now.Before(b.Chain.RoundTime(b.Rounds[r-1])) {
		return nil
	}
	return &rootLate{tote.VoidDetail{Kind: tote.VoidRootLate, At: now, Street: int(r), Round: b.Rounds[r-1],
		Why: fmt.Sprintf("the close ran %s after round %d's time", now.Sub(b.Chain.RoundTime(b.Rounds[r-1])), b.Rounds[r-1])}}
}

// closeRoundTx is closeRound's transaction.
func (d *Dealer) closeRoundTx(ctx context.Context) error {
	return d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
		r := dr.OpenRound()
		res, err := d.poolEvents(ctx, tx, dr, r)
		if err != nil {
			return outbox.Step{}, err
		}
		now := d.clock.Now()
		closed := tote.TableEvent{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventRoundClosed, At: now, Round: r}
		root, err := tote.RoundRoot(ctx, tx, dr, r)
		if err != nil {
			return outbox.Step{}, err
		}
		if dr.Beacons.Version >= tote.FairnessTerms {
			at := now.Truncate(time.Millisecond).UTC()
			if err := lateRoot(dr, r, root, at); err != nil {
				return outbox.Step{}, err
			}
			root.At = &at
		}
		dr.BetRoots = append(dr.BetRoots[:len(dr.BetRoots):len(dr.BetRoots)], root)
		closed.BetRoot = &root
		dr.Phase, dr.RoundClosesAt = tote.DealingPhase(r), time.Time{}
		// The street is dealt once its beacon round is out.
		dr.NextStepAt = dr.Beacons.CardDue(r, 0, d.scale.Of(d.table.Settings.CardInterval))
		nd, err := tx.UpdateDraw(ctx, dr)
		if err != nil {
			return outbox.Step{}, err
		}
		res.Draw = &nd
		res.Events = append(res.Events, closed)
		return res, nil
	})
}

// dealCards deals the next cards: one position's pocket, or a burn and the
// flop, turn or river. Completing a street computes the live odds (outside
// the transaction) and, except after the river, opens the next round.
func (d *Dealer) dealCards(ctx context.Context, act action) error {
	next := *d.draw
	if s := streetOf(act); next.Beacons.Signatures[s-1] == "" {
		b, err := d.streetBeacon(ctx, next, s)
		if err != nil {
			return err
		}
		next.Beacons = next.Beacons.Clone()
		next.Beacons.Signatures[s-1] = b.Signature
	}
	deal, ok := next.Deal()
	if !ok {
		return errs.E(errs.Internal, "draw id %d has no seed for its cards yet", next.ID)
	}
	ev := tote.TableEvent{TableID: next.TableID, DrawID: next.ID, Type: tote.EventCardsDealt}
	var open parimutuel.Round
	switch act {
	case actDealPocket:
		i := len(next.Pockets)
		next.Pockets = append(next.Pockets[:i:i], deal.Pockets[i])
		ev.Position, ev.Street, ev.Cards = i+1, tote.StreetPocket, tote.CardStrings(deal.Pockets[i][:])
		if len(next.Pockets) == next.Positions {
			open = parimutuel.RoundPocket
		}
	case actDealFlop:
		next.Burns = append(next.Burns[:0:0], deal.Burns[0])
		next.Board = append(next.Board[:0:0], deal.Flop[:]...)
		ev.Street, ev.Cards, open = tote.StreetFlop, tote.CardStrings(deal.Flop[:]), parimutuel.RoundFlop
	case actDealTurn:
		next.Burns = append(next.Burns[:1:1], deal.Burns[1])
		next.Board = append(next.Board[:3:3], deal.Turn)
		ev.Street, ev.Cards, open = tote.StreetTurn, []string{deal.Turn.String()}, parimutuel.RoundTurn
	case actDealRiver:
		next.Burns = append(next.Burns[:2:2], deal.Burns[2])
		next.Board = append(next.Board[:4:4], deal.River)
		ev.Street, ev.Cards = tote.StreetRiver, []string{deal.River.String()}
	}
	if open != 0 {
		// The round opens with its chances in the same transaction (SPEC
		// 1.9): no bet on a suspended selection can be taken before they
		// are stored.
		rc, err := tote.ChancesAtOpening(next.Pockets, next.Board, open, next.SuspendAt)
		if err != nil {
			return err
		}
		next.Chances = append(next.Chances[:len(next.Chances):len(next.Chances)], rc)
	}
	streetDone := open != 0 || act == actDealRiver
	// The next round closes at its committed deadline, so it opens with
	// the cards and the odds follow in their own step: the time the odds
	// take is never taken from the players' betting round.
	oddsAfter := streetDone && d.odds != nil && open != 0
	var odds *tote.LiveOdds
	if streetDone && d.odds != nil && !oddsAfter {
		// Odds are a courtesy: once round 1 has closed nothing may keep the
		// draw from being dealt to the end (void.go), so a failed
		// computation only leaves the odds out.
		if o, err := d.odds.Live(ctx, next.Pockets, next.Board); err != nil {
			d.log.WarnContext(ctx, "live odds not computed", "draw", next.ID, "err", err)
		} else {
			odds = &o
		}
	}
	err := d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
		return d.applyDeal(ctx, tx, dr, next, ev, open, odds)
	})
	if err != nil || !oddsAfter {
		return err
	}
	return d.publishOdds(ctx, next, open)
}

// publishOdds computes the live odds of the cards dealt so far and stores
// and publishes them while round open takes bets. A failure is logged, not
// retried: the cards and the round are already out, and the next street
// brings fresh odds.
func (d *Dealer) publishOdds(ctx context.Context, dealt tote.Draw, open parimutuel.Round) error {
	o, err := d.odds.Live(ctx, dealt.Pockets, dealt.Board)
	if err != nil {
		d.log.WarnContext(ctx, "live odds not computed", "draw", dealt.ID, "err", err)
		return nil
	}
	return d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
		if dr.Phase != tote.BettingPhase(open) {
			return outbox.Step{Draw: &dr}, nil
		}
		dr.Odds = &o
		nd, err := tx.UpdateDraw(ctx, dr)
		if err != nil {
			return outbox.Step{}, err
		}
		return outbox.Step{Draw: &nd, Events: []tote.TableEvent{
			{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventOddsUpdated, At: d.clock.Now(), Odds: &o},
		}}, nil
	})
}

// applyDeal stores the cards dealt by dealCards (dr is the locked row, next
// the draw with its new cards) and, when a street is complete, the odds and
// the next round.
func (d *Dealer) applyDeal(ctx context.Context, tx tote.Tx, dr, next tote.Draw, ev tote.TableEvent, open parimutuel.Round, odds *tote.LiveOdds) (outbox.Step, error) {
	now := d.clock.Now()
	dr.Pockets, dr.Board, dr.Burns, dr.Beacons, dr.Chances = next.Pockets, next.Board, next.Burns, next.Beacons, next.Chances
	ev.At = now
	ev.Board, ev.Hands = tote.CardStrings(dr.Board), tote.PositionStates(dr)
	events := []tote.TableEvent{ev}
	dr.NextStepAt = now.Add(d.scale.Of(d.table.Settings.CardInterval))
	if ev.Street == tote.StreetPocket && open == 0 {
		// Pockets keep to the committed timetable: a slow step does not push
		// the later ones (and the next round's opening) further back.
		dr.NextStepAt = dr.Beacons.CardDue(parimutuel.RoundPreDeal, len(dr.Pockets), d.scale.Of(d.table.Settings.CardInterval))
	}
	if odds != nil {
		dr.Odds = odds
		events = append(events, tote.TableEvent{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventOddsUpdated, At: now, Odds: odds})
	}
	if ev.Street == tote.StreetRiver {
		dr.Phase = tote.PhaseSettling
	}
	if open != 0 {
		dr.Phase = tote.BettingPhase(open)
		dr.RoundClosesAt = dr.Beacons.ClosesAt[open-1] // committed when the draw opened
		dr.NextStepAt = time.Time{}
		closes := dr.RoundClosesAt
		opened := tote.TableEvent{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventRoundOpened, At: now, Round: open, ClosesAt: &closes}
		if n := len(dr.Chances); n > 0 && dr.Chances[n-1].Round == open {
			opened.Chances, opened.SuspendAt = &dr.Chances[n-1], dr.EffectiveSuspendAt()
		}
		events = append(events, opened)
	}
	nd, err := tx.UpdateDraw(ctx, dr)
	if err != nil {
		return outbox.Step{}, err
	}
	return outbox.Step{Draw: &nd, Events: events}, nil
}

// poolEvents builds POOL_UPDATED events for the pools of round r whose
// money changed since they were last published.
func (d *Dealer) poolEvents(ctx context.Context, tx tote.Tx, dr tote.Draw, r parimutuel.Round) (outbox.Step, error) {
	totals, err := tx.PoolTotals(ctx, dr.ID, r)
	if err != nil {
		return outbox.Step{}, err
	}
	views, err := tote.RoundPoolViews(totals, dr.Pool, dr.Positions, r)
	if err != nil {
		return outbox.Step{}, err
	}
	var res outbox.Step
	now := d.clock.Now()
	for _, v := range views {
		if d.pools[tote.PoolKey{Round: v.Round, Market: v.Market}] == tote.SignatureOf(v) {
			continue
		}
		res.Pools = append(res.Pools, v)
		res.Events = append(res.Events, tote.TableEvent{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventPoolUpdated, At: now, Round: r, Pool: &v})
	}
	return res, nil
}

// poolTick reads the open draw again every PoolTick, to notice a draw
// changed by someone else (an admin's void), and publishes the open
// round's pools when the intake signalled new bets (poolsDirty), at most
// once per PoolTick: the signals in between are carried by the next.
func (d *Dealer) poolTick(ctx context.Context) error {
	now := d.clock.Now()
	if d.draw == nil || d.draw.OpenRound() == 0 {
		return nil
	}
	if !now.Before(d.nextPool) {
		d.nextPool = now.Add(d.cfg.PoolTick)
		fresh, err := d.store.Draw(ctx, d.draw.ID)
		if err != nil {
			return err
		}
		if fresh.Version != d.draw.Version {
			return tote.ErrDrawChanged(fresh.ID)
		}
	}
	if now.Before(d.poolsAt) || !d.poolsDirty.Swap(false) {
		return nil
	}
	d.poolsAt = now.Add(d.cfg.PoolTick)
	if err := d.publishPools(ctx); err != nil {
		d.poolsDirty.Store(true) // the next tick tries again
		return err
	}
	return nil
}

// publishPools publishes POOL_UPDATED for each pool of the open round
// whose totals changed since it was last published.
func (d *Dealer) publishPools(ctx context.Context) error {
	totals, err := d.store.PoolTotals(ctx, d.draw.ID, d.draw.OpenRound())
	if err != nil {
		return err
	}
	views, err := tote.BuildPoolViews(totals, d.draw.Pool)
	if err != nil || !d.poolsChanged(views) {
		return err
	}
	// A Shared lock: pool updates never hold bets up.
	return d.commit(ctx, tote.Shared, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
		return d.poolEvents(ctx, tx, dr, dr.OpenRound())
	})
}

// poolsChanged reports whether any of views differs from what was last
// published.
func (d *Dealer) poolsChanged(views []tote.PoolView) bool {
	for _, v := range views {
		if d.pools[tote.PoolKey{Round: v.Round, Market: v.Market}] != tote.SignatureOf(v) {
			return true
		}
	}
	return false
}

// voidDraw voids the current draw for a missing or early beacon: the only
// voids a dealer makes (void.go).
func (d *Dealer) voidDraw(ctx context.Context, detail tote.VoidDetail) error {
	d.log.WarnContext(ctx, "voiding draw", "draw", d.draw.ID, "reason", detail.Reason())
	return d.commit(ctx, tote.Exclusive, func(ctx context.Context, tx tote.Tx, dr tote.Draw) (outbox.Step, error) {
		if dr.Phase.Finished() {
			return outbox.Step{Draw: &dr}, nil
		}
		return d.settler.Void(ctx, tx, dr, d.table, detail)
	})
}

// streetOf is the street a dealing step draws.
func streetOf(act action) int {
	switch act {
	case actDealFlop:
		return cards.StreetFlop
	case actDealTurn:
		return cards.StreetTurn
	case actDealRiver:
		return cards.StreetRiver
	}
	return cards.StreetPockets
}
