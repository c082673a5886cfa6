package money

// The reasons (extensions.reason) of the errors of a malformed sum or
// coefficient: part of the API, so a value never changes.
const (
	ReasonInvalidAmount      = "INVALID_AMOUNT"
	ReasonInvalidCoefficient = "INVALID_COEFFICIENT"
)
