package cards

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them), so a value never changes.
const (
	ReasonInvalidCard        = "INVALID_CARD"
	ReasonDuplicateCard      = "DUPLICATE_CARD"
	ReasonInvalidSeed        = "INVALID_SEED"
	ReasonInvalidCommitment  = "INVALID_COMMITMENT"
	ReasonCommitmentMismatch = "COMMITMENT_MISMATCH"
)
