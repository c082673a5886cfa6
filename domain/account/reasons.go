package account

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// ReasonVerificationChanged is the reason of the Conflict a store returns
	// when a VerificationChange's From no longer holds.
	ReasonVerificationChanged = "VERIFICATION_CHANGED"
	// ReasonTooManyAttempts is the reason of the Forbidden error a locked key gets.
	ReasonTooManyAttempts = "TOO_MANY_ATTEMPTS"

	// ReasonAccountDisabled: an admin disabled the account; it cannot sign
	// in or refresh (Forbidden), and its open connections were closed.
	ReasonAccountDisabled = "ACCOUNT_DISABLED"

	// Refusals and failures named where they are made.
	ReasonAlreadyDisabled    = "ALREADY_DISABLED"
	ReasonAlreadyVerified    = "ALREADY_VERIFIED"
	ReasonDobMismatch        = "DOB_MISMATCH"
	ReasonEmailLookalike     = "EMAIL_LOOKALIKE"
	ReasonEmailTaken         = "EMAIL_TAKEN"
	ReasonInvalidCredentials = "INVALID_CREDENTIALS"
	ReasonInvalidDate        = "INVALID_DATE"
	ReasonInvalidDateOfBirth = "INVALID_DATE_OF_BIRTH"
	// ReasonInvalidSearch refuses a players' search too short or too long.
	ReasonInvalidSearch         = "INVALID_SEARCH"
	ReasonInvalidDocumentNumber = "INVALID_DOCUMENT_NUMBER"
	ReasonInvalidDocumentType   = "INVALID_DOCUMENT_TYPE"
	ReasonInvalidEmail          = "INVALID_EMAIL"
	ReasonInvalidName           = "INVALID_NAME"
	ReasonInvalidPassword       = "INVALID_PASSWORD"
	ReasonInvalidReason         = "INVALID_REASON"
	ReasonInvalidRole           = "INVALID_ROLE"
	ReasonInvalidZone           = "INVALID_ZONE"
	ReasonNotDisabled           = "NOT_DISABLED"
	ReasonNotAPlayer            = "NOT_A_PLAYER"
	ReasonNotAdmin              = "NOT_ADMIN"
	ReasonNotPending            = "NOT_PENDING"
	ReasonNotVerified           = "NOT_VERIFIED"
	// ReasonTermsNotAccepted refuses a player's registration that does
	// not accept the terms.
	ReasonTermsNotAccepted = "TERMS_NOT_ACCEPTED"
	// ReasonTermsOutdated refuses an acceptance of terms other than those
	// in force: the player read an older (or unknown) version.
	ReasonTermsOutdated       = "TERMS_OUTDATED"
	ReasonSelfDecision        = "SELF_DECISION"
	ReasonUnderAge            = "UNDER_AGE"
	ReasonVerificationPending = "VERIFICATION_PENDING"
	ReasonWeakPasswordHashing = "WEAK_PASSWORD_HASHING"
)
