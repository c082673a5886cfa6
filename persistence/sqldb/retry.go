package sqldb

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"
)

// Every repository that changes rows in a transaction of its own runs it
// with RetryTx, so that a Postgres serialization failure or deadlock (see
// classify in errors.go) costs a retry rather than an error.

// TxAttempts is how many times Retry and RetryTx run their work at most.
const TxAttempts = 6

// txRetryBackoff is the first pause between attempts; it doubles, with
// jitter, on each.
const txRetryBackoff = 2 * time.Millisecond

// RetryTx runs fn in one transaction of db, again (after a short, growing,
// jittered pause) when it fails with a Postgres serialization failure or
// deadlock, up to TxAttempts times in all. fn must not keep effects outside
// the transaction from one attempt to the next.
func RetryTx(ctx context.Context, db *DB, fn func(tx *gorm.DB) error) error {
	return Retry(ctx, db, "transaction", func() (bool, error) { return false, db.Tx(ctx, fn) })
}

// Retry is the package's one retry loop: it runs attempt, again after a
// short, growing, jittered pause when it fails with a serialization failure
// or deadlock, and again at once when it says so (again, with its error),
// up to TxAttempts times in all. It returns the last attempt's error.
func Retry(ctx context.Context, db *DB, what string, attempt func() (again bool, err error)) error {
	var (
		err   error
		again bool
	)
	for n := range TxAttempts {
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
		if !IsSerializationFailure(err) {
			return err
		}
		db.log.DebugContext(ctx, what+" retried", "attempt", n+1, "err", err)
	}
	return err
}
