package auth

// The reasons (extensions.reason) of the errors this package returns, in one
// place: they are part of the API (docs/frontend.md lists them, the web
// client translates them), so a value never changes.
const (
	// ReasonInvalidToken is the reason of every access token failure and of a
	// malformed or unknown refresh token.
	ReasonInvalidToken = "INVALID_TOKEN"
	// ReasonTokenExpired is the reason of a genuine access token past its
	// expiry: refresh it and retry (over HTTP, and close 4401 on a socket).
	ReasonTokenExpired = "TOKEN_EXPIRED"
	// ReasonTokenRevoked is the reason of an access token refused because its
	// user's sessions were revoked after it was issued.
	ReasonTokenRevoked = "TOKEN_REVOKED"
	// Reasons of refresh failures, all with code Unauthenticated.
	// ReasonRefreshReused: a token was presented again after it had been
	// exchanged; its whole family is now revoked.
	ReasonRefreshReused = "REFRESH_REUSED"
	// ReasonRefreshRevoked: the token's family was revoked (logout, reuse).
	ReasonRefreshRevoked = "REFRESH_REVOKED"
	// ReasonRefreshExpired: the token outlived its TTL unused.
	ReasonRefreshExpired = "REFRESH_EXPIRED"
)
