package sqldb

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"
)

// spanKey is where a statement's span waits between the before and after
// callbacks.
const spanKey = "pokertote:otel-span"

// EnableTracing records one OpenTelemetry span per SQL statement (its text
// with placeholders, never the values), as a child of the span in the
// statement's context: GraphQL operation -> resolver -> SQL. Without this
// call no callback is registered, so the untraced path costs nothing.
func (db *DB) EnableTracing(tp trace.TracerProvider) error {
	tracer := tp.Tracer("github.com/pokertote/pokertote/persistence")
	db.tracer = tracer
	system := "sqlite"
	if db.dialect == Postgres {
		system = "postgresql"
	}
	before := func(op string) func(*gorm.DB) {
		return func(tx *gorm.DB) {
			if tx.Statement == nil || tx.Statement.Context == nil {
				return
			}
			if !trace.SpanFromContext(tx.Statement.Context).SpanContext().IsValid() {
				return // only statements inside a traced operation
			}
			_, span := tracer.Start(tx.Statement.Context, "sql "+op, trace.WithSpanKind(trace.SpanKindClient),
				trace.WithAttributes(attribute.String("db.system", system), attribute.String("db.operation", op)))
			tx.InstanceSet(spanKey, span)
		}
	}
	after := func(tx *gorm.DB) {
		v, ok := tx.InstanceGet(spanKey)
		if !ok {
			return
		}
		span := v.(trace.Span)
		if tx.Statement.Table != "" {
			span.SetAttributes(attribute.String("db.sql.table", tx.Statement.Table))
		}
		span.SetAttributes(attribute.String("db.statement", tx.Statement.SQL.String()),
			attribute.Int64("db.rows_affected", tx.Statement.RowsAffected))
		if err := tx.Error; err != nil && err != gorm.ErrRecordNotFound {
			span.RecordError(err)
			span.SetStatus(codes.Error, "statement failed")
		}
		span.End()
	}
	cb := db.gorm.Callback()
	for _, r := range []struct {
		op       string
		before   func(string, func(*gorm.DB)) error
		after    func(string, func(*gorm.DB)) error
		gormName string
	}{
		{"insert", cb.Create().Before("gorm:create").Register, cb.Create().After("gorm:create").Register, "create"},
		{"select", cb.Query().Before("gorm:query").Register, cb.Query().After("gorm:query").Register, "query"},
		{"update", cb.Update().Before("gorm:update").Register, cb.Update().After("gorm:update").Register, "update"},
		{"delete", cb.Delete().Before("gorm:delete").Register, cb.Delete().After("gorm:delete").Register, "delete"},
		{"row", cb.Row().Before("gorm:row").Register, cb.Row().After("gorm:row").Register, "row"},
		{"raw", cb.Raw().Before("gorm:raw").Register, cb.Raw().After("gorm:raw").Register, "raw"},
	} {
		if err := r.before("otel:before_"+r.gormName, before(r.op)); err != nil {
			return err
		}
		if err := r.after("otel:after_"+r.gormName, after); err != nil {
			return err
		}
	}
	return nil
}

// SendBatch sends a pipelined pgx batch of the hot path that bypasses GORM
// (one round trip). With tracing on and a traced operation in ctx it records
// one span for the round trip, as EnableTracing does for GORM's statements:
// the statements' text with placeholders, never the values.
func (db *DB) SendBatch(ctx context.Context, pc *pgx.Conn, b *pgx.Batch, op string) error {
	if db.tracer == nil || !trace.SpanFromContext(ctx).SpanContext().IsValid() {
		return pc.SendBatch(ctx, b).Close()
	}
	stmts := make([]string, len(b.QueuedQueries))
	for i, q := range b.QueuedQueries {
		stmts[i] = q.SQL
	}
	_, span := db.tracer.Start(ctx, "sql "+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system", "postgresql"), attribute.String("db.operation", op),
			attribute.String("db.statement", strings.Join(stmts, ";\n")), attribute.Int("db.batch_size", len(stmts))))
	err := pc.SendBatch(ctx, b).Close()
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "statement failed")
	}
	span.End()
	return err
}
