package event

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
)

// UserTopic is the topic of one user's private events.
func UserTopic(userID ids.UserID) string { return "user:" + userID.String() }

// TableTopic is the topic of one table's public event stream.
func TableTopic(tableID int64) string { return "table:" + strconv.FormatInt(tableID, 10) }

// The kinds of user event; the strings match the API's UserEventType.
const (
	BetAccepted    = "BET_ACCEPTED"
	BetSettled     = "BET_SETTLED"
	BalanceChanged = "BALANCE_CHANGED"
	HoldemUpdated  = "HOLDEM_UPDATED"
	// RealityCheck reminds a player how long they have played and how the
	// session stands; the message carries the figures.
	RealityCheck = "REALITY_CHECK"
)

// RealityCheckData is the payload of a REALITY_CHECK event: amounts in
// tiyn, Net = Returns - Stakes.
type RealityCheckData struct {
	SessionStartedAt time.Time `json:"sessionStartedAt"`
	ElapsedSeconds   int64     `json:"elapsedSeconds"`
	Stakes           int64     `json:"stakes"`
	Returns          int64     `json:"returns"`
	Net              int64     `json:"net"`
}

// UserEvent is the message published on a UserTopic. It names what changed;
// subscribers load the current state (the bet, the hand) when they forward
// it, so a message never carries stale money figures.
type UserEvent struct {
	// Seq is the event's place in the user's stream (1, 2, ...), given by
	// the user event log as it is published; 0 when none was.
	Seq          int64     `json:"seq,omitempty"`
	Type         string    `json:"type"`
	At           time.Time `json:"at"`
	BetID        int64     `json:"betId,omitempty"`
	HoldemHandID int64     `json:"holdemHandId,omitempty"`
	// Balance is the wallet balance in tiyn after the change, for
	// BALANCE_CHANGED.
	Balance int64 `json:"balance,omitempty"`
	// Reality is set for REALITY_CHECK.
	Reality *RealityCheckData `json:"reality,omitempty"`
}

// Encode returns the wire form of e.
func (e UserEvent) Encode() []byte {
	b, _ := json.Marshal(e) // a struct of plain fields always marshals
	return b
}

// DecodeUserEvent reads the wire form of a UserEvent.
func DecodeUserEvent(b []byte) (UserEvent, error) {
	var e UserEvent
	err := json.Unmarshal(b, &e)
	return e, err
}
