package usereventdb

import (
	"context"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// StoredData is the data stored for user's event seq, as written (for
// tests: the Postgres append writes the seq into it itself).
func (r *Repo) StoredData(ctx context.Context, userID, seq int64) (string, error) {
	var data []string
	err := r.db.Gorm().WithContext(ctx).Model(&eventRow{}).Where("user_id = ? AND seq = ?", userID, seq).Pluck("data", &data).Error
	if err != nil {
		return "", sqldb.MapErr(err, "user events")
	}
	if len(data) != 1 {
		return "", errs.E(errs.NotFound, "user %d has no event %d", userID, seq)
	}
	return data[0], nil
}
