package protectiondb

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database protection.Store. The counters it reads
// are moved by the guard (protection_guard.go) in the money's
// transaction, never here.
type Repo struct {
	db *sqldb.DB
}

var _ protection.Store = (*Repo)(nil)

// New returns the protection store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

// limitRow is a row of protection_limits.
type limitRow struct {
	UserID        int64
	Kind          string
	Period        string
	Amount        int64
	Pending       bool
	PendingAmount int64
	PendingAt     *time.Time
	UpdatedAt     time.Time
}

func (limitRow) TableName() string { return "protection_limits" }

func toDomainLimit(r limitRow) protection.Limit {
	return protection.Limit{
		Kind: protection.LimitKind(r.Kind), Period: protection.Period(r.Period),
		Amount: money.Amount(r.Amount), Pending: r.Pending,
		PendingAmount: money.Amount(r.PendingAmount), PendingAt: sqldb.TimeOrZero(r.PendingAt),
	}
}

// exclusionRow is a row of protection_exclusions.
type exclusionRow struct {
	UserID int64
	Kind   string
	Since  time.Time
	EndsAt *time.Time
}

func (exclusionRow) TableName() string { return "protection_exclusions" }

// registerRow is a row of exclusion_register.
type registerRow struct {
	ID           int64
	DocumentHash string
	NameKey      string
	BirthDate    string
	Note         string
	AddedBy      *int64
	AddedAt      time.Time
	RemovedBy    *int64
	RemovedAt    *time.Time
}

func (registerRow) TableName() string { return "exclusion_register" }

func toDomainRegister(r registerRow) protection.RegisterEntry {
	e := protection.RegisterEntry{
		ID: r.ID, DocumentHash: r.DocumentHash, NameKey: r.NameKey, Note: r.Note,
		AddedAt: r.AddedAt.UTC(), RemovedAt: sqldb.TimeOrZero(r.RemovedAt),
	}
	if r.BirthDate != "" {
		e.DateOfBirth, _ = account.ParseDate(r.BirthDate)
	}
	if r.AddedBy != nil {
		e.AddedBy = *r.AddedBy
	}
	if r.RemovedBy != nil {
		e.RemovedBy = *r.RemovedBy
	}
	return e
}

func readLimits(tx *gorm.DB, userID int64) (protection.Limits, error) {
	var rows []limitRow
	if err := tx.Where("user_id = ?", userID).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read limits: %w", err)
	}
	out := make(protection.Limits, len(rows))
	for i, r := range rows {
		out[i] = toDomainLimit(r)
	}
	slices.SortFunc(out, func(a, b protection.Limit) int {
		if a.Kind != b.Kind {
			return slices.Index(protection.LimitKinds, a.Kind) - slices.Index(protection.LimitKinds, b.Kind)
		}
		return slices.Index(protection.Periods, a.Period) - slices.Index(protection.Periods, b.Period)
	})
	return out, nil
}

func readExclusion(tx *gorm.DB, userID int64) (protection.Exclusion, error) {
	var rows []exclusionRow
	if err := tx.Where("user_id = ?", userID).Limit(1).Find(&rows).Error; err != nil {
		return protection.Exclusion{}, fmt.Errorf("read exclusion: %w", err)
	}
	if len(rows) == 0 {
		return protection.Exclusion{}, nil
	}
	r := rows[0]
	return protection.Exclusion{Kind: protection.ExclusionKind(r.Kind), Since: r.Since.UTC(), Until: sqldb.TimeOrZero(r.EndsAt)}, nil
}

// Limits implements protection.Store.
func (r *Repo) Limits(ctx context.Context, userID int64) (protection.Limits, error) {
	ls, err := readLimits(r.db.Gorm().WithContext(ctx), userID)
	return ls, sqldb.MapErr(err, "limit")
}

