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

// Encode returns the wire form of e: json.Marshal's bytes. Settlement
// encodes one BET_SETTLED per bet (100,000 for a large draw), so an event
// of plain fields is written directly (appendPlain, the same bytes,
// TestEncodeIsMarshal); anything else goes through encoding/json.
func (e UserEvent) Encode() []byte { return e.AppendEncoded(make([]byte, 0, 96)) }

// AppendEncoded appends Encode's bytes to b: a sender of many events
// encodes them into one buffer.
func (e UserEvent) AppendEncoded(b []byte) []byte {
	if out, ok := e.appendPlain(b); ok {
		return out
	}
	j, _ := json.Marshal(e) // a struct of plain fields always marshals
	return append(b, j...)
}

// appendPlain appends e as json.Marshal writes it, when e has no Reality,
// its type needs no escaping and its time is one Time.MarshalJSON accepts;
// otherwise it reports false.
func (e UserEvent) appendPlain(b []byte) ([]byte, bool) {
	if e.Reality != nil || e.Type == "" {
		return b, false
	}
	for i := 0; i < len(e.Type); i++ {
		c := e.Type[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return b, false
		}
	}
	b = append(b, '{')
	if e.Seq != 0 {
		b = append(b, `"seq":`...)
		b = strconv.AppendInt(b, e.Seq, 10)
		b = append(b, ',')
	}
	b = append(b, `"type":"`...)
	b = append(b, e.Type...)
	b = append(b, `","at":"`...)
	n0 := len(b)
	b = e.At.AppendFormat(b, time.RFC3339Nano)
	// Time.MarshalJSON refuses a year outside [0, 9999] or a zone hour
	// outside [0, 23]: leave those to it.
	if len(b) < n0+len("2006-01-02T15:04:05Z") || b[n0+4] != '-' {
		return b, false
	}
	if b[len(b)-1] != 'Z' {
		z := b[len(b)-len("07:00"):]
		if c := b[len(b)-len("Z07:00")]; c >= '0' && c <= '9' || 10*(z[0]-'0')+(z[1]-'0') >= 24 {
			return b, false
		}
	}
	b = append(b, '"')
	for _, f := range [...]struct {
		name string
		v    int64
	}{{`,"betId":`, e.BetID}, {`,"holdemHandId":`, e.HoldemHandID}, {`,"balance":`, e.Balance}} {
		if f.v != 0 {
			b = append(b, f.name...)
			b = strconv.AppendInt(b, f.v, 10)
		}
	}
	return append(b, '}'), true
}

// DecodeUserEvent reads the wire form of a UserEvent.
func DecodeUserEvent(b []byte) (UserEvent, error) {
	var e UserEvent
	err := json.Unmarshal(b, &e)
	return e, err
}
