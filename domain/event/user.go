package event

import (
	"encoding/json"
	"strconv"
	"time"
)

// UserTopic is the topic of one user's private events.
func UserTopic(userID int64) string { return "user:" + strconv.FormatInt(userID, 10) }

// TableTopic is the topic of one table's public event stream.
func TableTopic(tableID int64) string { return "table:" + strconv.FormatInt(tableID, 10) }

// The kinds of user event; the strings match the API's UserEventType.
const (
	BetAccepted    = "BET_ACCEPTED"
	BetSettled     = "BET_SETTLED"
	BalanceChanged = "BALANCE_CHANGED"
	HoldemUpdated  = "HOLDEM_UPDATED"
)

// UserEvent is the message published on a UserTopic. It names what changed;
// subscribers load the current state (the bet, the hand) when they forward
// it, so a message never carries stale money figures.
type UserEvent struct {
	Type         string    `json:"type"`
	At           time.Time `json:"at"`
	BetID        int64     `json:"betId,omitempty"`
	HoldemHandID int64     `json:"holdemHandId,omitempty"`
	// Balance is the wallet balance in tiyn after the change, for
	// BALANCE_CHANGED.
	Balance int64 `json:"balance,omitempty"`
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