// UpdateLimit implements protection.Store: the row is created if missing,
// then read FOR UPDATE, so concurrent changes of one limit queue up.
func (r *Repo) UpdateLimit(ctx context.Context, userID int64, kind protection.LimitKind, p protection.Period, fn func(protection.Limit) (protection.Limit, error)) (protection.Limit, error) {
	var out protection.Limit
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		now := sqldb.StoredTime(time.Now())
		if err := tx.Exec(`INSERT INTO protection_limits (user_id, kind, period, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (user_id, kind, period) DO NOTHING`, userID, string(kind), string(p), now).Error; err != nil {
			if sqldb.IsForeignKeyViolation(err) {
				return errs.E(errs.NotFound, "user not found")
			}
			return err
		}
		var row limitRow
		if err := tx.Raw(`SELECT * FROM protection_limits WHERE user_id = ? AND kind = ? AND period = ?`+r.db.LockSuffix(sqldb.LockExclusive),
			userID, string(kind), string(p)).Scan(&row).Error; err != nil {
			return err
		}
		cur := toDomainLimit(row)
		next, err := fn(cur)
		if err != nil {
			return err
		}
		out = next
		if err := tx.Exec(`UPDATE protection_limits SET amount = ?, pending = ?, pending_amount = ?, pending_at = ?, updated_at = ?
			WHERE user_id = ? AND kind = ? AND period = ?`,
			int64(next.Amount), next.Pending, int64(next.PendingAmount), sqldb.NullableTime(next.PendingAt), now,
			userID, string(kind), string(p)).Error; err != nil {
			return err
		}
		if sameLimit(cur, next) {
			return nil
		}
		return insertChange(tx, protection.LimitChange(userID, next, now))
	})
	if err != nil {
		return protection.Limit{}, sqldb.MapErr(err, "limit")
	}
	return out, nil
}

// Exclusion implements protection.Store.
func (r *Repo) Exclusion(ctx context.Context, userID int64) (protection.Exclusion, error) {
	e, err := readExclusion(r.db.Gorm().WithContext(ctx), userID)
	return e, sqldb.MapErr(err, "exclusion")
}

// UpdateExclusion implements protection.Store. Postgres: the user's row is
// locked first, so two requests of one player queue up even when neither
// has an exclusion row yet; then the player's wallet (holdWallet), so the
// player's stakes and deposits in flight commit before fn reads the clock,
// and later ones read the exclusion after their own lock of the wallet.
func (r *Repo) UpdateExclusion(ctx context.Context, userID int64, fn func(protection.Exclusion) (protection.Exclusion, error)) (protection.Exclusion, error) {
	var out protection.Exclusion
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		var ids []int64
		if err := tx.Raw(`SELECT id FROM users WHERE id = ?`+r.db.LockSuffix(sqldb.LockExclusive), userID).Scan(&ids).Error; err != nil {
			return err
		}
		if len(ids) == 0 {
			return errs.E(errs.NotFound, "user not found")
		}
		if err := holdWallet(r.db, tx, userID); err != nil {
			return err
		}
		cur, err := readExclusion(tx, userID)
		if err != nil {
			return err
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		out = next
		row := exclusionRow{UserID: userID, Kind: string(next.Kind), Since: sqldb.StoredTime(next.Since), EndsAt: sqldb.NullableTime(next.Until)}
		if err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "user_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"kind", "since", "ends_at"}),
		}).Create(&row).Error; err != nil {
			return err
		}
		if cur.Kind == next.Kind && cur.Since.Equal(next.Since) && cur.Until.Equal(next.Until) {
			return nil
		}
		return insertChange(tx, protection.ExclusionChange(userID, next, sqldb.StoredTime(time.Now())))
	})
	if err != nil {
		return protection.Exclusion{}, sqldb.MapErr(err, "exclusion")
	}
	out.Since, out.Until = sqldb.StoredTime(out.Since), zeroOrStored(out.Until)
	return out, nil
}

func zeroOrStored(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return sqldb.StoredTime(t)
}

// Counters implements protection.Store.
func (r *Repo) Counters(ctx context.Context, userID int64, at time.Time, loc *time.Location) (protection.Counters, error) {
	c, err := ReadCounters(r.db.Gorm().WithContext(ctx), userID, at, loc, "")
	return c, sqldb.MapErr(err, "counters")
}

