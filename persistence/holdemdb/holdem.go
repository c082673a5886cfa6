package holdemdb

import (
	"context"
	"github.com/pokertote/pokertote/domain/paging"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database holdem.Store: Casino Hold'em hands and pending
// seeds, with ledger posts in the same transaction as the hand's rows.
type Repo struct {
	db     *sqldb.DB
	ledger *ledgerdb.Repo
}

var _ holdem.Store = (*Repo)(nil)

// New returns the Casino Hold'em store on db, posting money through
// led inside its transactions.
func New(db *sqldb.DB, led *ledgerdb.Repo) *Repo {
	return &Repo{db: db, ledger: led}
}

func holdemHandNotFound() error {
	return errs.R(errs.NotFound, holdem.ReasonHandNotFound, "there is no such hand of yours")
}

func noPendingSeed() error {
	return errs.R(errs.NotFound, holdem.ReasonNoPendingSeed, "no such pending shuffle")
}

// holdemErr maps a driver error of a hand query onto a domain error.
func holdemErr(err error) error {
	return sqldb.MapErr(err, "casino hold'em hand", sqldb.NotFound(holdemHandNotFound()))
}

// Within implements holdem.Store. The transaction is retried as a whole
// after a Postgres serialization failure or deadlock.
func (r *Repo) Within(ctx context.Context, fn func(ctx context.Context, tx holdem.Tx) error) error {
	return sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		return fn(ctx, &holdemTx{repo: r, tx: tx.WithContext(ctx)})
	})
}

func (r *Repo) gorm(ctx context.Context) *gorm.DB { return r.db.Gorm().WithContext(ctx) }

func takeHand(q *gorm.DB) (holdem.Record, error) {
	var row holdemHandRow
	if err := q.Take(&row).Error; err != nil {
		return holdem.Record{}, holdemErr(err)
	}
	rec, err := toDomainHoldemHand(row)
	if err != nil {
		return holdem.Record{}, errs.Wrap(err, "a stored hand is unreadable")
	}
	return rec, nil
}

// Hand implements holdem.Store.
func (r *Repo) Hand(ctx context.Context, id int64) (holdem.Record, error) {
	rd, done := r.db.Reader(ctx)
	defer done()
	return takeHand(rd.Where("id = ?", id))
}

// HandByStartKey implements holdem.Store.
func (r *Repo) HandByStartKey(ctx context.Context, userID ids.UserID, key string) (holdem.Record, error) {
	return takeHand(r.gorm(ctx).Where("user_id = ? AND start_key = ?", int64(userID), key))
}

// Hands implements holdem.Store.
func (r *Repo) Hands(ctx context.Context, userID ids.UserID, rg paging.IDRange, limit int) ([]holdem.Record, error) {
	rd, done := r.db.Reader(ctx)
	defer done()
	q := rd.Where("user_id = ?", int64(userID))
	if rg.Before > 0 {
		q = q.Where("id < ?", rg.Before)
	}
	if rg.After > 0 {
		q = q.Where("id > ?", rg.After)
	}
	order := "id DESC"
	if rg.Ascending {
		order = "id"
	}
	var rows []holdemHandRow
	if err := q.Order(order).Limit(limit).Find(&rows).Error; err != nil {
		return nil, holdemErr(err)
	}
	out := make([]holdem.Record, 0, len(rows))
	for _, row := range rows {
		rec, err := toDomainHoldemHand(row)
		if err != nil {
			return nil, errs.Wrap(err, "a stored hand is unreadable")
		}
		out = append(out, rec)
	}
	return out, nil
}

// Due implements holdem.Store.
func (r *Repo) Due(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := r.gorm(ctx).Model(&holdemHandRow{}).
		Where("state = ? AND deadline <= ?", string(holdem.Deciding), sqldb.StoredTime(now)).
		Order("deadline").Limit(limit).Pluck("id", &ids).Error
	if err != nil {
		return nil, holdemErr(err)
	}
	return ids, nil
}

// PendingSeed implements holdem.Store.
func (r *Repo) PendingSeed(ctx context.Context, userID ids.UserID) (holdem.PendingSeed, error) {
	var row holdemPendingSeedRow
	if err := r.gorm(ctx).Where("user_id = ?", int64(userID)).Take(&row).Error; err != nil {
		return holdem.PendingSeed{}, sqldb.MapErr(err, "pending shuffle", sqldb.NotFound(noPendingSeed()))
	}
	p, err := toDomainPendingSeed(row)
	if err != nil {
		return holdem.PendingSeed{}, errs.Wrap(err, "a pending shuffle is unreadable")
	}
	return p, nil
}

