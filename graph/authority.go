package graph

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
)

// A WebSocket or an SSE stream outlives the request that opened it, and the
// token or API key it was opened with may be revoked, or expire, while it is
// open. So:
//   - every operation on it is authorised again as the same request over
//     HTTP would be now (Authority: the token's signature, expiry and epoch,
//     the key's revocation, the key's rate counted by the operation's root
//     fields); a subscription is an operation too;
//   - every such connection is registered by principal (Connections), and a
//     revocation heard on any replica closes that principal's connections
//     there; a token's expiry closes its connections at once.
//
// WebSockets are closed with a code the client can act on (CloseUnauthorized,
// CloseForbidden) and a reason from reasons.go; an SSE stream completes.

// Close codes of a WebSocket whose authority ended (graphql-ws' convention).
const (
	// CloseUnauthorized: the token expired or was revoked (logout, a reused
	// refresh token, a disabled account), or the API key was revoked. The client refreshes its
	// token (or signs in) and reconnects, resuming its streams.
	CloseUnauthorized = 4401
	// CloseForbidden: the user's rights changed (a role change, a time-out,
	// a self-exclusion). The client refreshes (the new token carries the new
	// rights) and reconnects.
	CloseForbidden = 4403
)

// initRefusal is the close of a connection_init whose token is refused:
// CloseUnauthorized with the token's reason (the client refreshes it and
// reconnects, as after the same close of an open socket), or 1011 when the
// check itself failed (the client reconnects after a backoff).
func initRefusal(err error) (int, string) {
	if !errs.Is(err, errs.Unauthenticated) {
		return closeInternalError, "internal error"
	}
	reason := errs.ReasonOf(err)
	if reason == "" {
		reason = ReasonInvalidToken
	}
	return CloseUnauthorized, reason
}

// closeInternalError is RFC 6455's 1011.
const closeInternalError = 1011

// credential is what a connection authenticated with: a bearer token and
// the function that verifies it (the HTTP middleware's).
type credential struct {
	token        string
	authenticate func(context.Context, string) (context.Context, error)
}

type credentialKey struct{}

func withCredential(ctx context.Context, token string, authenticate func(context.Context, string) (context.Context, error)) context.Context {
	return context.WithValue(ctx, credentialKey{}, &credential{token: token, authenticate: authenticate})
}

func credentialFrom(ctx context.Context) *credential {
	c, _ := ctx.Value(credentialKey{}).(*credential)
	return c
}

// Connections is the registry of this replica's long-lived connections by
// principal (user, API key), so that a revocation closes them. Safe for
// concurrent use; the zero value is not usable (NewConnections).
type Connections struct {
	mu     sync.Mutex
	byUser map[int64]map[*connHandle]struct{}
	byKey  map[string]map[*connHandle]struct{}
}

// NewConnections returns an empty registry.
func NewConnections() *Connections {
	return &Connections{byUser: map[int64]map[*connHandle]struct{}{}, byKey: map[string]map[*connHandle]struct{}{}}
}

// CloseUser closes the user's connections opened with a token issued
// before epoch (a newer token's connection stays): CloseForbidden when the
// cause is a change of rights, else CloseUnauthorized (reason
// ACCOUNT_DISABLED when an admin disabled the account). It returns how many
// it closed.
func (c *Connections) CloseUser(userID, epoch int64, cause auth.Cause) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	var victims []*connHandle
	for h := range c.byUser[userID] {
		if h.epoch < epoch {
			victims = append(victims, h)
		}
	}
	c.mu.Unlock()
	code, reason := CloseUnauthorized, ReasonTokenRevoked
	switch cause {
	case auth.CauseRights:
		code, reason = CloseForbidden, ReasonRightsChanged
	case auth.CauseDisabled:
		code, reason = CloseUnauthorized, account.ReasonAccountDisabled
	}
	for _, h := range victims {
		h.end(code, reason)
	}
	return len(victims)
}

