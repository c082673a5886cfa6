package app

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// startTracing picks the tracer provider: the one the embedder gave
// (Config.TracerProvider, tests), else an OTLP/HTTP exporter when
// OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set, else none.
// With none, no span code runs: the GraphQL extension and the SQL callbacks
// are not installed. The exporter reads the standard OTEL_* variables
// (headers, timeout, OTEL_TRACES_SAMPLER, OTEL_SERVICE_NAME).
func (a *App) startTracing(ctx context.Context) error {
	if a.cfg.TracerProvider != nil {
		a.tracer = a.cfg.TracerProvider
	} else if a.cfg.OTLPEndpoint != "" {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return fmt.Errorf("OTLP trace exporter: %w", err)
		}
		res, err := resource.Merge(resource.Default(),
			resource.NewSchemaless(attribute.String("service.name", "pokertote")))
		if err != nil {
			res = resource.Default()
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		a.tracer = tp
		a.closers = append(a.closers, func() error {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return tp.Shutdown(sctx)
		})
		a.log.Info("tracing on", "exporter", "otlp/http")
	}
	if a.tracer == nil {
		return nil
	}
	return a.db.EnableTracing(a.tracer)
}

// tracerOrNil is the provider the GraphQL handler gets (nil: no tracing).
func (a *App) tracerOrNil() trace.TracerProvider { return a.tracer }
