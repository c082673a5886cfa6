package webhook

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them, the web client translates them),
// so a value never changes.
const (
	ReasonInvalidURL       = "INVALID_WEBHOOK_URL"
	ReasonInvalidTypes     = "INVALID_WEBHOOK_TYPES"
	ReasonInvalidEventID   = "INVALID_WEBHOOK_EVENT_ID"
	ReasonInvalidDesc      = "INVALID_DESCRIPTION"
	ReasonEndpointNotFound = "WEBHOOK_NOT_FOUND"
	// ReasonLeaseLost refuses a delivery's write after another replica
	// took the endpoint over (the tote's reason of the same name).
	ReasonLeaseLost = "LEASE_LOST"
)
