package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// ErrorPresenter returns gqlgen's error presenter: every error leaves with a
// stable extensions.code (and extensions.reason where the domain gave one);
// internal errors are logged with their cause and shown only as "internal
// error".
func ErrorPresenter(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		if unavailable(err) {
			log.WarnContext(ctx, "store unavailable", "path", gerr.Path.String(), "err", err)
			// One code and one reason whichever layer noticed it first: the
			// request's deadline, the network, or persistence's mapping of a
			// failed connection (a failover, a partition).
			msg := "the service cannot reach its database right now; nothing was changed: try again (with the same idempotency key for money)"
			if afterCommit(ctx, gerr.Path) {
				// A field below a mutation's root resolves after the
				// mutation itself has answered: what it did stands.
				msg = "the change was made, but this field could not be read (the database stopped answering): read it again later; do not repeat the change with a new key"
			}
			return &gqlerror.Error{Message: msg, Path: gerr.Path, Locations: gerr.Locations,
				Extensions: map[string]any{"code": string(errs.Unavailable), "reason": errs.ReasonDatabaseUnavailable}}
		}
		if canceled(ctx, err) {
			// The client went away (closed its subscription or its
			// connection): nothing failed on our side, and nobody reads
			// the answer.
			log.DebugContext(ctx, "request canceled by the client", "path", gerr.Path.String(), "err", err)
			return &gqlerror.Error{Message: "the request was canceled", Path: gerr.Path, Locations: gerr.Locations,
				Extensions: map[string]any{"code": string(errs.Internal), "reason": "CANCELED"}}
		}
		var de *errs.Error
		if !errors.As(err, &de) {
			// A gqlerror with no cause was made by gqlgen itself: a parse,
			// validation, complexity or variable-coercion failure, all the
			// client's doing. Its own code is kept as the reason.
			var ge *gqlerror.Error
			if errors.As(err, &ge) && ge.Unwrap() == nil {
				if msg, reason, ok := transportError(gerr.Message); ok {
					return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": string(errs.Invalid), "reason": reason}}
				}
				gerr.Message = shorten(variablePath(gerr) + gerr.Message)
				reason, _ := gerr.Extensions["code"].(string)
				if stableCodes[errs.Code(reason)] {
					return gerr // made by one of our extensions, already in our terms
				}
				gerr.Extensions = map[string]any{"code": string(errs.Invalid)}
				if reason != "" {
					gerr.Extensions["reason"] = reason
				}
				return gerr
			}
			log.ErrorContext(ctx, "internal error", "path", gerr.Path.String(), "err", err)
			return internalError(gerr)
		}
		if de.Code == errs.Internal && de.Reason == errs.ReasonCommitUnknown {
			log.ErrorContext(ctx, "database connection failed", "reason", de.Reason, "path", gerr.Path.String(), "err", err)
			gerr.Message = de.Message
			gerr.Extensions = map[string]any{"code": string(de.Code), "reason": de.Reason}
			return gerr
		}
		if de.Code == errs.Internal {
			log.ErrorContext(ctx, "internal error", "path", gerr.Path.String(), "err", err)
			return internalError(gerr)
		}
		gerr.Message = shorten(de.Message)
		gerr.Extensions = make(map[string]any, 2+len(de.Details))
		for k, v := range de.Details {
			gerr.Extensions[k] = v
		}
		gerr.Extensions["code"] = string(de.Code)
		if de.Reason != "" {
			gerr.Extensions["reason"] = de.Reason
		}
		return gerr
	}
}

// variablePath names the variable a coercion error is about
// ("$in.selection.position: "), or "" for other errors.
func variablePath(gerr *gqlerror.Error) string {
	if len(gerr.Path) < 2 || gerr.Path[0] != ast.PathName("variable") {
		return ""
	}
	var b strings.Builder
	b.WriteString("$")
	for i, el := range gerr.Path[1:] {
		switch el := el.(type) {
		case ast.PathName:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(el))
		case ast.PathIndex:
			fmt.Fprintf(&b, "[%d]", int(el))
		}
	}
	return b.String() + ": "
}

// unavailable reports whether err is a store that did not answer: the
// request's deadline passed (statement, connect or request timeout), or
// the network failed on the way (a refused or cut connection).
func unavailable(err error) bool {
	if errs.ReasonOf(err) == errs.ReasonCommitUnknown {
		return false // the client must learn that the outcome is unknown
	}
	if errs.Is(err, errs.Unavailable) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// afterCommit reports whether path is below a mutation's root field: the
// root resolved (and committed) before any field under it ran.
func afterCommit(ctx context.Context, path ast.Path) bool {
	if len(path) < 2 || !graphql.HasOperationContext(ctx) {
		return false
	}
	oc := graphql.GetOperationContext(ctx)
	return oc.Operation != nil && oc.Operation.Operation == ast.Mutation
}

// canceled reports whether err is the cancellation of the request's own
// context, however it was wrapped on the way.
func canceled(ctx context.Context, err error) bool {
	return errors.Is(err, context.Canceled) || (ctx.Err() != nil && errors.Is(err, ctx.Err()))
}

var stableCodes = map[errs.Code]bool{
	errs.Invalid: true, errs.NotFound: true, errs.Conflict: true,
	errs.Unauthenticated: true, errs.Forbidden: true, errs.Internal: true, errs.Unavailable: true,
}

func internalError(gerr *gqlerror.Error) *gqlerror.Error {
	return &gqlerror.Error{
		Message:    "internal error",
		Path:       gerr.Path,
		Locations:  gerr.Locations,
		Extensions: map[string]any{"code": string(errs.Internal)},
	}
}

// RecoverFunc turns a panic in a resolver into a logged internal error.
func RecoverFunc(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "resolver panic", "panic", p)
		return errs.E(errs.Internal, "internal error")
	}
}
