package apikey

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// Reasons of the errors this package returns (extensions.reason).
	ReasonInvalidKey  = "INVALID_API_KEY"
	ReasonRevoked     = "API_KEY_REVOKED"
	ReasonRateLimited = "RATE_LIMITED"
	ReasonKeyScope    = "API_KEY_SCOPE"

	// Refusals and failures named where they are made.
	ReasonInvalidName = "INVALID_NAME"
	ReasonInvalidRate = "INVALID_RATE"
	ReasonNotFound    = "NOT_FOUND"
)
