// Package webhook pushes the totalizator's public results to partners'
// servers: an admin registers an endpoint (a URL, the event types it wants
// and a signing secret), and every replica's Dispatcher delivers each
// matching event of the tables' outboxes to it, signed as the Standard
// Webhooks convention says, at least once and in order.
//
// The events come from the outbox the dealer already appends to in the
// transaction that makes them true, so a delivery can never announce what
// did not commit. An endpoint keeps one cursor per table (the last seq it
// acknowledged); it is delivered by one replica at a time, under a lease
// claimed in the database, and a cursor only moves under that lease's
// fence, so a replica that dies mid-delivery leaves the event to be sent
// again by the next holder, never lost and never skipped.
package webhook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pokertote/pokertote/domain/regfeed"
)

// Type is an event type an endpoint subscribes to. The set is closed:
// Types lists it, and anything else is refused.
type Type string

// The event types.
const (
	// DrawSettled: a draw was settled; the data is its published result.
	DrawSettled Type = "draw.settled"
	// DrawVoided: a draw was voided; the data carries the typed void kind.
	DrawVoided Type = "draw.voided"
	// TableCreated: a table appeared (sent before any of its events).
	TableCreated Type = "table.created"
	// TableChanged: a table was paused or resumed.
	TableChanged Type = "table.changed"

	// The regulator's feed (domain/regfeed): a record per person per
	// wallet movement.
	RegulatorBetAccepted = Type(regfeed.BetAccepted)
	RegulatorBetSettled  = Type(regfeed.BetSettled)
	RegulatorDeposit     = Type(regfeed.Deposit)
	RegulatorWithdrawal  = Type(regfeed.Withdrawal)
	RegulatorProtection  = Type(regfeed.ProtectionChanged)
)

// Types is every event type, in the order the admin pages list them.
var Types = []Type{DrawSettled, DrawVoided, TableCreated, TableChanged,
	RegulatorBetAccepted, RegulatorBetSettled, RegulatorDeposit, RegulatorWithdrawal, RegulatorProtection}

// Known reports whether t is one of Types.
func (t Type) Known() bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// Endpoint is a partner's receiver as stored, with its delivery state.
type Endpoint struct {
	ID     int64
	URL    string
	Types  []Type
	Secret string // whsec_<base64>: signs every delivery
	// Description says whose endpoint it is.
	Description string
	CreatedBy   int64
	CreatedAt   time.Time

	// Delivery state. FailingSince is the first failed attempt of the
	// event now at the head (nil while deliveries succeed); NextAttempt is
	// when the head may be tried again; Parked is set when the head kept
	// failing for the retry window, and nothing more is sent until an
	// admin replays or resumes the endpoint.
	Attempts     int
	FailingSince *time.Time
	NextAttempt  time.Time
	LastError    string
	Parked       *time.Time
	// Delivered counts acknowledged deliveries; LastDelivered is the last.
	Delivered     int64
	LastDelivered *time.Time
}

// Wants reports whether the endpoint subscribes to t.
func (e Endpoint) Wants(t Type) bool {
	for _, w := range e.Types {
		if w == t {
			return true
		}
	}
	return false
}

// Message is one delivery: the Standard Webhooks envelope of an event.
// ID is stable for the event ("evt_<table>_<seq>"), so a receiver drops a
// repeat by it.
type Message struct {
	ID        string          `json:"-"`
	Type      Type            `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
	// TableID and Seq place the event in its table's stream: the cursor a
	// successful delivery moves to.
	TableID int64 `json:"-"`
	Seq     int64 `json:"-"`
	// order is Timestamp made non-decreasing along the table: the key
	// the dispatcher merges tables by.
	order time.Time
}

// Body is the request body a receiver gets: {"type", "timestamp", "data"}.
func (m Message) Body() []byte {
	b, err := json.Marshal(m)
	if err != nil { // a RawMessage that is not JSON: the source's bug
		panic("webhook: encode message: " + err.Error())
	}
	return b
}

// Outcome is what a receiver did with one delivery.
type Outcome struct {
	// Status is the HTTP status (0 when no response came).
	Status int
	// Err is why the delivery failed (nil for a 2xx answer).
	Err error
}

// Sender delivers one signed message to an endpoint's URL. It returns when
// the receiver answered or the attempt timed out.
type Sender interface {
	Send(ctx context.Context, e Endpoint, m Message) Outcome
}

// Source lists the events after an endpoint's cursors: the next messages
// of every table, each table's in order, at most limit in all.
type Source interface {
	// Tables lists every table id with its newest seq.
	Tables(ctx context.Context) ([]TableHead, error)
	// After lists table's events with Seq > after as messages (events no
	// endpoint can subscribe to included, as a nil Data with their Seq, so
	// that cursors move past them), at most limit.
	After(ctx context.Context, tableID, after int64, limit int) ([]Message, error)
	// Created is the table.created message of a table.
	Created(ctx context.Context, tableID int64) (Message, error)
}

// TableHead is a table and the seq of its newest event.
type TableHead struct {
	TableID int64
	LastSeq int64
}

// Cursor is how far an endpoint has delivered one table: Seq is the last
// acknowledged seq; -1 means not even table.created yet.
type Cursor struct {
	TableID int64
	Seq     int64
}

// Lease is one replica's hold on an endpoint's deliveries: Fence grows each
// time the endpoint changes hands, and every write checks it.
type Lease struct {
	EndpointID int64
	Owner      string
	Fence      int64
	Until      time.Time
}

// Store keeps endpoints, their cursors and their leases. Create, Delete,
// Replay and Resume append their audit entry in the same transaction.
type Store interface {
	CreateEndpoint(ctx context.Context, e Endpoint, cursors []Cursor) (Endpoint, error)
	Endpoint(ctx context.Context, id int64) (Endpoint, error)
	Endpoints(ctx context.Context) ([]Endpoint, error)
	DeleteEndpoint(ctx context.Context, id, by int64, at time.Time) error
	// Replay sets the endpoint's cursor on table to seq-1 (so that seq is
	// delivered next), clears its failure state and unparks it.
	Replay(ctx context.Context, id, tableID, seq, by int64, at time.Time) (Endpoint, error)

	// Claim takes (or renews) the lease of an endpoint that is due (not
	// parked, NextAttempt passed) for owner until `until`; ok is false when
	// another replica holds it or nothing is due.
	Claim(ctx context.Context, id int64, owner string, now, until time.Time) (Lease, bool, error)
	// Release gives the lease up early (a clean shutdown).
	Release(ctx context.Context, l Lease) error
	Cursors(ctx context.Context, id int64) ([]Cursor, error)
	// Delivered records an acknowledged message under l: the table's cursor
	// moves to seq and the failure state clears. Conflict LEASE_LOST when
	// l is no longer the endpoint's lease (nothing changes then).
	Delivered(ctx context.Context, l Lease, c Cursor, at time.Time) error
	// Skipped moves cursors past events the endpoint does not want.
	Skipped(ctx context.Context, l Lease, cs []Cursor) error
	// Failed records a failed attempt under l: attempts+1, the error, the
	// next attempt time, and parked when park is set.
	Failed(ctx context.Context, l Lease, f Failure) error
}

// Failure is a failed attempt as the Store records it.
type Failure struct {
	At          time.Time
	Err         string
	NextAttempt time.Time
	Park        bool
}