// AddRegisterEntries implements protection.Store.
func (r *Repo) AddRegisterEntries(ctx context.Context, entries []protection.RegisterEntry, audit account.AuditEntry) ([]protection.RegisterEntry, error) {
	out := make([]protection.RegisterEntry, len(entries))
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		for i, e := range entries {
			row := registerRow{
				DocumentHash: e.DocumentHash, NameKey: e.NameKey, Note: e.Note,
				AddedBy: sqldb.NullableID(e.AddedBy), AddedAt: sqldb.StoredTime(e.AddedAt),
			}
			if !e.DateOfBirth.IsZero() {
				row.BirthDate = e.DateOfBirth.String()
			}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
			out[i] = toDomainRegister(row)
			if err := insertChange(tx, protection.RegisterChange(out[i], false, row.AddedAt)); err != nil {
				return err
			}
			a := audit
			a.Detail = protection.RegisterDetail(out[i], audit.Detail)
			if err := accountdb.InsertAudit(tx, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "register entry")
	}
	return out, nil
}

// RemoveRegisterEntry implements protection.Store.
func (r *Repo) RemoveRegisterEntry(ctx context.Context, id, by int64, at time.Time, audit account.AuditEntry) (protection.RegisterEntry, error) {
	var out protection.RegisterEntry
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(`UPDATE exclusion_register SET removed_at = ?, removed_by = ? WHERE id = ? AND removed_at IS NULL`,
			sqldb.StoredTime(at), sqldb.NullableID(by), id)
		if res.Error != nil {
			return res.Error
		}
		var row registerRow
		if err := tx.Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		if res.RowsAffected == 0 {
			return errs.R(errs.Conflict, protection.ReasonAlreadyRemoved, "register entry %d was already removed", id)
		}
		out = toDomainRegister(row)
		if err := insertChange(tx, protection.RegisterChange(out, true, sqldb.StoredTime(at))); err != nil {
			return err
		}
		audit.Detail = protection.RegisterDetail(out, audit.Detail)
		return accountdb.InsertAudit(tx, audit)
	})
	if err != nil {
		return protection.RegisterEntry{}, sqldb.MapErr(err, "register entry")
	}
	return out, nil
}

// ListRegister implements protection.Store.
func (r *Repo) ListRegister(ctx context.Context, all bool, p account.Page) ([]protection.RegisterEntry, int64, error) {
	q := r.db.Gorm().WithContext(ctx).Order("id DESC").Limit(p.Size() + 1)
	switch {
	case p.Backward:
		q = r.db.Gorm().WithContext(ctx).Order("id").Limit(p.Size() + 1)
		if p.After > 0 {
			q = q.Where("id > ?", p.After)
		}
	case p.After > 0:
		q = q.Where("id < ?", p.After)
	}
	if !all {
		q = q.Where("removed_at IS NULL")
	}
	var rows []registerRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, 0, sqldb.MapErr(err, "register entry")
	}
	var next int64
	if len(rows) > p.Size() {
		rows = rows[:p.Size()]
		next = rows[len(rows)-1].ID
	}
	if p.Backward {
		slices.Reverse(rows)
	}
	out := make([]protection.RegisterEntry, len(rows))
	for i, row := range rows {
		out[i] = toDomainRegister(row)
	}
	return out, next, nil
}

