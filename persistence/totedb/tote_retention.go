package totedb

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

var _ tote.EventRetention = (*Repo)(nil)

// FirstRetainedSeq implements tote.EventRetention from
// tote_event_retention's watermark (no row: nothing pruned).
func (r *Repo) FirstRetainedSeq(ctx context.Context, tableID int64) (int64, error) {
	var firsts []int64
	err := r.db.Gorm().WithContext(ctx).Raw("SELECT first_seq FROM tote_event_retention WHERE table_id = ?", tableID).Scan(&firsts).Error
	if err != nil {
		return 0, sqldb.MapErr(err, "event retention")
	}
	if len(firsts) == 0 {
		return 1, nil
	}
	return firsts[0], nil
}

// pruneCandidate is one event at the head of a table's outbox with its
// draw's phase.
type pruneCandidate struct {
	Seq       int64
	CreatedAt time.Time
	DrawID    *int64
	Phase     *string
}

// PruneEvents implements tote.EventRetention: per table, one transaction
// reads up to batch events from the watermark in seq order (by the primary
// key), finds how many of them are prunable in a row, raises the
// watermark (never lowers it: replicas may prune at once) and deletes the
// events below it.
func (r *Repo) PruneEvents(ctx context.Context, before time.Time, batch int) (int, error) {
	var tables []int64
	if err := r.db.Gorm().WithContext(ctx).Raw("SELECT id FROM tote_tables ORDER BY id").Scan(&tables).Error; err != nil {
		return 0, sqldb.MapErr(err, "tables")
	}
	total := 0
	for _, id := range tables {
		n, err := r.pruneTable(ctx, id, before, batch)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

func (r *Repo) pruneTable(ctx context.Context, tableID int64, before time.Time, batch int) (int, error) {
	deleted := 0
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		var firsts []int64
		if err := tx.Raw("SELECT first_seq FROM tote_event_retention WHERE table_id = ?", tableID).Scan(&firsts).Error; err != nil {
			return err
		}
		first := int64(1)
		if len(firsts) == 1 {
			first = firsts[0]
		}
		var rows []pruneCandidate
		err := tx.Raw(`SELECT e.seq, e.created_at, e.draw_id, d.phase FROM tote_events e
			LEFT JOIN tote_draws d ON d.id = e.draw_id
			WHERE e.table_id = ? AND e.seq >= ? ORDER BY e.seq LIMIT ?`, tableID, first, batch).Scan(&rows).Error
		if err != nil {
			return err
		}
		next := first
		for _, c := range rows {
			var drawID int64
			var phase tote.Phase
			if c.DrawID != nil {
				drawID = *c.DrawID
			}
			if c.Phase != nil {
				phase = tote.Phase(*c.Phase)
			}
			if c.Seq != next || !tote.PrunableEvent(c.CreatedAt, before, drawID, phase) {
				break
			}
			next++
		}
		if next == first {
			return nil
		}
		greatest := "GREATEST"
		if r.db.Dialect() != sqldb.Postgres {
			greatest = "MAX"
		}
		if err := tx.Exec(`INSERT INTO tote_event_retention (table_id, first_seq, pruned_at) VALUES (?, ?, ?)
			ON CONFLICT (table_id) DO UPDATE SET first_seq = `+greatest+`(tote_event_retention.first_seq, excluded.first_seq), pruned_at = excluded.pruned_at`,
			tableID, next, sqldb.StoredTime(time.Now())).Error; err != nil {
			return err
		}
		res := tx.Exec("DELETE FROM tote_events WHERE table_id = ? AND seq < ?", tableID, next)
		deleted = int(res.RowsAffected)
		return res.Error
	})
	if err != nil {
		return 0, sqldb.MapErr(err, "event pruning")
	}
	return deleted, nil
}
