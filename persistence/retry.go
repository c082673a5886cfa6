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
	return retry(ctx, db, "transaction", func() (bool, error) { return false, db.tx(ctx, fn) })
}

// retry is the package's one retry loop: it runs attempt, again after a
// short, growing, jittered pause when it fails with a serialization failure
// or deadlock, and again at once when it says so (again, with its error),
// up to txAttempts times in all. It returns the last attempt's error.
func retry(ctx context.Context, db *DB, what string, attempt func() (again bool, err error)) error {
	var (
		err   error
		again bool
	)
	for n := range txAttempts {
		if n > 0 && !again {
			pause := txRetryBackoff<<n + rand.N(txRetryBackoff<<n)
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(pause):
			}
		}
		if again, err = attempt(); again {
			continue
		}
		if !isSerializationFailure(err) {
			return err
		}
		db.log.DebugContext(ctx, what+" retried", "attempt", n+1, "err", err)
	}
	return err
}
