package totedb

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// AcquireLease implements tote.LeaseStore. The lease row is read FOR UPDATE
// (Postgres), so two replicas taking an expired lease take turns, and a
// takeover waits for the old holder's step in flight (see CheckLease).
func (r *Repo) AcquireLease(ctx context.Context, tableID int64, owner string, now time.Time, ttl time.Duration) (tote.Lease, error) {
	var out tote.Lease
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		cur, found, err := r.lockLease(ctx, tx, tableID)
		if err != nil {
			return err
		}
		next := toteLeaseRow{TableID: tableID, Owner: owner, Fence: 1, ExpiresAt: sqldb.StoredTime(now.Add(ttl))}
		switch {
		case !found:
			err = tx.Create(&next).Error
		case cur.Owner == owner:
			next.Fence = cur.Fence
			err = tx.Save(&next).Error
		case !now.Before(cur.ExpiresAt):
			next.Fence = cur.Fence + 1
			err = tx.Save(&next).Error
		default:
			return errs.R(errs.Conflict, tote.ReasonLeaseHeld, "table %d is dealt by %s until %s", tableID, cur.Owner, cur.ExpiresAt.Format(time.RFC3339Nano))
		}
		out = toDomainLease(next)
		return err
	})
	return out, sqldb.MapErr(err, "lease")
}

// lockLease reads a table's lease row, locked until commit on Postgres.
func (r *Repo) lockLease(ctx context.Context, tx *gorm.DB, tableID int64) (toteLeaseRow, bool, error) {
	var row toteLeaseRow
	err := tx.WithContext(ctx).Clauses(r.db.LockRows(sqldb.LockExclusive)...).Where("table_id = ?", tableID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return toteLeaseRow{}, false, nil
	}
	return row, err == nil, err
}

// RenewLease implements tote.LeaseStore.
func (r *Repo) RenewLease(ctx context.Context, l tote.Lease, now time.Time, ttl time.Duration) (tote.Lease, error) {
	exp := sqldb.StoredTime(now.Add(ttl))
	res := r.db.Gorm().WithContext(ctx).Model(&toteLeaseRow{}).Where("table_id = ? AND owner = ? AND fence = ?", l.TableID, l.Owner, l.Fence).
		Update("expires_at", exp)
	if res.Error != nil {
		return tote.Lease{}, sqldb.MapErr(res.Error, "lease")
	}
	if res.RowsAffected != 1 {
		return tote.Lease{}, tote.ErrLeaseLost(l.TableID)
	}
	l.ExpiresAt = exp
	return l, nil
}

// ReleaseLease implements tote.LeaseStore: the lease expires at once.
func (r *Repo) ReleaseLease(ctx context.Context, l tote.Lease) error {
	err := r.db.Gorm().WithContext(ctx).Model(&toteLeaseRow{}).Where("table_id = ? AND owner = ? AND fence = ?", l.TableID, l.Owner, l.Fence).
		Update("expires_at", sqldb.StoredTime(time.Unix(0, 0))).Error
	return sqldb.MapErr(err, "lease")
}
