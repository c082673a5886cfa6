package accountdb

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// RefreshRepo is the database auth.RefreshStore. Tokens are kept by hash
// only; a family's revocation is a row of its own, so tokens created in a
// revoked family later are revoked too.
type RefreshRepo struct {
	db *sqldb.DB
}

var _ auth.RefreshStore = (*RefreshRepo)(nil)

// NewRefreshRepo returns the refresh-token store on db.
func NewRefreshRepo(db *sqldb.DB) *RefreshRepo { return &RefreshRepo{db: db} }

// refreshRow is a row of refresh_tokens, with Revoked computed by a join.
type refreshRow struct {
	Hash      []byte
	FamilyID  string
	UserID    int64
	IssuedAt  time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
	Revoked   bool `gorm:"->"`
}

// TableName names the table of refreshRow for GORM.
func (refreshRow) TableName() string { return "refresh_tokens" }

func fromDomainRefresh(r auth.RefreshRecord) refreshRow {
	return refreshRow{
		Hash:      r.Hash[:],
		FamilyID:  r.FamilyID,
		UserID:    r.UserID,
		IssuedAt:  sqldb.StoredTime(r.IssuedAt),
		ExpiresAt: sqldb.StoredTime(r.ExpiresAt),
		UsedAt:    sqldb.NullableTime(r.UsedAt),
	}
}

// revokedFamilyRow is a row of refresh_families_revoked.
type revokedFamilyRow struct {
	FamilyID  string
	RevokedAt time.Time
}

// TableName names the table of revokedFamilyRow for GORM.
func (revokedFamilyRow) TableName() string { return "refresh_families_revoked" }

func toDomainRefresh(r refreshRow) (auth.RefreshRecord, error) {
	var h auth.TokenHash
	if len(r.Hash) != len(h) {
		return auth.RefreshRecord{}, errs.E(errs.Internal, "stored refresh token hash has %d bytes", len(r.Hash))
	}
	copy(h[:], r.Hash)
	return auth.RefreshRecord{
		Hash:      h,
		FamilyID:  r.FamilyID,
		UserID:    r.UserID,
		IssuedAt:  r.IssuedAt.UTC(),
		ExpiresAt: r.ExpiresAt.UTC(),
		UsedAt:    sqldb.TimeOrZero(r.UsedAt),
		Revoked:   r.Revoked,
	}, nil
}

func refreshNotFound() error { return errs.E(errs.NotFound, "refresh token not found") }

// Create implements auth.RefreshStore. A hash already stored is Conflict.
func (s *RefreshRepo) Create(ctx context.Context, r auth.RefreshRecord) error {
	row := fromDomainRefresh(r)
	row.UsedAt = nil // a new token is unused
	err := s.db.Gorm().WithContext(ctx).Create(&row).Error
	return sqldb.MapErr(err, "refresh token")
}

// Get implements auth.RefreshStore.
func (s *RefreshRepo) Get(ctx context.Context, h auth.TokenHash) (auth.RefreshRecord, error) {
	var row refreshRow
	err := s.db.Gorm().WithContext(ctx).Raw(`
		SELECT t.hash, t.family_id, t.user_id, t.issued_at, t.expires_at, t.used_at,
		       (r.family_id IS NOT NULL) AS revoked
		FROM refresh_tokens t
		LEFT JOIN refresh_families_revoked r ON r.family_id = t.family_id
		WHERE t.hash = ?`, h[:]).Scan(&row).Error
	if err != nil {
		return auth.RefreshRecord{}, sqldb.MapErr(err, "refresh token")
	}
	if row.Hash == nil {
		return auth.RefreshRecord{}, refreshNotFound()
	}
	return toDomainRefresh(row)
}

// MarkUsed implements auth.RefreshStore with one conditional UPDATE: the
// database, not this process, decides which of two concurrent exchanges wins.
func (s *RefreshRepo) MarkUsed(ctx context.Context, h auth.TokenHash, at time.Time) (bool, error) {
	db := s.db.Gorm().WithContext(ctx)
	res := db.Exec("UPDATE refresh_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL", sqldb.StoredTime(at), h[:])
	if res.Error != nil {
		return false, sqldb.MapErr(res.Error, "refresh token")
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	var n int64
	if err := db.Model(&refreshRow{}).Where("hash = ?", h[:]).Count(&n).Error; err != nil {
		return false, sqldb.MapErr(err, "refresh token")
	}
	if n == 0 {
		return false, refreshNotFound()
	}
	return false, nil
}

// RevokeFamily implements auth.RefreshStore. The first revocation's time is
// kept.
func (s *RefreshRepo) RevokeFamily(ctx context.Context, familyID string, at time.Time) error {
	row := revokedFamilyRow{FamilyID: familyID, RevokedAt: sqldb.StoredTime(at)}
	err := s.db.Gorm().WithContext(ctx).
		Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "family_id"}}, DoNothing: true}).
		Create(&row).Error
	return sqldb.MapErr(err, "refresh token family")
}

// RevokeUser implements auth.RefreshStore: the user's families are read,
// then revoked in one insert (a family revoked already keeps its first
// time). A token created between the two in a new family is not covered;
// the caller has already made the account unable to get one.
func (s *RefreshRepo) RevokeUser(ctx context.Context, userID int64, at time.Time) error {
	var families []string
	db := s.db.Gorm().WithContext(ctx)
	if err := db.Raw(`SELECT DISTINCT family_id FROM refresh_tokens WHERE user_id = ?`, userID).Scan(&families).Error; err != nil {
		return sqldb.MapErr(err, "refresh token family")
	}
	if len(families) == 0 {
		return nil
	}
	rows := make([]revokedFamilyRow, len(families))
	for i, f := range families {
		rows[i] = revokedFamilyRow{FamilyID: f, RevokedAt: sqldb.StoredTime(at)}
	}
	err := db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "family_id"}}, DoNothing: true}).Create(&rows).Error
	return sqldb.MapErr(err, "refresh token family")
}

// Prune deletes tokens that expired before now, then the revocations of
// families with no token left, and reports how many tokens it deleted. Call
// it now and then so the table follows live sessions.
func (s *RefreshRepo) Prune(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := s.db.Tx(ctx, func(tx *gorm.DB) error {
		res := tx.Exec("DELETE FROM refresh_tokens WHERE expires_at < ?", sqldb.StoredTime(now))
		if res.Error != nil {
			return res.Error
		}
		n = res.RowsAffected
		return tx.Exec(`DELETE FROM refresh_families_revoked
			WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family_id = refresh_families_revoked.family_id)`).Error
	})
	if err != nil {
		return 0, sqldb.MapErr(err, "refresh token")
	}
	return n, nil
}
