// Package trusteddocsdb keeps the trusted documents registered at runtime:
// one row of trusted_manifests per client and version, registered and
// revoked with their audit entries in one transaction.
package trusteddocsdb

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/trusteddocs"
)

// The audit actions of a registration.
const (
	ActionRegistered = "TRUSTED_DOCUMENTS_REGISTERED"
	ActionRevoked    = "TRUSTED_DOCUMENTS_REVOKED"
)

// Repo is the store of registrations.
type Repo struct{ db *sqldb.DB }

// New returns the store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

type manifestRow struct {
	ID            int64 `gorm:"primaryKey"`
	Client        string
	Version       string
	Format        string
	Documents     string
	DocumentCount int
	RegisteredBy  int64
	RegisteredAt  time.Time
	RevokedAt     *time.Time
}

// TableName names the table of manifestRow for GORM.
func (manifestRow) TableName() string { return "trusted_manifests" }

func (r manifestRow) domain() (trusteddocs.Registration, error) {
	var docs map[string]string
	if err := json.Unmarshal([]byte(r.Documents), &docs); err != nil {
		return trusteddocs.Registration{}, fmt.Errorf("trusted manifest %s %s: %w", r.Client, r.Version, err)
	}
	return trusteddocs.Registration{
		Client: r.Client, Version: r.Version, Format: r.Format, Documents: docs,
		RegisteredAt: r.RegisteredAt.UTC(), RegisteredBy: r.RegisteredBy, RevokedAt: sqldb.TimeOrZero(r.RevokedAt),
	}, nil
}

// List returns every registration, revoked ones too, newest first.
func (r *Repo) List(ctx context.Context) ([]trusteddocs.Registration, error) {
	var rows []manifestRow
	if err := r.db.Gorm().WithContext(ctx).Order("registered_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "trusted manifests")
	}
	out := make([]trusteddocs.Registration, 0, len(rows))
	for _, row := range rows {
		reg, err := row.domain()
		if err != nil {
			return nil, errs.Wrap(err, "a stored manifest is unreadable")
		}
		out = append(out, reg)
	}
	return out, nil
}

// Register stores reg (its documents checked already) with its audit
// entry. A version registered and revoked before is registered again; one
// still served is CONFLICT / ALREADY_EXISTS.
func (r *Repo) Register(ctx context.Context, reg trusteddocs.Registration) error {
	docs, err := json.Marshal(reg.Documents)
	if err != nil {
		return errs.Wrap(err, "encode a manifest")
	}
	at := sqldb.StoredTime(reg.RegisteredAt)
	err = r.db.Tx(ctx, func(tx *gorm.DB) error {
		var old manifestRow
		res := tx.Where("client = ? AND version = ?", reg.Client, reg.Version).Limit(1).Find(&old)
		if res.Error != nil {
			return res.Error
		}
		row := manifestRow{ID: old.ID, Client: reg.Client, Version: reg.Version, Format: reg.Format, Documents: string(docs),
			DocumentCount: len(reg.Documents), RegisteredBy: reg.RegisteredBy, RegisteredAt: at}
		switch {
		case res.RowsAffected == 0:
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		case old.RevokedAt == nil:
			return errs.R(errs.Conflict, errs.ReasonAlreadyExists,
				"%s %s is registered already: register a new version, or revoke this one first", reg.Client, reg.Version)
		default:
			if err := tx.Model(&manifestRow{}).Where("id = ?", old.ID).Updates(map[string]any{
				"format": row.Format, "documents": row.Documents, "document_count": row.DocumentCount,
				"registered_by": row.RegisteredBy, "registered_at": at, "revoked_at": nil,
			}).Error; err != nil {
				return err
			}
		}
		return accountdb.InsertAudit(tx, account.AuditEntry{At: at, ActorID: reg.RegisteredBy, Action: ActionRegistered,
			Detail: fmt.Sprintf("%s %s: %d documents (%s manifest)", reg.Client, reg.Version, len(reg.Documents), reg.Format)})
	})
	return sqldb.MapErr(err, "trusted manifest")
}

// Revoke stops serving client's version, with its audit entry; NOT_FOUND
// when it is not registered, nothing when revoked already.
func (r *Repo) Revoke(ctx context.Context, client, version string, by int64, at time.Time) error {
	at = sqldb.StoredTime(at)
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		var row manifestRow
		if err := tx.Where("client = ? AND version = ?", client, version).Take(&row).Error; err != nil {
			return sqldb.MapErr(err, "trusted manifest", sqldb.NotFound(errs.R(errs.NotFound, errs.ReasonNotFound,
				"no manifest is registered for %s %s", client, version)))
		}
		if row.RevokedAt != nil {
			return nil
		}
		if err := tx.Model(&manifestRow{}).Where("id = ?", row.ID).Update("revoked_at", at).Error; err != nil {
			return err
		}
		return accountdb.InsertAudit(tx, account.AuditEntry{At: at, ActorID: by, Action: ActionRevoked,
			Detail: fmt.Sprintf("%s %s: %d documents no longer served", client, version, row.DocumentCount)})
	})
	return sqldb.MapErr(err, "trusted manifest")
}
