// Package usereventdb keeps every user's private event stream (myEvents)
// so that a client resumes after the last seq it saw: each published user
// event is appended with the user's next seq, read back after a seq, and
// pruned after the retention.
package usereventdb

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the store of user events.
type Repo struct{ db *sqldb.DB }

// New returns the store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

type eventRow struct {
	UserID int64 `gorm:"primaryKey;autoIncrement:false"`
	Seq    int64 `gorm:"primaryKey;autoIncrement:false"`
	At     time.Time
	Data   string
}

// TableName names the table of eventRow for GORM.
func (eventRow) TableName() string { return "user_events" }

// Pending is an event to append to a user's stream.
type Pending struct {
	UserID int64
	Event  event.UserEvent
}

// Append gives each event its user's next seq, in order, stores them in
// one transaction and returns them with their seqs. The users' counters
// are taken in id order, so two batches never wait on each other in a
// cycle; a user's events commit in seq order (the counter's row is held
// until commit). On Postgres it is one statement (append_pg.go).
func (r *Repo) Append(ctx context.Context, evs []Pending) ([]Pending, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	if r.db.Dialect() == sqldb.Postgres {
		out := slices.Clone(evs)
		if err := r.appendPG(ctx, out); err != nil {
			return nil, sqldb.MapErr(err, "user events")
		}
		return out, nil
	}
	count := map[int64]int64{}
	for _, e := range evs {
		count[e.UserID]++
	}
	users := make([]int64, 0, len(count))
	for u := range count {
		users = append(users, u)
	}
	slices.Sort(users)
	out := slices.Clone(evs)
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		next := make(map[int64]int64, len(users))
		for _, u := range users {
			var last int64
			err := tx.Raw(`INSERT INTO user_event_seqs (user_id, last_seq) VALUES (?, ?)
ON CONFLICT (user_id) DO UPDATE SET last_seq = user_event_seqs.last_seq + excluded.last_seq
RETURNING last_seq`, u, count[u]).Scan(&last).Error
			if err != nil {
				return err
			}
			next[u] = last - count[u] + 1
		}
		rows := make([]eventRow, len(out))
		for i := range out {
			u := out[i].UserID
			out[i].Event.Seq = next[u]
			next[u]++
			data, err := json.Marshal(out[i].Event)
			if err != nil {
				return err
			}
			rows[i] = eventRow{UserID: u, Seq: out[i].Event.Seq, At: sqldb.StoredTime(out[i].Event.At), Data: string(data)}
		}
		return tx.CreateInBatches(rows, sqldb.ChunkRows).Error
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "user events")
	}
	return out, nil
}

// After returns up to limit of user's events after seq afterSeq, in order.
func (r *Repo) After(ctx context.Context, userID, afterSeq int64, limit int) ([]event.UserEvent, error) {
	var rows []eventRow
	err := r.db.Gorm().WithContext(ctx).Where("user_id = ? AND seq > ?", userID, afterSeq).
		Order("seq").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "user events")
	}
	out := make([]event.UserEvent, len(rows))
	for i, row := range rows {
		if err := json.Unmarshal([]byte(row.Data), &out[i]); err != nil {
			return nil, errs.Wrap(err, "a stored user event is unreadable")
		}
		out[i].Seq = row.Seq
	}
	return out, nil
}

// Bounds reports user's last seq (0 before any event) and the oldest one
// still kept (0 when none is).
func (r *Repo) Bounds(ctx context.Context, userID int64) (oldest, last int64, err error) {
	g := r.db.Gorm().WithContext(ctx)
	if err := g.Raw(`SELECT COALESCE(MAX(last_seq), 0) FROM user_event_seqs WHERE user_id = ?`, userID).Scan(&last).Error; err != nil {
		return 0, 0, sqldb.MapErr(err, "user events")
	}
	if err := g.Raw(`SELECT COALESCE(MIN(seq), 0) FROM user_events WHERE user_id = ?`, userID).Scan(&oldest).Error; err != nil {
		return 0, 0, sqldb.MapErr(err, "user events")
	}
	return oldest, last, nil
}

// Prune deletes the events older than before (every user's counter stays)
// and reports how many went.
func (r *Repo) Prune(ctx context.Context, before time.Time) (int64, error) {
	res := r.db.Gorm().WithContext(ctx).Where("at < ?", sqldb.StoredTime(before)).Delete(&eventRow{})
	return res.RowsAffected, sqldb.MapErr(res.Error, "user events")
}
