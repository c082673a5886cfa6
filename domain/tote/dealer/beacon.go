package dealer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
)

// errBeaconPending is a dealing step that must wait for its beacon round:
// not a failure, the dealer asks again after beaconPoll.
var errBeaconPending = errors.New("beacon round not available yet")

// schedule is the table's timings, scaled, for PlanBeacons.
func (d *Dealer) schedule(t tote.Table) tote.BeaconSchedule {
	s := tote.BeaconSchedule{Card: d.scale.Of(t.Settings.CardInterval), BeaconWait: d.cfg.BeaconWait, Positions: t.Positions, Gap: MinBeaconGap}
	for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
		s.Rounds[r-1] = d.scale.Of(t.Settings.RoundLength(r))
	}
	return s
}

// MinBeaconGap is the least real time from a betting round's close to its
// street's beacon round (DrawBeacons.GapMs), whatever TIME_SCALE makes of
// the chain's period: the close's transaction publishes the round's bet
// root in it, and a root published once the round exists voids the draw.
const MinBeaconGap = time.Second

// beaconPoll is how often the dealer asks for a beacon round it waits for:
// a quarter of the chain's period, between 1 ms and 500 ms.
func (d *Dealer) beaconPoll() time.Duration {
	p := 500 * time.Millisecond
	if d.beacon != nil {
		p = time.Duration(d.beacon.Chain().PeriodMs) * time.Millisecond / 4
	}
	return min(max(p, time.Millisecond), 500*time.Millisecond)
}

// streetBeacon fetches and verifies the beacon round that street s of dr
// committed to. While the round is missing (not published, unreachable,
// or failing verification) it answers errBeaconPending; once the street's
// deadline has passed it voids the draw with full refunds instead, and
// never deals from anything else.
func (d *Dealer) streetBeacon(ctx context.Context, dr tote.Draw, s int) (beacon.Beacon, error) {
	bc := dr.Beacons
	r := bc.Rounds[s-1]
	b, why := d.fetchBeacon(ctx, bc.Chain, r)
	if why == nil {
		return b, nil
	}
	now := d.clock.Now()
	if !now.After(bc.Deadlines[s-1]) {
		d.log.DebugContext(ctx, "waiting for the beacon", "draw", dr.ID, "round", r, "why", why)
		d.announceDelay(ctx, dr, s, now, why)
		return beacon.Beacon{}, errBeaconPending
	}
	deadline := bc.Deadlines[s-1]
	detail := tote.VoidDetail{
		Kind: tote.VoidBeaconMissing, At: now.Truncate(time.Millisecond).UTC(), Street: s, Round: r, Deadline: &deadline,
		Why: fmt.Sprintf("chain %s %s: %v", bc.Chain.Name, bc.Chain.Hash, why),
	}
	if err := d.voidDraw(ctx, detail); err != nil {
		return beacon.Beacon{}, err
	}
	return beacon.Beacon{}, errBeaconPending // the draw is over; the next Tick plans on from it
}

// delayRepeat is how often BEACON_DELAYED is sent again while a draw waits
// (a read model rebuilt meanwhile learns it from the next one).
const delayRepeat = time.Minute

// announceDelay tells the table's viewers (BEACON_DELAYED) that the draw
// waits for street s's beacon round: once it is two periods (and at least
// two seconds) past its time, then every delayRepeat. A failure to send it
// is logged, never a reason to stop waiting.
func (d *Dealer) announceDelay(ctx context.Context, dr tote.Draw, s int, now time.Time, why error) {
	bc := dr.Beacons
	r := bc.Rounds[s-1]
	grace := max(2*time.Duration(bc.Chain.PeriodMs)*time.Millisecond, 2*time.Second)
	if now.Before(bc.Chain.RoundTime(r).Add(grace)) {
		return
	}
	if n := d.delayed; n.draw == dr.ID && n.street == s && now.Sub(n.at) < delayRepeat {
		return
	}
	deadline, due := bc.Deadlines[s-1], bc.Chain.RoundTime(r)
	ev := tote.TableEvent{TableID: dr.TableID, DrawID: dr.ID, Type: tote.EventBeaconDelayed, At: now, Street: streetNames[s-1],
		BeaconRound: r, DueAt: &due, Deadline: &deadline, Reason: why.Error()}
	err := d.commit(ctx, tote.Shared, func(context.Context, tote.Tx, tote.Draw) (outbox.Step, error) {
		return outbox.Step{Events: []tote.TableEvent{ev}}, nil
	})
	if err != nil {
		d.log.WarnContext(ctx, "beacon delay not announced", "draw", dr.ID, "err", err)
		return
	}
	d.delayed = delayNotice{draw: dr.ID, street: s, at: now}
	d.log.WarnContext(ctx, "waiting for a late beacon", "draw", dr.ID, "street", s, "round", r, "deadline", deadline, "why", why)
}

// streetNames are the streets as events name them, index s-1.
var streetNames = [4]string{tote.StreetPocket, tote.StreetFlop, tote.StreetTurn, tote.StreetRiver}

// fetchBeacon reads round r of chain c from the dealer's source and
// verifies it; the error says why it is not usable.
func (d *Dealer) fetchBeacon(ctx context.Context, c beacon.Chain, r uint64) (beacon.Beacon, error) {
	src := d.beacon
	if src == nil {
		return beacon.Beacon{}, errors.New("no beacon source is configured")
	}
	if got := src.Chain(); got.Hash != c.Hash {
		return beacon.Beacon{}, fmt.Errorf("this dealer reads chain %s, the draw committed to %s", got.Hash, c.Hash)
	}
	b, err := src.Beacon(ctx, r)
	if err != nil {
		return beacon.Beacon{}, err
	}
	if b.Round != r {
		return beacon.Beacon{}, fmt.Errorf("asked for round %d, got round %d", r, b.Round)
	}
	if _, err := beacon.Verify(c, b); err != nil {
		d.log.WarnContext(ctx, "beacon rejected", "round", r, "err", err)
		return beacon.Beacon{}, err
	}
	return b, nil
}

// beaconEarly checks, as betting round r of dr closes, that the beacon
// round street r is drawn from is not published yet: it is committed to be
// at least a full period after the close, so the dealer's source having it
// means the server's clock (which stopped the bets) is that far behind the
// chain, and a bet of the round could have been placed knowing the street.
// Then the draw is voided, BEACON_BEFORE_CLOSE, with the round's
// signature. A close that runs only after the round's time (a stalled
// dealer, a takeover) proves nothing either way, since bets stopped at the
// committed close by the clock, and is never voided for it; a source that
// cannot answer in time counts as "not published".
func (d *Dealer) beaconEarly(ctx context.Context, dr tote.Draw, r parimutuel.Round) (tote.VoidDetail, bool) {
	bc := dr.Beacons
	s := int(r)
	round := bc.Rounds[s-1]
	now := d.clock.Now()
	if !now.Before(bc.Chain.RoundTime(round)) {
		return tote.VoidDetail{}, false
	}
	wait := min(max(time.Duration(bc.Chain.PeriodMs)*time.Millisecond/2, time.Millisecond), time.Second)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	b, err := d.fetchBeacon(ctx, bc.Chain, round)
	if err != nil {
		return tote.VoidDetail{}, false
	}
	return tote.VoidDetail{
		Kind: tote.VoidBeaconEarly, At: now.Truncate(time.Millisecond).UTC(), Street: s, Round: round, Signature: b.Signature,
		Why: fmt.Sprintf("chain %s %s", bc.Chain.Name, bc.Chain.Hash),
	}, true
}
