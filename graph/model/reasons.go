package model

// ReasonInvalidPercent is the reason (extensions.reason) of a Percent that is
// not a decimal string from 0.00 to 100.00: part of the API, so it never
// changes.
const ReasonInvalidPercent = "INVALID_PERCENT"
