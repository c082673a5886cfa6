package sqldb

import (
	"context"
	"sync/atomic"

	"gorm.io/gorm"
)

// Counting statements per request shows N+1 queries: a page of 50 bets with
// their draws and tables must cost the same few statements as a page of 5.

type statementCounterKey struct{}

// WithStatementCounter returns a context whose database statements (every
// query, insert, update, delete and raw statement run with it) are counted
// in n.
func WithStatementCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, statementCounterKey{}, n)
}

// registerStatementCounter hooks the counting into every kind of statement.
func registerStatementCounter(gdb *gorm.DB) error {
	count := func(tx *gorm.DB) {
		if tx.Statement == nil || tx.Statement.Context == nil {
			return
		}
		if n, ok := tx.Statement.Context.Value(statementCounterKey{}).(*atomic.Int64); ok {
			n.Add(1)
		}
	}
	cb := gdb.Callback()
	for _, err := range []error{
		cb.Query().After("gorm:query").Register("pokertote:count", count),
		cb.Row().After("gorm:row").Register("pokertote:count", count),
		cb.Raw().After("gorm:raw").Register("pokertote:count", count),
		cb.Create().After("gorm:create").Register("pokertote:count", count),
		cb.Update().After("gorm:update").Register("pokertote:count", count),
		cb.Delete().After("gorm:delete").Register("pokertote:count", count),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}