// RegisterMatches implements protection.Store: it reads the active
// entries by one of docs or with date of birth dob (the register's partial
// indexes), and protection.RegisterNames decides.
func (r *Repo) RegisterMatches(ctx context.Context, docs []string, nameKey string, dob account.Date) (bool, error) {
	q := r.db.Gorm().WithContext(ctx).Select("document_hash", "name_key", "birth_date").Where("removed_at IS NULL")
	switch {
	case len(docs) > 0 && dob.Valid():
		q = q.Where("(document_hash <> '' AND document_hash IN ?) OR (name_key <> '' AND birth_date = ?)", docs, dob.String())
	case len(docs) > 0:
		q = q.Where("document_hash <> '' AND document_hash IN ?", docs)
	case dob.Valid():
		q = q.Where("name_key <> '' AND birth_date = ?", dob.String())
	default:
		return false, nil
	}
	var rows []registerRow
	if err := q.Find(&rows).Error; err != nil {
		return false, sqldb.MapErr(err, "register entry")
	}
	entries := make([]protection.RegisterEntry, len(rows))
	for i, row := range rows {
		entries[i] = toDomainRegister(row)
	}
	return protection.RegisterNames(entries, docs, nameKey, dob), nil
}

var _ protection.SessionStore = (*Repo)(nil)

// ActiveSessions implements protection.SessionStore.
func (r *Repo) ActiveSessions(ctx context.Context, since time.Time) ([]protection.Session, error) {
	var rows []sessionRow
	if err := r.db.Gorm().WithContext(ctx).Where("last_play_us >= ?", since.UnixMicro()).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "session")
	}
	out := make([]protection.Session, len(rows))
	for i, row := range rows {
		out[i] = toDomainSession(row)
	}
	return out, nil
}

// ClaimCheck implements protection.SessionStore with one conditional update.
func (r *Repo) ClaimCheck(ctx context.Context, s protection.Session) (bool, error) {
	res := r.db.Gorm().WithContext(ctx).Exec(`UPDATE protection_sessions SET checks = checks + 1
		WHERE user_id = ? AND session_no = ? AND checks = ?`, s.UserID, s.No, s.Checks)
	if res.Error != nil {
		return false, sqldb.MapErr(res.Error, "session")
	}
	return res.RowsAffected == 1, nil
}

// holdWallet creates the player's wallet if missing (at zero) and holds its
// row until tx ends, on Postgres (SQLite runs one transaction at a time). It
// is the lock every stake and deposit of the player takes before it reads
// the player's protection state (ledgerdb's post, totedb's PlaceBatch), so
// a change of that state made under it (an exclusion) is ordered
// with the money: a stake committed before it, or one that reads it. The
// wallet's row is the ledger's: ledgerwrite (ledgerdb's writer, below the
// guard ledgerdb imports from here) creates and locks it.
func holdWallet(db *sqldb.DB, tx *gorm.DB, userID int64) error {
	_, err := ledgerwrite.HoldAccount(tx, ledger.UserWallet(ids.UserID(userID)), db.LockSuffix(sqldb.LockExclusive))
	return err
}

// changeRow is a row of protection_changes (txid: the database's default).
type changeRow struct {
	ID           int64 `gorm:"primaryKey"`
	UserID       *int64
	DocumentHash string
	Kind         string
	Detail       string
	At           time.Time
}

// TableName names the table of changeRow for GORM.
func (changeRow) TableName() string { return "protection_changes" }

// insertChange appends c to the protection history in tx: the change's
// own transaction, so the history holds exactly what committed.
func insertChange(tx *gorm.DB, c protection.Change) error {
	detail, err := json.Marshal(c)
	if err != nil {
		return err
	}
	row := changeRow{DocumentHash: c.DocumentHash, Kind: string(c.Kind), Detail: string(detail), At: sqldb.StoredTime(c.At)}
	if c.UserID != 0 {
		row.UserID = &c.UserID
	}
	return tx.Create(&row).Error
}

func sameLimit(a, b protection.Limit) bool {
	return a.Amount == b.Amount && a.Pending == b.Pending && a.PendingAmount == b.PendingAmount && a.PendingAt.Equal(b.PendingAt)
}

// RecordHit implements protection.Store.
func (r *Repo) RecordHit(ctx context.Context, userID int64, kind protection.LimitKind, at time.Time) error {
	err := r.db.Gorm().WithContext(ctx).Exec(`INSERT INTO protection_hits (user_id, kind, at) VALUES (?, ?, ?)`, userID, string(kind), sqldb.StoredTime(at)).Error
	return sqldb.MapErr(err, "limit hit")
}
