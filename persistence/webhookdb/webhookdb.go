// Package webhookdb is the database webhook.Store: partners' endpoints,
// their per-table cursors and the lease that lets one replica at a time
// deliver each endpoint.
package webhookdb

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database webhook.Store.
type Repo struct {
	db *sqldb.DB
}

var _ webhook.Store = (*Repo)(nil)

// New returns the webhook store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

// endpointRow is a row of webhook_endpoints.
type endpointRow struct {
	ID            int64 `gorm:"primaryKey"`
	URL           string
	Types         string // comma-separated
	Secret        string
	Description   string
	CreatedBy     int64
	CreatedAt     time.Time
	LeaseOwner    string
	LeaseUntil    *time.Time
	Fence         int64
	Attempts      int
	FailingSince  *time.Time
	NextAttempt   time.Time
	LastError     string
	ParkedAt      *time.Time
	Delivered     int64
	LastDelivered *time.Time
}

// TableName names the table of endpointRow for GORM.
func (endpointRow) TableName() string { return "webhook_endpoints" }

// cursorRow is a row of webhook_cursors.
type cursorRow struct {
	EndpointID int64 `gorm:"primaryKey"`
	TableID    int64 `gorm:"primaryKey"`
	Seq        int64
}

// TableName names the table of cursorRow for GORM.
func (cursorRow) TableName() string { return "webhook_cursors" }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func toDomain(r endpointRow) webhook.Endpoint {
	e := webhook.Endpoint{
		ID: r.ID, URL: r.URL, Secret: r.Secret, Description: r.Description, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt.UTC(),
		Attempts: r.Attempts, FailingSince: utcPtr(r.FailingSince), NextAttempt: r.NextAttempt.UTC(), LastError: r.LastError,
		Parked: utcPtr(r.ParkedAt), Delivered: r.Delivered, LastDelivered: utcPtr(r.LastDelivered),
	}
	for _, t := range strings.Split(r.Types, ",") {
		e.Types = append(e.Types, webhook.Type(t))
	}
	return e
}

func notFound() error {
	return errs.R(errs.NotFound, webhook.ReasonEndpointNotFound, "webhook endpoint not found")
}

func leaseLost() error {
	return errs.R(errs.Conflict, webhook.ReasonLeaseLost, "the endpoint's lease was lost")
}

// audit appends an admin's action on endpoint id in tx.
func audit(tx *gorm.DB, by, id int64, action, detail string, at time.Time) error {
	return accountdb.InsertAudit(tx, account.AuditEntry{At: at, ActorID: by, Action: action, SubjectID: id, SubjectKind: SubjectWebhook, Detail: detail})
}

// SubjectWebhook is the audit log's subject kind of an endpoint.
const SubjectWebhook = "webhook"

// CreateEndpoint implements webhook.Store.
func (r *Repo) CreateEndpoint(ctx context.Context, e webhook.Endpoint, cursors []webhook.Cursor) (webhook.Endpoint, error) {
	types := make([]string, len(e.Types))
	for i, t := range e.Types {
		types[i] = string(t)
	}
	row := endpointRow{
		URL: e.URL, Types: strings.Join(types, ","), Secret: e.Secret, Description: e.Description,
		CreatedBy: e.CreatedBy, CreatedAt: sqldb.StoredTime(e.CreatedAt), NextAttempt: sqldb.StoredTime(e.NextAttempt),
	}
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if len(cursors) > 0 {
			rows := make([]cursorRow, len(cursors))
			for i, c := range cursors {
				rows[i] = cursorRow{EndpointID: row.ID, TableID: c.TableID, Seq: c.Seq}
			}
			if err := tx.CreateInBatches(rows, 500).Error; err != nil {
				return err
			}
		}
		return audit(tx, e.CreatedBy, row.ID, "WEBHOOK_CREATED", row.URL+" ("+row.Types+")", row.CreatedAt)
	})
	if err != nil {
		return webhook.Endpoint{}, sqldb.MapErr(err, "webhook endpoint")
	}
	return toDomain(row), nil
}

// Endpoint implements webhook.Store.
func (r *Repo) Endpoint(ctx context.Context, id int64) (webhook.Endpoint, error) {
	var row endpointRow
	err := r.db.Gorm().WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errs.Is(sqldb.MapErr(err, "webhook endpoint"), errs.NotFound) {
		return webhook.Endpoint{}, notFound()
	}
	if err != nil {
		return webhook.Endpoint{}, sqldb.MapErr(err, "webhook endpoint")
	}
	return toDomain(row), nil
}

// Endpoints implements webhook.Store.
func (r *Repo) Endpoints(ctx context.Context) ([]webhook.Endpoint, error) {
	var rows []endpointRow
	if err := r.db.Gorm().WithContext(ctx).Order("id DESC").Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "webhook endpoints")
	}
	out := make([]webhook.Endpoint, len(rows))
	for i, row := range rows {
		out[i] = toDomain(row)
	}
	return out, nil
}

// DeleteEndpoint implements webhook.Store.
func (r *Repo) DeleteEndpoint(ctx context.Context, id, by int64, at time.Time) error {
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		var row endpointRow
		if err := tx.Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		if err := tx.Where("endpoint_id = ?", id).Delete(&cursorRow{}).Error; err != nil {
			return err
		}
		if err := tx.Delete(&endpointRow{}, id).Error; err != nil {
			return err
		}
		return audit(tx, by, id, "WEBHOOK_DELETED", row.URL, sqldb.StoredTime(at))
	})
	if errs.Is(sqldb.MapErr(err, "webhook endpoint"), errs.NotFound) {
		return notFound()
	}
	return sqldb.MapErr(err, "webhook endpoint")
}

// Replay implements webhook.Store.
func (r *Repo) Replay(ctx context.Context, id, tableID, seq, by int64, at time.Time) (webhook.Endpoint, error) {
	var row endpointRow
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&endpointRow{}).Where("id = ?", id).Updates(map[string]any{
			"parked_at": nil, "failing_since": nil, "attempts": 0, "last_error": "", "next_attempt": sqldb.StoredTime(at),
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound()
		}
		detail := "resumed"
		if tableID != 0 {
			if err := upsertCursors(tx, id, []webhook.Cursor{{TableID: tableID, Seq: seq - 1}}); err != nil {
				return err
			}
			detail = "replayed from " + webhook.EventID(tableID, seq)
		}
		if err := tx.Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		return audit(tx, by, id, "WEBHOOK_REPLAYED", detail, sqldb.StoredTime(at))
	})
	if err != nil {
		return webhook.Endpoint{}, sqldb.MapErr(err, "webhook endpoint")
	}
	return toDomain(row), nil
}
