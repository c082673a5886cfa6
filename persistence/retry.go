package persistence

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"
)

// Every repository that changes rows in a transaction of its own runs it
// with retryTx, so that a Postgres serialization failure or deadlock (see
// classify in errors.go) costs a retry rather than an error.

// Retry policy of retryTx.
const (
	txAttempts     = 6
	txRetryBackoff = 2 * time.Millisecond
)

// retryTx runs fn in one transaction of db, again (after a short, growing,
// jittered pause) when it fails with a Postgres serialization failure or
// deadlock, up to txAttempts times in all. fn must not keep effects outside
// the transaction from one attempt to the next.
func retryTx(ctx context.Context, db *DB, fn func(tx *gorm.DB) error) error {
	var err error
	for attempt := range txAttempts {
		if attempt > 0 {
			pause := txRetryBackoff<<attempt + rand.N(txRetryBackoff<<attempt)
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(pause):
			}
		}
		err = db.tx(ctx, fn)
		if !isSerializationFailure(err) {
			return err
		}
		db.log.DebugContext(ctx, "transaction retried", "attempt", attempt+1, "err", err)
	}
	return err
}