// CloseKey closes the connections opened with the API key (revoked), with
// CloseUnauthorized; it returns how many.
func (c *Connections) CloseKey(keyID string) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	var victims []*connHandle
	for h := range c.byKey[keyID] {
		victims = append(victims, h)
	}
	c.mu.Unlock()
	for _, h := range victims {
		h.end(CloseUnauthorized, apikey.ReasonRevoked)
	}
	return len(victims)
}

// Len is the number of registered connections.
func (c *Connections) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, hs := range c.byUser {
		n += len(hs)
	}
	for _, hs := range c.byKey {
		n += len(hs)
	}
	return n
}

func (c *Connections) add(h *connHandle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h.userID > 0 {
		addTo(c.byUser, h.userID, h)
	}
	if h.keyID != "" {
		addTo(c.byKey, h.keyID, h)
	}
}

func (c *Connections) remove(h *connHandle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	removeFrom(c.byUser, h.userID, h)
	removeFrom(c.byKey, h.keyID, h)
}

func addTo[K comparable](m map[K]map[*connHandle]struct{}, k K, h *connHandle) {
	if m[k] == nil {
		m[k] = map[*connHandle]struct{}{}
	}
	m[k][h] = struct{}{}
}

func removeFrom[K comparable](m map[K]map[*connHandle]struct{}, k K, h *connHandle) {
	if hs := m[k]; hs != nil {
		delete(hs, h)
		if len(hs) == 0 {
			delete(m, k)
		}
	}
}

// connHandle is one long-lived connection as the registry sees it: whom it
// acts for and how to close it. The transport makes it before the
// connection is authenticated, puts it in the connection's context and
// releases it when the connection ends.
type connHandle struct {
	closeConn func(code int, reason string) // the transport's close

	mu       sync.Mutex
	conns    *Connections // set once registered
	userID   int64
	epoch    int64
	role     account.Role
	keyID    string
	expires  time.Time
	timer    *time.Timer
	released bool
}

type connHandleKey struct{}

// withConnHandle returns ctx carrying a new handle whose connection closes
// with closeConn.
func withConnHandle(ctx context.Context, closeConn func(code int, reason string)) (context.Context, *connHandle) {
	h := &connHandle{closeConn: closeConn}
	return context.WithValue(ctx, connHandleKey{}, h), h
}

func connHandleFrom(ctx context.Context) *connHandle {
	h, _ := ctx.Value(connHandleKey{}).(*connHandle)
	return h
}

// register records the principal of ctx (its viewer, and its API key) and
// adds the handle to conns; a token's connection is closed at its expiry.
// Anonymous connections are not registered (nothing to revoke).
func (h *connHandle) register(ctx context.Context, conns *Connections) {
	if h == nil || conns == nil {
		return
	}
	v, ok := ViewerFrom(ctx)
	key := keyCredFrom(ctx)
	if !ok || (v.UserID == 0 && key == nil) {
		return
	}
	h.mu.Lock()
	if h.released || h.conns != nil {
		h.mu.Unlock()
		return
	}
	h.conns, h.userID, h.epoch, h.role, h.expires = conns, v.UserID, v.Epoch, v.Role, v.Expires
	if key != nil {
		h.keyID = key.id
	}
	if v.UserID > 0 && !v.Expires.IsZero() {
		h.timer = time.AfterFunc(time.Until(v.Expires), func() { h.end(CloseUnauthorized, ReasonTokenExpired) })
	}
	h.mu.Unlock()
	conns.add(h)
}

// end closes the connection (code, reason) and releases its handle.
func (h *connHandle) end(code int, reason string) {
	if h.release() && h.closeConn != nil {
		h.closeConn(code, reason)
	}
}

// replyGrace is how long a connection refused by an operation's own check
// stays open for that operation's error to reach the client before the
// close: closed at once, the close frame could overtake the error and the
// client would see only "socket closed".
const replyGrace = 250 * time.Millisecond

// endAfterReply ends the connection like end, with the close sent
// replyGrace later: it leaves the registry at once, and every operation
// meanwhile is checked again (and refused) as this one was.
func (h *connHandle) endAfterReply(code int, reason string) {
	if h.release() && h.closeConn != nil {
		time.AfterFunc(replyGrace, func() { h.closeConn(code, reason) })
	}
}

