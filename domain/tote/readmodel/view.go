package readmodel

import (
	"encoding/hex"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// TableView is everything a table view renders, as of the table's event
// Seq: the state a client reaches by folding the table's events from the
// start, and the content of the join snapshot. A TableView is immutable once
// built: Apply returns a new one, so views are shared between goroutines
// without locks.
type TableView struct {
	Seq     int64
	At      time.Time // when event Seq happened
	TableID int64
	Status  tote.TableStatus
	// Draw is the current (or last shown) draw; nil before the first one.
	Draw *DrawView
}

// DrawView is one draw as a table view renders it.
type DrawView struct {
	ID        int64
	Number    int64
	Positions int
	Phase     tote.Phase
	// RoundClosesAt is when the open round closes; zero when none is open.
	RoundClosesAt time.Time
	MinStake      money.Amount
	// Commitment, PublicSeed and ServerSeed are hex, empty until known.
	Commitment string
	PublicSeed string
	ServerSeed string
	Board      []string
	Hands      []tote.PositionState
	Odds       *tote.LiveOdds
	// Pools is every pool of the draw in DrawPools order, each listing its
	// selections (see RoundPoolViews).
	Pools      []tote.PoolView
	Result     *tote.DrawResult
	VoidReason string
	OpenedAt   time.Time
	// Chances is what the open round opened with (nil for PRE_DEAL and
	// while no round is open) and SuspendAt the draw's threshold with it
	// (SPEC 1.9); both are zero without chances.
	Chances   *tote.RoundChances
	SuspendAt money.BasisPoints
	// Beacons is the beacon commitment as DRAW_OPENED published it (no
	// signatures): the chain and each street's close time, round and
	// deadline, which the commitment covers (fair deal 3). Nil for a
	// version-1 draw.
	Beacons *tote.DrawBeacons
	// BeaconDelay is the street whose beacon the draw waits for past its
	// round's time (BEACON_DELAYED), until its cards are dealt or the draw
	// ends; nil otherwise.
	BeaconDelay *BeaconDelay
}

// BeaconDelay is a draw waiting for a beacon round, as the lobby shows it.
type BeaconDelay struct {
	Street   string
	Round    uint64
	Since    time.Time // the round's time
	Deadline time.Time
}

// OpenRound is the round taking bets, or 0.
func (d *DrawView) OpenRound() parimutuel.Round { return d.Phase.BettingRound() }

// Apply folds event e into v and returns the new view; v is not changed.
// Events at or below v.Seq are ignored (v is returned), so a caller may
// apply a replayed event twice. An event of a draw other than the current
// one (except DRAW_OPENED) changes only Seq and At.
func (v TableView) Apply(e tote.TableEvent) TableView {
	if e.Seq != 0 && e.Seq <= v.Seq {
		return v
	}
	v.Seq, v.At = e.Seq, e.At
	switch e.Type {
	case tote.EventTablePaused:
		v.Status = tote.TablePaused
		return v
	case tote.EventTableResumed:
		v.Status = tote.TableRunning
		return v
	case tote.EventDrawOpened:
		v.Draw = openedDraw(e)
		return v
	}
	if v.Draw == nil || v.Draw.ID != e.DrawID {
		return v
	}
	d := *v.Draw
	switch e.Type {
	case tote.EventRoundOpened:
		d.Phase = tote.BettingPhase(e.Round)
		if e.ClosesAt != nil {
			d.RoundClosesAt = *e.ClosesAt
		}
		d.Chances, d.SuspendAt = e.Chances, e.SuspendAt
	case tote.EventRoundClosed:
		d.Phase, d.RoundClosesAt = tote.DealingPhase(e.Round), time.Time{}
		d.Chances, d.SuspendAt = nil, 0
		if e.PublicSeed != "" {
			d.PublicSeed = e.PublicSeed
		}
	case tote.EventCardsDealt:
		d.Board, d.Hands, d.BeaconDelay = e.Board, e.Hands, nil
	case tote.EventBeaconDelayed:
		if e.DueAt != nil && e.Deadline != nil {
			d.BeaconDelay = &BeaconDelay{Street: e.Street, Round: e.BeaconRound, Since: *e.DueAt, Deadline: *e.Deadline}
		}
	case tote.EventOddsUpdated:
		d.Odds = e.Odds
	case tote.EventPoolUpdated:
		if e.Pool != nil {
			d.Pools = withPool(d.Pools, *e.Pool)
		}
	case tote.EventDrawSettled, tote.EventDrawVoided:
		d.Phase, d.RoundClosesAt, d.BeaconDelay = tote.PhaseSettled, time.Time{}, nil
		d.Chances, d.SuspendAt = nil, 0
		if e.Type == tote.EventDrawVoided {
			d.Phase, d.VoidReason = tote.PhaseVoid, e.Reason
		}
		d.Result, d.ServerSeed = e.Result, e.ServerSeed
		if e.Hands != nil {
			d.Hands = e.Hands
		}
		if e.Board != nil {
			d.Board = e.Board
		}
	}
	v.Draw = &d
	return v
}

// openedDraw is the draw a DRAW_OPENED event starts: round 1 open, no
// cards, every pool empty.
func openedDraw(e tote.TableEvent) *DrawView {
	d := &DrawView{
		ID: e.DrawID, Number: e.Number, Positions: e.Seats, Phase: tote.PhasePreDeal, MinStake: e.MinStake,
		Commitment: e.Commitment, Odds: e.Odds, OpenedAt: e.At, Board: []string{},
		Hands: emptyHands(e.Seats), Pools: emptyPools(e.Seats), Beacons: e.Beacons.Clone(),
	}
	return d
}

func emptyHands(n int) []tote.PositionState {
	out := make([]tote.PositionState, n)
	for i := range out {
		out[i] = tote.PositionState{Number: i + 1, Status: tote.PositionPending}
	}
	return out
}

func emptyPools(n int) []tote.PoolView {
	var out []tote.PoolView
	for _, k := range tote.DrawPools() {
		out = append(out, tote.EmptyPoolView(k, n))
	}
	return out
}

// withPool returns pools with p in place of the pool of its round and
// market (a new slice; pools is not changed).
func withPool(pools []tote.PoolView, p tote.PoolView) []tote.PoolView {
	out := slices.Clone(pools)
	for i, q := range out {
		if q.Round == p.Round && q.Market == p.Market {
			out[i] = p
			return out
		}
	}
	return append(out, p)
}

// ViewOf builds a table's view from the store's state: the table (its
// LastSeq is the view's Seq), its latest draw (nil: none yet) and that
// draw's pool totals of every round. It is how a read model starts and
// recovers from a missed event.
func ViewOf(t tote.Table, d *tote.Draw, totals []tote.SelectionTotal) (TableView, error) {
	v := TableView{Seq: t.LastSeq, At: t.UpdatedAt, TableID: t.ID, Status: t.Status}
	if d == nil {
		return v, nil
	}
	dv := &DrawView{
		ID: d.ID, Number: d.Number, Positions: d.Positions, Phase: d.Phase.Public(), MinStake: d.MinStake,
		Commitment: cards.FormatCommitment(d.Commitment), Board: tote.CardStrings(d.Board), Hands: tote.PositionStates(*d),
		Odds: d.Odds, Result: d.Result, VoidReason: d.VoidReason, OpenedAt: d.OpenedAt,
	}
	if d.Beacons != nil {
		dv.Beacons = d.Beacons.WithoutSignatures()
	}
	if r := d.OpenRound(); r != 0 {
		dv.RoundClosesAt = d.RoundClosesAt
		for i := range d.Chances {
			if d.Chances[i].Round == r {
				dv.Chances, dv.SuspendAt = &d.Chances[i], d.EffectiveSuspendAt()
			}
		}
	}
	if d.PublicSeed != nil {
		dv.PublicSeed = hex.EncodeToString(d.PublicSeed)
	}
	if d.Revealed {
		dv.ServerSeed = d.ServerSeed.Hex()
	}
	for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
		pools, err := tote.RoundPoolViews(totals, d.Pool, d.Positions, r)
		if err != nil {
			return TableView{}, err
		}
		dv.Pools = append(dv.Pools, pools...)
	}
	v.Draw = dv
	return v, nil
}
