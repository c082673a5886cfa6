package bettingstop

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them, the web client translates them),
// so a value never changes.
const (
	// ReasonBettingStopped refuses a stake while the operator has stopped
	// all betting.
	ReasonBettingStopped = "BETTING_STOPPED"
	// ReasonStopUnknown refuses a stake while this replica cannot confirm
	// that betting is open (its last look at the stop is too old).
	ReasonStopUnknown = "BETTING_STATE_UNKNOWN"
	// ReasonInvalidReason refuses a stop without a usable reason.
	ReasonInvalidReason = "INVALID_STOP_REASON"
)