// release takes the handle out of the registry and stops its expiry
// timer; true the first time.
func (h *connHandle) release() bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	if h.released {
		h.mu.Unlock()
		return false
	}
	h.released = true
	if h.timer != nil {
		h.timer.Stop()
	}
	conns := h.conns
	h.mu.Unlock()
	if conns != nil {
		conns.remove(h)
	}
	return true
}

// Authority is the extension that authorises every operation of a
// long-lived connection again, as the same request over HTTP would be now,
// and charges API keys by the operation's root fields on every transport.
// A token refused now closes its socket (CloseUnauthorized) and answers
// the operation UNAUTHENTICATED; a key over its rate answers RATE_LIMITED
// and leaves the socket open.
type Authority struct{}

var (
	_ graphql.HandlerExtension     = Authority{}
	_ graphql.OperationInterceptor = Authority{}
)

// ExtensionName implements graphql.HandlerExtension.
func (Authority) ExtensionName() string { return "Authority" }

// Validate implements graphql.HandlerExtension.
func (Authority) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation implements graphql.OperationInterceptor.
func (Authority) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if err := authorise(ctx); err != nil {
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
	}
	return next(ctx)
}

// authorise checks the operation of ctx; nil when it may run.
func authorise(ctx context.Context) *gqlerror.Error {
	h := connHandleFrom(ctx)
	if h != nil {
		if cred := credentialFrom(ctx); cred != nil && cred.authenticate != nil {
			if _, err := cred.authenticate(ctx, cred.token); err != nil {
				if unavailable(err) {
					// The token's epoch could not be read: the database,
					// not the token, is at fault; the socket stays open.
					return refusal(errs.DatabaseUnavailable(err))
				}
				if errs.Is(err, errs.Internal) {
					return refusal(errs.E(errs.Internal, "internal error"))
				}
				if errs.Is(err, errs.Unavailable) {
					// The check could not be made (the database did not
					// answer): the token may be fine; the socket stays.
					return refusal(errs.R(errs.Unavailable, errs.ReasonDatabaseUnavailable, "the service cannot reach its database right now; nothing was changed: try again"))
				}
				reason := errs.ReasonOf(err)
				if v, ok := ViewerFrom(ctx); ok && !v.Expires.IsZero() && !time.Now().Before(v.Expires) {
					reason = ReasonTokenExpired
				}
				if reason == "" {
					reason = ReasonInvalidToken
				}
				h.endAfterReply(CloseUnauthorized, reason)
				return refusal(errs.R(errs.Unauthenticated, reason, "the socket's token is no longer valid; refresh it and reconnect"))
			}
		}
	}
	k := keyCredFrom(ctx)
	if k == nil {
		return nil
	}
	if h != nil {
		if _, err := k.auth.Authenticate(ctx, k.raw); err != nil {
			if errs.Is(err, errs.Unauthenticated) {
				h.endAfterReply(CloseUnauthorized, errs.ReasonOf(err))
				return refusal(err)
			}
			return refusal(errs.E(errs.Internal, "internal error"))
		}
	}
	return k.charge(ctx, graphql.GetOperationContext(ctx))
}

// refusal is err as a GraphQL error with its code and reason.
func refusal(err error) *gqlerror.Error {
	var de *errs.Error
	if !asErr(err, &de) {
		de = errs.E(errs.Internal, "internal error")
	}
	ext := map[string]any{"code": string(de.Code)}
	if de.Reason != "" {
		ext["reason"] = de.Reason
	}
	return &gqlerror.Error{Message: de.Message, Extensions: ext}
}

func countRootFields(doc *ast.QueryDocument, set ast.SelectionSet, depth int) int {
	if depth > 10 {
		return 0
	}
	n := 0
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if s.Name != "__typename" {
				n++
			}
		case *ast.InlineFragment:
			n += countRootFields(doc, s.SelectionSet, depth+1)
		case *ast.FragmentSpread:
			if doc != nil {
				if frag := doc.Fragments.ForName(s.Name); frag != nil {
					n += countRootFields(doc, frag.SelectionSet, depth+1)
				}
			}
		}
	}
	return n
}
