package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/pokertote/pokertote/domain/errs"
)

// Tracing is a gqlgen extension recording an OpenTelemetry span per query
// or mutation ("mutation placeBet") and a child span per root field, the
// resolver's call into the domain ("Mutation.placeBet"); the persistence
// layer's SQL spans hang below that. Nested fields get no span (their cost
// is in the SQL spans), and subscriptions none (they live for hours). It is
// installed only when tracing is configured.
type Tracing struct {
	Provider trace.TracerProvider
}

var (
	_ graphql.HandlerExtension     = Tracing{}
	_ graphql.ResponseInterceptor  = Tracing{}
	_ graphql.FieldInterceptor     = Tracing{}
	_ graphql.OperationInterceptor = Tracing{}
)

const tracerName = "github.com/pokertote/pokertote/graph"

// ExtensionName implements graphql.HandlerExtension.
func (Tracing) ExtensionName() string { return "OpenTelemetry" }

// Validate implements graphql.HandlerExtension.
func (Tracing) Validate(graphql.ExecutableSchema) error { return nil }

type opSpanKey struct{}

// InterceptOperation implements graphql.OperationInterceptor: the
// operation's span covers its whole execution.
func (t Tracing) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	name := string(oc.Operation.Operation) + " " + operationName(oc)
	ctx, span := t.Provider.Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(
			attribute.String("graphql.operation.type", string(oc.Operation.Operation)),
			attribute.String("graphql.operation.name", oc.OperationName),
		))
	ctx = context.WithValue(ctx, opSpanKey{}, span)
	h := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		resp := h(ctx)
		if resp != nil && len(resp.Errors) > 0 {
			span.SetStatus(codes.Error, resp.Errors[0].Message)
			for _, e := range resp.Errors {
				if c, _ := e.Extensions["code"].(string); c != "" {
					span.SetAttributes(attribute.String("graphql.error.code", c))
				}
			}
		}
		span.End()
		return resp
	}
}

// InterceptResponse implements graphql.ResponseInterceptor (nothing to do:
// the operation interceptor ends the span).
func (Tracing) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	return next(ctx)
}

// InterceptField implements graphql.FieldInterceptor: root fields only.
func (t Tracing) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || (fc.Object != "Query" && fc.Object != "Mutation") || ctx.Value(opSpanKey{}) == nil {
		return next(ctx)
	}
	ctx, span := t.Provider.Tracer(tracerName).Start(ctx, fc.Object+"."+fc.Field.Name,
		trace.WithAttributes(attribute.String("graphql.field.path", fc.Path().String())))
	defer span.End()
	res, err := next(ctx)
	if err != nil {
		span.SetStatus(codes.Error, string(errs.CodeOf(err)))
		span.SetAttributes(attribute.String("graphql.error.code", string(errs.CodeOf(err))))
		if r := errs.ReasonOf(err); r != "" {
			span.SetAttributes(attribute.String("graphql.error.reason", r))
		}
	}
	return res, err
}

func operationName(oc *graphql.OperationContext) string {
	if oc.OperationName != "" {
		return oc.OperationName
	}
	for _, s := range oc.Operation.SelectionSet {
		if f, ok := s.(*ast.Field); ok {
			return f.Name
		}
	}
	return "anonymous"
}

// TraceContextMiddleware continues a trace the client started (a W3C
// traceparent header), so that a slow request can be followed from the
// caller into the server. Installed only when tracing is configured.
func TraceContextMiddleware(next http.Handler) http.Handler {
	prop := propagation.TraceContext{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))))
	})
}
