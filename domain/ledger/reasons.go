package ledger

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// Reasons carried by ledger errors.
	ReasonInsufficientFunds = "INSUFFICIENT_FUNDS"
	ReasonKeyReused         = "IDEMPOTENCY_KEY_REUSED"
	ReasonInconsistent      = "LEDGER_INCONSISTENT"
	// ReasonInvalidIdempotencyKey: a client's key breaks CheckClientKey.
	ReasonInvalidIdempotencyKey = "INVALID_IDEMPOTENCY_KEY"

	// Refusals and failures named where they are made.
	ReasonInvalidAccount  = "INVALID_ACCOUNT"
	ReasonInvalidCursor   = "INVALID_CURSOR"
	ReasonInvalidTransfer = "INVALID_TRANSFER"
)
