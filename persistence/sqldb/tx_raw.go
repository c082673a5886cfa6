package sqldb

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
)

// RawConn runs f on the pgx connection a transaction runs on: what f sends
// is part of that transaction. It is for the few reads whose rows
// database/sql would cost too much to decode (a settlement reads a draw's
// every bet: pgx scans them without boxing each value), never for writes.
type RawConn func(f func(pc *pgx.Conn) error) error

// TxRaw is Tx whose fn is also given the transaction's pgx connection on
// Postgres (nil on SQLite): the transaction is begun on one connection
// held for it, so that raw reaches the same session.
func (db *DB) TxRaw(ctx context.Context, fn func(tx *gorm.DB, raw RawConn) error) error {
	if db.Dialect() != Postgres {
		return db.Tx(ctx, func(tx *gorm.DB) error { return fn(tx, nil) })
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	raw := func(f func(pc *pgx.Conn) error) error {
		return conn.Raw(func(dc any) error {
			sc, ok := dc.(*stdlib.Conn)
			if !ok {
				return fmt.Errorf("persistence: the Postgres driver connection is a %T, not pgx's", dc)
			}
			return f(sc.Conn())
		})
	}
	g := db.gorm.WithContext(ctx).Session(&gorm.Session{})
	g.Statement.ConnPool = conn
	fnOK := false
	err = g.Transaction(func(tx *gorm.DB) error {
		err := fn(tx, raw)
		fnOK = err == nil
		return err
	})
	if err != nil && fnOK && !KnownRollback(err) {
		return errs.CommitUnknown(err)
	}
	return err
}

// RetryTxRaw is RetryTx with TxRaw.
func RetryTxRaw(ctx context.Context, db *DB, fn func(tx *gorm.DB, raw RawConn) error) error {
	return Retry(ctx, db, "transaction", func() (bool, error) { return false, db.TxRaw(ctx, fn) })
}
