package graph

import (
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/paging"
)

// The reasons (extensions.reason) of the errors this package makes itself.
// They are part of the API: docs/frontend.md lists them and the web client
// translates them, so a value never changes. Reasons of domain errors are in
// their own packages' catalogues (account, auth, apikey, holdem, ledger,
// protection, tote, ...).
const (
	// A request the transport refused (limits.go).
	ReasonRequestTooLarge    = "REQUEST_TOO_LARGE"
	ReasonMalformedRequest   = "MALFORMED_REQUEST"
	ReasonBatchNotSupported  = "BATCH_NOT_SUPPORTED"
	ReasonDepthLimitExceeded = "DEPTH_LIMIT_EXCEEDED"
	// ReasonOriginNotAllowed: a WebSocket upgrade from a page whose origin
	// is not one of ALLOWED_ORIGINS (HTTP 403).
	ReasonOriginNotAllowed = "ORIGIN_NOT_ALLOWED"
	// ReasonIntrospectionDisabled: the schema is not introspectable here.
	ReasonIntrospectionDisabled = "INTROSPECTION_DISABLED"
	// ReasonDocumentHashMismatch: a request named a document by its id
	// (documentId, or an APQ sha256Hash) and sent a text too, and the id is
	// not that text's (trusted_documents.go).
	ReasonDocumentHashMismatch = "DOCUMENT_HASH_MISMATCH"

	// Who may ask (auth.go, the owner-only fields).
	ReasonLoginRequired = "LOGIN_REQUIRED"
	ReasonRoleRequired  = "ROLE_REQUIRED"
	ReasonNotYours      = "NOT_YOURS"
	// ReasonInvalidToken and ReasonTokenRevoked are auth's, answered by the
	// HTTP middleware and refreshToken.
	ReasonInvalidToken = auth.ReasonInvalidToken
	ReasonTokenRevoked = auth.ReasonTokenRevoked

	// Arguments (convert.go, connection.go, tote_convert.go).
	ReasonInvalidID       = "INVALID_ID"
	ReasonInvalidPageSize = paging.ReasonInvalidPageSize
	ReasonInvalidCursor   = "INVALID_CURSOR"
	// ReasonPageDirection: a page request mixes the forward arguments
	// (first, after) with the backward ones (last, before).
	ReasonPageDirection     = "PAGE_DIRECTION_CONFLICT"
	ReasonInvalidSelection  = "INVALID_SELECTION"
	ReasonInvalidTiming     = "INVALID_TIMING"
	ReasonInvalidPoolConfig = "INVALID_POOL_CONFIG"
	// ReasonInvalidSeq: tableEvents' afterSeq is past the table's stream.
	ReasonInvalidSeq = "INVALID_SEQ"
	// ReasonInvalidVariable: a variable breaks a rule its literal would
	// (@oneOf, an enum's names, Int; variables.go).
	ReasonInvalidVariable = "INVALID_VARIABLE"
	// ReasonNotFound: a nested lookup's id names nothing.
	ReasonNotFound = "NOT_FOUND"
)

// The reasons a WebSocket is closed with when its authority ends (the close
// frame's reason; authority.go), beside ReasonTokenRevoked,
// apikey.ReasonRevoked and wstransport.ReasonDraining.
const (
	// ReasonTokenExpired: the socket's access token expired (close 4401).
	ReasonTokenExpired = auth.ReasonTokenExpired
	// ReasonRightsChanged: the user's role changed, or they took a break
	// (close 4403).
	ReasonRightsChanged = "RIGHTS_CHANGED"
)
