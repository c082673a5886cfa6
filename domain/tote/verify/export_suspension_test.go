package verify

// RecomputeChances and CheckSuspensions expose the two halves of the
// verifier's suspension check to the external tests, so that tampered
// copies of one result are checked without enumerating its deal again.
var (
	RecomputeChances = recomputeChances
	CheckSuspensions = checkSuspensions
)
