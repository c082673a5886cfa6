package tote

import (
	"encoding/json"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// EventType names a table event. The values are stored in the outbox and
// match the API's TableEventType.
type EventType string

// The table events.
const (
	EventDrawOpened   EventType = "DRAW_OPENED"
	EventRoundOpened  EventType = "ROUND_OPENED"
	EventRoundClosed  EventType = "ROUND_CLOSED"
	EventCardsDealt   EventType = "CARDS_DEALT"
	EventOddsUpdated  EventType = "ODDS_UPDATED"
	EventPoolUpdated  EventType = "POOL_UPDATED"
	EventDrawSettled  EventType = "DRAW_SETTLED"
	EventDrawVoided   EventType = "DRAW_VOIDED"
	EventTablePaused  EventType = "TABLE_PAUSED"
	EventTableResumed EventType = "TABLE_RESUMED"
	// EventBeaconDelayed: a street's beacon round is due and no relay
	// serves it yet; the draw waits (no other draw opens) until BeaconRound
	// comes or Deadline passes. Sent again every minute while it waits.
	EventBeaconDelayed EventType = "BEACON_DELAYED"
)

// Streets of a CARDS_DEALT event.
const (
	StreetPocket = "POCKET"
	StreetFlop   = "FLOP"
	StreetTurn   = "TURN"
	StreetRiver  = "RIVER"
)

// TableEvent is one event of a table's public stream. It is appended to the
// table's outbox in the transaction of the step that caused it, where it
// gets Seq (1, 2, ... per table, no gaps), and is published after the
// commit. Its JSON is both the outbox payload and the broker message.
type TableEvent struct {
	Seq     int64     `json:"seq"`
	TableID int64     `json:"tableId"`
	DrawID  int64     `json:"drawId,omitempty"`
	Type    EventType `json:"type"`
	At      time.Time `json:"at"`

	Round    parimutuel.Round `json:"round,omitempty"`
	Cards    []string         `json:"cards,omitempty"`
	Position int              `json:"position,omitempty"`
	Street   string           `json:"street,omitempty"`
	// ClosesAt is when the opened round closes (ROUND_OPENED).
	ClosesAt *time.Time `json:"closesAt,omitempty"`
	// Commitment (DRAW_OPENED), PublicSeed (ROUND_CLOSED of round 1) and
	// ServerSeed (DRAW_SETTLED, DRAW_VOIDED) publish the shuffle's seeds
	// as they become known, in hex.
	Commitment string `json:"commitment,omitempty"`
	PublicSeed string `json:"publicSeed,omitempty"`
	// BetRoot (ROUND_CLOSED of a version-2 draw) commits to every bet the
	// round accepted (bet_roots.go), before the next street's beacon.
	BetRoot    *betroot.Root `json:"betRoot,omitempty"`
	ServerSeed string        `json:"serverSeed,omitempty"`
	MinStake   money.Amount  `json:"minStake,omitempty"`
	// Beacons (DRAW_OPENED) commits to the beacon chain and rounds every
	// street will be drawn from (docs/fairness.md).
	Beacons *DrawBeacons `json:"beacons,omitempty"`

	// Number is the draw's number within its table (DRAW_OPENED), and
	// Seats its number of positions.
	Number int64 `json:"number,omitempty"`
	Seats  int   `json:"seats,omitempty"`
	// Board is the whole board after the card (CARDS_DEALT), and Hands
	// every position's cards, best hand and status after it (CARDS_DEALT,
	// DRAW_SETTLED, DRAW_VOIDED): what a table view draws, frozen at the
	// event, so a replayed event never reads today's state.
	Board []string        `json:"board,omitempty"`
	Hands []PositionState `json:"hands,omitempty"`

	// Chances (ROUND_OPENED of rounds 2 to 4) is what the round opened
	// with, and SuspendAt the draw's threshold: a selection at or above it
	// takes no bet in the round (SPEC 1.9).
	Chances   *RoundChances     `json:"chances,omitempty"`
	SuspendAt money.BasisPoints `json:"suspendAt,omitempty"`

	Odds   *LiveOdds   `json:"odds,omitempty"`
	Pool   *PoolView   `json:"pool,omitempty"`
	Result *DrawResult `json:"result,omitempty"`
	Reason string      `json:"reason,omitempty"`
	// BeaconRound, DueAt and Deadline (BEACON_DELAYED) are the round
	// awaited for Street, when it was due, and when the draw voids without
	// it.
	BeaconRound uint64     `json:"beaconRound,omitempty"`
	DueAt       *time.Time `json:"dueAt,omitempty"`
	Deadline    *time.Time `json:"deadline,omitempty"`
}

// Encode returns the event's wire form.
func (e TableEvent) Encode() []byte {
	b, err := json.Marshal(e)
	if err != nil { // only plain fields and finite floats: cannot happen
		panic("tote: encode event: " + err.Error())
	}
	return b
}

// DecodeTableEvent reads the wire form written by Encode.
func DecodeTableEvent(b []byte) (TableEvent, error) {
	var e TableEvent
	err := json.Unmarshal(b, &e)
	return e, err
}

// PoolView is one pool as it stands: its totals per selection with the
// implied coefficients of SPEC 1.6.
type PoolView struct {
	Round      parimutuel.Round  `json:"round"`
	Market     parimutuel.Market `json:"market"`
	Gross      money.Amount      `json:"gross"`
	Net        money.Amount      `json:"net"`
	Bets       int               `json:"bets"`
	Selections []SelectionView   `json:"selections"`
}

// SelectionView is the money on one selection and its implied coefficient
// (0 when nothing is on it).
type SelectionView struct {
	Selection string       `json:"selection"`
	Stake     money.Amount `json:"stake"`
	Bets      int          `json:"bets"`
	Implied   money.Coef   `json:"implied"`
}

// PositionState is one position as a table view draws it at an event: its
// cards, its best five with the board so far and its status.
type PositionState struct {
	Number int      `json:"number"`
	Cards  []string `json:"cards,omitempty"`
	// Best is nil before the flop (or before the position's pocket).
	Best   *BestHand `json:"best,omitempty"`
	Status string    `json:"status"`
}

// BestHand is a position's best five cards with the board so far.
type BestHand struct {
	Category    parimutuel.Combination `json:"category"`
	Description string                 `json:"description"`
	Cards       []string               `json:"cards"`
}

// PositionStates freezes d's positions (PositionViews) into event form.
func PositionStates(d Draw) []PositionState {
	views := d.PositionViews()
	out := make([]PositionState, len(views))
	for i, v := range views {
		ps := PositionState{Number: v.Number, Status: v.Status}
		if len(v.Cards) > 0 {
			ps.Cards = CardStrings(v.Cards)
		}
		if v.Best != 0 {
			ps.Best = &BestHand{Category: v.Best.Category(), Description: v.Best.Describe(), Cards: CardStrings(v.BestFive[:])}
		}
		out[i] = ps
	}
	return out
}
