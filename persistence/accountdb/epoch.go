package accountdb

import (
	"context"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

var _ auth.EpochStore = (*UserRepo)(nil)

// TokenEpoch implements auth.EpochStore.
func (r *UserRepo) TokenEpoch(ctx context.Context, userID int64) (int64, error) {
	var epochs []int64
	if err := r.db.Gorm().WithContext(ctx).Raw(`SELECT token_epoch FROM users WHERE id = ?`, userID).Scan(&epochs).Error; err != nil {
		return 0, sqldb.MapErr(err, "user")
	}
	if len(epochs) == 0 {
		return 0, userNotFound()
	}
	return epochs[0], nil
}

// BumpTokenEpoch implements auth.EpochStore.
func (r *UserRepo) BumpTokenEpoch(ctx context.Context, userID int64) (int64, error) {
	var epochs []int64
	err := r.db.Gorm().WithContext(ctx).Raw(`UPDATE users SET token_epoch = token_epoch + 1 WHERE id = ? RETURNING token_epoch`, userID).Scan(&epochs).Error
	if err != nil {
		return 0, sqldb.MapErr(err, "user")
	}
	if len(epochs) == 0 {
		return 0, userNotFound()
	}
	return epochs[0], nil
}
