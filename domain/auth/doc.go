// Package auth issues and checks Pokertote's session tokens: short-lived JWT
// access tokens (HS256) and long-lived, opaque, rotating refresh tokens.
//
// An access token is sent with every request and is checked without touching
// the database; it lives 15 minutes by default. A refresh token is exchanged
// for a new access token and a new refresh token (rotation). Each login starts
// a token family; presenting a refresh token that was already exchanged means
// it was copied, so the whole family is revoked and its owner must sign in
// again (reuse detection, as in the OAuth 2.0 Security BCP). Refresh tokens
// are stored only as SHA-256 hashes: a database leak yields no usable token.
package auth
