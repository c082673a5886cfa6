package webhookdb

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Claim implements webhook.Store. The endpoint's row is read locked
// (Postgres) and the decision taken here, so two replicas claiming at once
// take turns and exactly one wins.
func (r *Repo) Claim(ctx context.Context, id int64, owner string, now, until time.Time) (webhook.Lease, bool, error) {
	var out webhook.Lease
	ok := false
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		ok = false
		row, found, err := r.lock(ctx, tx, id)
		if err != nil || !found || row.ParkedAt != nil || row.NextAttempt.After(now) {
			return err
		}
		held := row.LeaseOwner != "" && row.LeaseUntil != nil && row.LeaseUntil.After(now)
		if held && row.LeaseOwner != owner {
			return nil
		}
		fence := row.Fence
		if !held {
			fence++
		}
		exp := sqldb.StoredTime(until)
		if err := tx.Model(&endpointRow{}).Where("id = ?", id).
			Updates(map[string]any{"lease_owner": owner, "lease_until": exp, "fence": fence}).Error; err != nil {
			return err
		}
		out, ok = webhook.Lease{EndpointID: id, Owner: owner, Fence: fence, Until: exp}, true
		return nil
	})
	return out, ok, sqldb.MapErr(err, "webhook lease")
}

func (r *Repo) lock(ctx context.Context, tx *gorm.DB, id int64) (endpointRow, bool, error) {
	var row endpointRow
	err := tx.WithContext(ctx).Clauses(r.db.LockRows(sqldb.LockExclusive)...).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return endpointRow{}, false, nil
	}
	return row, err == nil, err
}

// held runs fn in a transaction that holds l: the endpoint's row locked and
// still under l's owner and fence, else Conflict LEASE_LOST.
func (r *Repo) held(ctx context.Context, l webhook.Lease, fn func(tx *gorm.DB, row *endpointRow) error) error {
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		row, found, err := r.lock(ctx, tx, l.EndpointID)
		if err != nil {
			return err
		}
		if !found {
			return notFound()
		}
		if row.LeaseOwner != l.Owner || row.Fence != l.Fence {
			return leaseLost()
		}
		return fn(tx, &row)
	})
	return sqldb.MapErr(err, "webhook endpoint")
}

// Release implements webhook.Store: the lease ends at once if still l.
func (r *Repo) Release(ctx context.Context, l webhook.Lease) error {
	err := r.db.Gorm().WithContext(ctx).Model(&endpointRow{}).
		Where("id = ? AND lease_owner = ? AND fence = ?", l.EndpointID, l.Owner, l.Fence).
		Updates(map[string]any{"lease_owner": "", "lease_until": nil}).Error
	return sqldb.MapErr(err, "webhook lease")
}

// Cursors implements webhook.Store.
func (r *Repo) Cursors(ctx context.Context, id int64) ([]webhook.Cursor, error) {
	var rows []cursorRow
	if err := r.db.Gorm().WithContext(ctx).Where("endpoint_id = ?", id).Order("table_id").Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "webhook cursors")
	}
	out := make([]webhook.Cursor, len(rows))
	for i, row := range rows {
		out[i] = webhook.Cursor{TableID: row.TableID, Seq: row.Seq}
	}
	return out, nil
}

// upsertCursors writes cursors of endpoint id in tx.
func upsertCursors(tx *gorm.DB, id int64, cs []webhook.Cursor) error {
	rows := make([]cursorRow, len(cs))
	for i, c := range cs {
		rows[i] = cursorRow{EndpointID: id, TableID: c.TableID, Seq: c.Seq}
	}
	return tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "endpoint_id"}, {Name: "table_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"seq"}),
	}).CreateInBatches(rows, 500).Error
}

// Delivered implements webhook.Store.
func (r *Repo) Delivered(ctx context.Context, l webhook.Lease, c webhook.Cursor, at time.Time) error {
	return r.held(ctx, l, func(tx *gorm.DB, row *endpointRow) error {
		if err := upsertCursors(tx, l.EndpointID, []webhook.Cursor{c}); err != nil {
			return err
		}
		return tx.Model(&endpointRow{}).Where("id = ?", l.EndpointID).Updates(map[string]any{
			"attempts": 0, "failing_since": nil, "last_error": "",
			"delivered": row.Delivered + 1, "last_delivered": sqldb.StoredTime(at),
		}).Error
	})
}

// Skipped implements webhook.Store.
func (r *Repo) Skipped(ctx context.Context, l webhook.Lease, cs []webhook.Cursor) error {
	if len(cs) == 0 {
		return nil
	}
	// Keep each table's last cursor only: one row per table in a statement.
	last := map[int64]int64{}
	var order []int64
	for _, c := range cs {
		if _, ok := last[c.TableID]; !ok {
			order = append(order, c.TableID)
		}
		last[c.TableID] = c.Seq
	}
	uniq := make([]webhook.Cursor, len(order))
	for i, t := range order {
		uniq[i] = webhook.Cursor{TableID: t, Seq: last[t]}
	}
	return r.held(ctx, l, func(tx *gorm.DB, _ *endpointRow) error { return upsertCursors(tx, l.EndpointID, uniq) })
}

// Failed implements webhook.Store.
func (r *Repo) Failed(ctx context.Context, l webhook.Lease, f webhook.Failure) error {
	return r.held(ctx, l, func(tx *gorm.DB, row *endpointRow) error {
		set := map[string]any{"attempts": row.Attempts + 1, "last_error": truncate(f.Err, 1000), "next_attempt": sqldb.StoredTime(f.NextAttempt)}
		if row.FailingSince == nil {
			set["failing_since"] = sqldb.StoredTime(f.At)
		}
		if f.Park {
			set["parked_at"] = sqldb.StoredTime(f.At)
		}
		return tx.Model(&endpointRow{}).Where("id = ?", l.EndpointID).Updates(set).Error
	})
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
