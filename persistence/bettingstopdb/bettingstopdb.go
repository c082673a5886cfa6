// Package bettingstopdb is the database bettingstop.Store: the one row of
// betting_stop, changed with its audit entry in one transaction.
package bettingstopdb

import (
	"context"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database bettingstop.Store.
type Repo struct {
	db *sqldb.DB
}

var _ bettingstop.Store = (*Repo)(nil)

// New returns the store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

// stopRow is the row of betting_stop.
type stopRow struct {
	ID           int64 `gorm:"primaryKey"`
	Stopped      bool
	Reason       string
	ChangedBy    *int64
	ChangedAt    *time.Time
	PausedTables string
}

// TableName names the table of stopRow for GORM.
func (stopRow) TableName() string { return "betting_stop" }

// Load implements bettingstop.Store.
func (r *Repo) Load(ctx context.Context) (bettingstop.State, error) {
	var row stopRow
	if err := r.db.Gorm().WithContext(ctx).Where("id = 1").Take(&row).Error; err != nil {
		return bettingstop.State{}, sqldb.MapErr(err, "betting stop")
	}
	st := bettingstop.State{Stopped: row.Stopped, Reason: row.Reason}
	if row.ChangedBy != nil {
		st.By = *row.ChangedBy
	}
	if row.ChangedAt != nil {
		st.At = row.ChangedAt.UTC()
	}
	for _, f := range strings.Split(row.PausedTables, ",") {
		if id, err := strconv.ParseInt(f, 10, 64); err == nil {
			st.PausedTables = append(st.PausedTables, id)
		}
	}
	return st, nil
}

// Save implements bettingstop.Store.
func (r *Repo) Save(ctx context.Context, st bettingstop.State, action string) error {
	ids := make([]string, len(st.PausedTables))
	for i, id := range st.PausedTables {
		ids[i] = strconv.FormatInt(id, 10)
	}
	at := sqldb.StoredTime(st.At)
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		err := tx.Model(&stopRow{}).Where("id = 1").Updates(map[string]any{
			"stopped": st.Stopped, "reason": st.Reason, "changed_by": sqldb.NullableID(st.By), "changed_at": at,
			"paused_tables": strings.Join(ids, ","),
		}).Error
		if err != nil {
			return err
		}
		detail := st.Reason
		if !st.Stopped {
			detail = "betting resumed"
		}
		return accountdb.InsertAudit(tx, account.AuditEntry{At: at, ActorID: st.By, Action: action, Detail: detail})
	})
	return sqldb.MapErr(err, "betting stop")
}