// AddPendingSeed implements holdem.Store.
func (r *Repo) AddPendingSeed(ctx context.Context, p holdem.PendingSeed) (holdem.PendingSeed, error) {
	row := fromDomainPendingSeed(p)
	err := r.gorm(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "user_id"}}, DoNothing: true}).Create(&row).Error
	if err != nil {
		return holdem.PendingSeed{}, sqldb.MapErr(err, "pending shuffle")
	}
	return r.PendingSeed(ctx, p.UserID)
}

// holdemTx is the holdem.Tx of one Repo transaction.
type holdemTx struct {
	repo *Repo
	tx   *gorm.DB
}

func (t *holdemTx) Ledger() ledger.Poster { return t.repo.ledger.Poster(t.tx) }

func (t *holdemTx) HandByStartKey(_ context.Context, userID ids.UserID, key string) (holdem.Record, error) {
	return takeHand(t.tx.Where("user_id = ? AND start_key = ?", int64(userID), key))
}

func (t *holdemTx) InsertHand(_ context.Context, r *holdem.Record) error {
	r.Version = 1
	row, err := fromDomainHoldemHand(*r)
	if err != nil {
		return errs.Wrap(err, "the hand could not be stored")
	}
	row.ID = 0
	// ON CONFLICT DO NOTHING keeps the transaction usable on Postgres.
	res := t.tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "user_id"}, {Name: "start_key"}}, DoNothing: true}).Create(&row)
	if res.Error != nil {
		return holdemErr(res.Error)
	}
	if res.RowsAffected == 0 {
		return errs.R(errs.Conflict, holdem.ReasonAlreadyExists, "a hand with this idempotency key already exists")
	}
	r.ID = row.ID
	return nil
}

func (t *holdemTx) LockHand(_ context.Context, id int64) (holdem.Record, error) {
	return takeHand(t.tx.Clauses(t.repo.db.LockRows(sqldb.LockExclusive)...).Where("id = ?", id))
}

func (t *holdemTx) UpdateHand(_ context.Context, r *holdem.Record) error {
	next := *r
	next.Version++
	row, err := fromDomainHoldemHand(next)
	if err != nil {
		return errs.Wrap(err, "the hand could not be stored")
	}
	res := t.tx.Model(&holdemHandRow{}).Where("id = ? AND version = ?", r.ID, r.Version).Updates(map[string]any{
		"state":      row.State,
		"version":    row.Version,
		"deadline":   row.Deadline,
		"decisions":  row.Decisions,
		"expired_at": row.ExpiredAt,
		"staked":     row.Staked,
		"returned":   row.Returned,
		"settlement": row.Settlement,
		"updated_at": row.UpdatedAt,
		"settled_at": row.SettledAt,
	})
	if res.Error != nil {
		return holdemErr(res.Error)
	}
	if res.RowsAffected == 0 {
		return errs.R(errs.Conflict, holdem.ReasonHandChanged, "the hand changed meanwhile; try again")
	}
	r.Version = next.Version
	return nil
}

func (t *holdemTx) TakePendingSeed(_ context.Context, userID ids.UserID, commitment [cards.SeedSize]byte) (holdem.PendingSeed, error) {
	var row holdemPendingSeedRow
	if err := t.tx.Where("user_id = ? AND commitment = ?", int64(userID), cards.FormatCommitment(commitment)).Take(&row).Error; err != nil {
		return holdem.PendingSeed{}, sqldb.MapErr(err, "pending shuffle", sqldb.NotFound(noPendingSeed()))
	}
	res := t.tx.Where("user_id = ? AND commitment = ?", int64(userID), row.Commitment).Delete(&holdemPendingSeedRow{})
	if res.Error != nil {
		return holdem.PendingSeed{}, sqldb.MapErr(res.Error, "pending shuffle")
	}
	if res.RowsAffected != 1 {
		return holdem.PendingSeed{}, noPendingSeed()
	}
	p, err := toDomainPendingSeed(row)
	if err != nil {
		return holdem.PendingSeed{}, errs.Wrap(err, "a pending shuffle is unreadable")
	}
	return p, nil
}
