package beacon

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them), so a value never changes.
const (
	// ReasonBeaconScheme refuses a beacon configuration of a scheme this
	// server does not verify.
	ReasonBeaconScheme = "BEACON_SCHEME"
	// ReasonBeaconChain refuses a chain's parameters (key, period, genesis).
	ReasonBeaconChain = "BEACON_CHAIN"
	// ReasonBeaconKey refuses the local beacon's signing key.
	ReasonBeaconKey = "BEACON_KEY"
	// ReasonBeaconInvalid refuses a round whose signature or randomness does
	// not verify against the chain.
	ReasonBeaconInvalid = "BEACON_INVALID"
)
