package protection

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// Reasons of exclusion requests and refusals.
	ReasonInvalidExclusion = "INVALID_EXCLUSION"
	ReasonAlreadyExcluded  = "ALREADY_EXCLUDED"
	ReasonTimedOut         = "TIMED_OUT"
	ReasonSelfExcluded     = "SELF_EXCLUDED"
	ReasonRegisterExcluded = "EXCLUDED"
	// ReasonInvalidLimit is the reason of a malformed limit request.
	ReasonInvalidLimit = "INVALID_LIMIT"
	// ReasonInvalidRegister is the reason of a malformed register entry or file.
	ReasonInvalidRegister = "INVALID_REGISTER_ENTRY"
	// ReasonAlreadyRemoved is the reason of removing an entry twice.
	ReasonAlreadyRemoved = "ALREADY_REMOVED"
	// A transfer that would break a limit of its kind (LimitKind.Reason).
	ReasonDepositLimit = "DEPOSIT_LIMIT"
	ReasonStakeLimit   = "STAKE_LIMIT"
	ReasonLossLimit    = "LOSS_LIMIT"

	// Refusals and failures named where they are made.
	ReasonNotAPlayer = "NOT_A_PLAYER"
	ReasonNotAdmin   = "NOT_ADMIN"
)
