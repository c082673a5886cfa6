package persistence

import (
	"context"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
)

// auditRow is a row of audit_log (created by 00001_foundation). The user an
// action concerns is kept in the generic subject column as "user:<id>".
type auditRow struct {
	ID        int64
	ActorID   *int64
	Action    string
	Subject   string
	Detail    string
	CreatedAt time.Time
}

// TableName names the table of auditRow for GORM.
func (auditRow) TableName() string { return "audit_log" }

// auditSubjectPrefix marks a subject that is a user.
const auditSubjectPrefix = "user:"

func fromDomainAudit(e account.AuditEntry) auditRow {
	subject := ""
	if e.SubjectID != 0 {
		subject = auditSubjectPrefix + strconv.FormatInt(e.SubjectID, 10)
	}
	return auditRow{
		ID:        e.ID,
		ActorID:   nullableID(e.ActorID),
		Action:    e.Action,
		Subject:   subject,
		Detail:    e.Detail,
		CreatedAt: storedTime(e.At),
	}
}

func toDomainAudit(r auditRow) account.AuditEntry {
	var subject int64
	if rest, ok := strings.CutPrefix(r.Subject, auditSubjectPrefix); ok {
		subject, _ = strconv.ParseInt(rest, 10, 64)
	}
	return account.AuditEntry{
		ID:        r.ID,
		At:        r.CreatedAt.UTC(),
		ActorID:   idOrZero(r.ActorID),
		Action:    r.Action,
		SubjectID: subject,
		Detail:    r.Detail,
	}
}

// AppendAudit implements account.UserStore.
func (r *UserRepo) AppendAudit(ctx context.Context, e account.AuditEntry) (account.AuditEntry, error) {
	out, err := r.appendAudit(r.db.gorm.WithContext(ctx), e)
	if err != nil {
		return account.AuditEntry{}, mapErr(err, "audit entry")
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

// ListAudit implements account.UserStore: entries newest first, before the
// cursor p.After.
func (r *UserRepo) ListAudit(ctx context.Context, p account.Page) ([]account.AuditEntry, int64, error) {
	size := p.Size()
	q := r.db.gorm.WithContext(ctx).Order("id DESC").Limit(size + 1)
	if p.After > 0 {
		q = q.Where("id < ?", p.After)
	}
	var rows []auditRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, 0, mapErr(err, "audit entry")
	}
	var next int64
	if len(rows) > size {
		rows = rows[:size]
		next = rows[size-1].ID
	}
	out := make([]account.AuditEntry, len(rows))
	for i, row := range rows {
		out[i] = toDomainAudit(row)
	}
	return out, next, nil
}
