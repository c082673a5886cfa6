package accountdb

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// auditRow is a row of audit_log (created by 00001_foundation, changes by
// 00060_audit_changes, table_id by 00190_audit_filters). What an action
// concerns is kept in the generic subject column as "<kind>:<id>" ("user:7",
// "table:2"); changes is a JSON array of {field, from, to}, or empty;
// table_id is the table of a table's or a draw's entry, for the filter.
type auditRow struct {
	ID        int64
	ActorID   *int64
	Action    string
	Subject   string
	Detail    string
	Changes   string
	TableID   *int64
	CreatedAt time.Time
}

// TableName names the table of auditRow for GORM.
func (auditRow) TableName() string { return "audit_log" }

type auditChangeJSON struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

func fromDomainAudit(e account.AuditEntry) auditRow {
	subject := ""
	if e.SubjectID != 0 {
		kind := e.SubjectKind
		if kind == "" {
			kind = account.SubjectUser
		}
		subject = kind + ":" + strconv.FormatInt(e.SubjectID, 10)
	}
	changes := ""
	if len(e.Changes) > 0 {
		js := make([]auditChangeJSON, len(e.Changes))
		for i, c := range e.Changes {
			js[i] = auditChangeJSON(c)
		}
		b, _ := json.Marshal(js) // strings only: cannot fail
		changes = string(b)
	}
	return auditRow{
		Changes:   changes,
		ID:        e.ID,
		ActorID:   sqldb.NullableID(e.ActorID),
		Action:    e.Action,
		Subject:   subject,
		Detail:    e.Detail,
		TableID:   sqldb.NullableID(e.TableID),
		CreatedAt: sqldb.StoredTime(e.At),
	}
}

func toDomainAudit(r auditRow) account.AuditEntry {
	var subject int64
	kind, rest, ok := strings.Cut(r.Subject, ":")
	if ok {
		subject, _ = strconv.ParseInt(rest, 10, 64)
	}
	var changes []account.AuditChange
	if r.Changes != "" {
		var js []auditChangeJSON
		if json.Unmarshal([]byte(r.Changes), &js) == nil {
			for _, c := range js {
				changes = append(changes, account.AuditChange(c))
			}
		}
	}
	return account.AuditEntry{
		ID:          r.ID,
		At:          r.CreatedAt.UTC(),
		ActorID:     sqldb.IDOrZero(r.ActorID),
		Action:      r.Action,
		SubjectID:   subject,
		SubjectKind: kind,
		Detail:      r.Detail,
		Changes:     changes,
		TableID:     sqldb.IDOrZero(r.TableID),
	}
}

// AppendAudit implements account.UserStore.
func (r *UserRepo) AppendAudit(ctx context.Context, e account.AuditEntry) (account.AuditEntry, error) {
	out, err := r.appendAudit(r.db.Gorm().WithContext(ctx), e)
	if err != nil {
		return account.AuditEntry{}, sqldb.MapErr(err, "audit entry")
	}
	return out, nil
}

// appendAudit inserts e through tx (a transaction or the pool), stamping it
// with the repository's clock when e.At is zero.
func (r *UserRepo) appendAudit(tx *gorm.DB, e account.AuditEntry) (account.AuditEntry, error) {
	if e.At.IsZero() {
		e.At = r.now()
	}
	row := fromDomainAudit(e)
	row.ID = 0
	if err := tx.Create(&row).Error; err != nil {
		return account.AuditEntry{}, err
	}
	return toDomainAudit(row), nil
}

// ListAudit implements account.UserStore: the entries f selects, newest
// first, before the cursor p.After (migration 00190 indexes each filter).
func (r *UserRepo) ListAudit(ctx context.Context, f account.AuditFilter, p account.Page) ([]account.AuditEntry, int64, error) {
	size := p.Size()
	q := r.db.Gorm().WithContext(ctx).Order("id DESC").Limit(size + 1)
	switch {
	case p.Backward:
		q = r.db.Gorm().WithContext(ctx).Order("id").Limit(size + 1)
		if p.After > 0 {
			q = q.Where("id > ?", p.After)
		}
	case p.After > 0:
		q = q.Where("id < ?", p.After)
	}
	if f.ActorID != 0 {
		q = q.Where("actor_id = ?", f.ActorID)
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.TableID != 0 {
		q = q.Where("table_id = ?", f.TableID)
	}
	if !f.From.IsZero() {
		q = q.Where("created_at >= ?", sqldb.StoredTime(f.From))
	}
	if !f.To.IsZero() {
		q = q.Where("created_at < ?", sqldb.StoredTime(f.To))
	}
	var rows []auditRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, 0, sqldb.MapErr(err, "audit entry")
	}
	var next int64
	if len(rows) > size {
		rows = rows[:size]
		next = rows[size-1].ID
	}
	if p.Backward {
		slices.Reverse(rows)
	}
	out := make([]account.AuditEntry, len(rows))
	for i, row := range rows {
		out[i] = toDomainAudit(row)
	}
	return out, next, nil
}

// InsertAudit appends e to the audit log in tx, under a new id: the other
// stores record the audit entry of a change in the change's transaction.
func InsertAudit(tx *gorm.DB, e account.AuditEntry) error {
	row := fromDomainAudit(e)
	row.ID = 0
	return tx.Create(&row).Error
}
