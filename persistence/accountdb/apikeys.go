package accountdb

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// APIKeyRepo is the database apikey.Store. Creating and revoking a key
// append their audit_log entry in the same transaction.
type APIKeyRepo struct {
	db *sqldb.DB
}

var _ apikey.Store = (*APIKeyRepo)(nil)

// NewAPIKeyRepo returns the API-key store on db.
func NewAPIKeyRepo(db *sqldb.DB) *APIKeyRepo { return &APIKeyRepo{db: db} }

// apiKeyRow is a row of api_keys.
type apiKeyRow struct {
	ID         string `gorm:"primaryKey"`
	Name       string
	SecretHash []byte
	PerMinute  int
	CreatedBy  int64
	CreatedAt  time.Time
	RevokedBy  *int64
	RevokedAt  *time.Time
}

// TableName names the table of apiKeyRow for GORM.
func (apiKeyRow) TableName() string { return "api_keys" }

func toDomainAPIKey(r apiKeyRow) apikey.Key {
	k := apikey.Key{ID: r.ID, Name: r.Name, PerMinute: r.PerMinute, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt.UTC()}
	if r.RevokedAt != nil {
		at := r.RevokedAt.UTC()
		k.RevokedAt = &at
	}
	return k
}

// auditAPIKeySubject is the audit_log subject of a key.
func auditAPIKeySubject(id string) string { return "api_key:" + id }

// CreateKey implements apikey.Store.
func (r *APIKeyRepo) CreateKey(ctx context.Context, k apikey.Key, hash []byte) (apikey.Key, error) {
	row := apiKeyRow{ID: k.ID, Name: k.Name, SecretHash: hash, PerMinute: k.PerMinute, CreatedBy: k.CreatedBy, CreatedAt: sqldb.StoredTime(k.CreatedAt)}
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return tx.Create(&auditRow{
			ActorID: sqldb.NullableID(k.CreatedBy), Action: "API_KEY_CREATED", Subject: auditAPIKeySubject(k.ID),
			Detail: fmt.Sprintf("%s, %d requests/minute", k.Name, k.PerMinute), CreatedAt: row.CreatedAt,
		}).Error
	})
	if err != nil {
		return apikey.Key{}, sqldb.MapErr(err, "API key")
	}
	return toDomainAPIKey(row), nil
}

// KeyByID implements apikey.Store.
func (r *APIKeyRepo) KeyByID(ctx context.Context, id string) (apikey.Key, []byte, error) {
	var row apiKeyRow
	if err := r.db.Gorm().WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return apikey.Key{}, nil, sqldb.MapErr(err, "API key")
	}
	return toDomainAPIKey(row), row.SecretHash, nil
}

// RevokeKey implements apikey.Store.
func (r *APIKeyRepo) RevokeKey(ctx context.Context, id string, by int64, at time.Time) (apikey.Key, error) {
	var row apiKeyRow
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&apiKeyRow{}).Where("id = ? AND revoked_at IS NULL", id).
			Updates(map[string]any{"revoked_by": by, "revoked_at": sqldb.StoredTime(at)})
		if res.Error != nil {
			return res.Error
		}
		if err := tx.Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		if res.RowsAffected == 0 {
			return nil // already revoked: nothing to audit
		}
		return tx.Create(&auditRow{
			ActorID: sqldb.NullableID(by), Action: "API_KEY_REVOKED", Subject: auditAPIKeySubject(id),
			Detail: row.Name, CreatedAt: sqldb.StoredTime(at),
		}).Error
	})
	if err != nil {
		return apikey.Key{}, sqldb.MapErr(err, "API key")
	}
	return toDomainAPIKey(row), nil
}

// ListKeys implements apikey.Store.
func (r *APIKeyRepo) ListKeys(ctx context.Context) ([]apikey.Key, error) {
	var rows []apiKeyRow
	if err := r.db.Gorm().WithContext(ctx).Order("created_at DESC, id").Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "API keys")
	}
	out := make([]apikey.Key, len(rows))
	for i, row := range rows {
		out[i] = toDomainAPIKey(row)
	}
	return out, nil
}
