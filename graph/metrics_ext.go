package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// ErrorCounter is a gqlgen extension that counts every error a response
// carries by its extensions.code and reason (the refusals dashboard). Both
// are from small fixed sets (domain reasons, gqlgen's validation codes), so
// the metric's cardinality stays bounded.
type ErrorCounter struct {
	Count func(code, reason string)
}

var (
	_ graphql.HandlerExtension    = ErrorCounter{}
	_ graphql.ResponseInterceptor = ErrorCounter{}
)

// ExtensionName implements graphql.HandlerExtension.
func (ErrorCounter) ExtensionName() string { return "ErrorCounter" }

// Validate implements graphql.HandlerExtension.
func (ErrorCounter) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor.
func (c ErrorCounter) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || c.Count == nil {
		return resp
	}
	for _, e := range resp.Errors {
		code, _ := e.Extensions["code"].(string)
		reason, _ := e.Extensions["reason"].(string)
		if code == "" {
			code = "UNKNOWN"
		}
		c.Count(code, reason)
	}
	return resp
}
