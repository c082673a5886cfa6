package regfeed

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them, the web client translates them),
// so a value never changes.
const (
	// ReasonUnfedKind stops the sequencer at a transfer whose kind moves a
	// wallet the feed has no record type for, rather than skip it (an
	// internal error: never shown to a player).
	ReasonUnfedKind = "REGFEED_UNFED_KIND"
)
