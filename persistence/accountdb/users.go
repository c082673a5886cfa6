package accountdb

import (
	"context"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// UserRepo is the database account.UserStore: users, their age
// verifications and the admin audit log (audit.go).
type UserRepo struct {
	db  *sqldb.DB
	now func() time.Time
}

var _ account.UserStore = (*UserRepo)(nil)

// NewUserRepo returns the user store on db.
func NewUserRepo(db *sqldb.DB) *UserRepo { return &UserRepo{db: db, now: time.Now} }

// SetClock sets the clock that stamps new users and audit entries given
// without a time (tests).
func (r *UserRepo) SetClock(now func() time.Time) { r.now = now }

// userRow is a row of users.
type userRow struct {
	ID           int64
	Email        string
	Name         string
	DateOfBirth  sqlDate
	Role         string
	PasswordHash string
	Verification string
	CreatedAt    time.Time
	// DisabledAt and DisabledReason: migration 00200.
	DisabledAt     *time.Time
	DisabledReason string
}

// TableName names the table of userRow for GORM.
func (userRow) TableName() string { return "users" }

func fromDomainUser(u account.User) userRow {
	return userRow{
		ID:           u.ID,
		Email:        u.Email,
		Name:         u.Name,
		DateOfBirth:  sqlDate(u.DateOfBirth),
		Role:         string(u.Role),
		PasswordHash: u.PasswordHash,
		Verification: string(u.Verification),
		CreatedAt:    sqldb.StoredTime(u.CreatedAt),
	}
}

func toDomainUser(r userRow) account.User {
	return account.User{
		ID:             r.ID,
		Email:          r.Email,
		Name:           r.Name,
		DateOfBirth:    account.Date(r.DateOfBirth),
		Role:           account.Role(r.Role),
		PasswordHash:   r.PasswordHash,
		CreatedAt:      r.CreatedAt.UTC(),
		Verification:   account.VerificationStatus(r.Verification),
		DisabledAt:     utcPtr(r.DisabledAt),
		DisabledReason: r.DisabledReason,
	}
}

// utcPtr is t in UTC (nil stays nil).
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// verificationRow is a row of verifications.
type verificationRow struct {
	ID           int64
	UserID       int64
	Status       string
	DocumentType string
	DocumentHash string
	DocumentHint string
	DateOfBirth  sqlDate
	Reason       string
	SubmittedAt  time.Time
	DecidedAt    *time.Time
	DecidedBy    *int64
}

// TableName names the table of verificationRow for GORM.
func (verificationRow) TableName() string { return "verifications" }

func fromDomainVerification(v account.Verification) verificationRow {
	return verificationRow{
		ID:           v.ID,
		UserID:       v.UserID,
		Status:       string(v.Status),
		DocumentType: string(v.DocumentType),
		DocumentHash: v.DocumentHash,
		DateOfBirth:  sqlDate(v.DateOfBirth),
		Reason:       v.Reason,
		SubmittedAt:  sqldb.StoredTime(v.SubmittedAt),
		DecidedAt:    sqldb.NullableTime(v.DecidedAt),
		DecidedBy:    sqldb.NullableID(v.DecidedBy),
	}
}

func toDomainVerification(r verificationRow) account.Verification {
	return account.Verification{
		ID:           r.ID,
		UserID:       r.UserID,
		DocumentType: account.DocumentType(r.DocumentType),
		DocumentHash: r.DocumentHash,
		DateOfBirth:  account.Date(r.DateOfBirth),
		Status:       account.VerificationStatus(r.Status),
		Reason:       r.Reason,
		SubmittedAt:  r.SubmittedAt.UTC(),
		DecidedAt:    sqldb.TimeOrZero(r.DecidedAt),
		DecidedBy:    sqldb.IDOrZero(r.DecidedBy),
	}
}

func userNotFound() error { return errs.E(errs.NotFound, "user not found") }

func verificationNotFound() error { return errs.E(errs.NotFound, "verification not found") }

func verificationChanged(msg string) error {
	return errs.R(errs.Conflict, account.ReasonVerificationChanged, "%s", msg)
}

// Create implements account.UserStore.
func (r *UserRepo) Create(ctx context.Context, u account.User) (account.User, error) {
	row := r.newUserRow(u)
	if err := r.db.Gorm().WithContext(ctx).Create(&row).Error; err != nil {
		return account.User{}, sqldb.MapErr(err, "user", sqldb.Conflict("EMAIL_TAKEN", "an account with this email already exists"))
	}
	return toDomainUser(row), nil
}

// newUserRow is the row Create inserts for u: no id yet, NONE for no
// verification, and the store's clock for no creation time.
func (r *UserRepo) newUserRow(u account.User) userRow {
	if u.Verification == "" {
		u.Verification = account.NotSubmitted
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = r.now()
	}
	row := fromDomainUser(u)
	row.ID = 0
	return row
}

// termsRow is a row of terms_acceptances.
type termsRow struct {
	UserID     int64
	Version    string
	AcceptedAt time.Time
}

// TableName names the table of termsRow for GORM.
func (termsRow) TableName() string { return "terms_acceptances" }

// CreateAccepting implements account.UserStore: the user and their
// acceptance of the terms in one transaction.
func (r *UserRepo) CreateAccepting(ctx context.Context, u account.User, terms string) (account.User, error) {
	row := r.newUserRow(u)
	err := r.db.Tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return tx.Create(&termsRow{UserID: row.ID, Version: terms, AcceptedAt: row.CreatedAt}).Error
	})
	if err != nil {
		return account.User{}, sqldb.MapErr(err, "user", sqldb.Conflict("EMAIL_TAKEN", "an account with this email already exists"))
	}
	return toDomainUser(row), nil
}

// AcceptTerms implements account.UserStore: an insert that a taken
// (user, version) leaves as it was, then the stored time.
func (r *UserRepo) AcceptTerms(ctx context.Context, userID int64, version string, at time.Time) (time.Time, error) {
	db := r.db.Gorm().WithContext(ctx)
	err := db.Exec(`INSERT INTO terms_acceptances (user_id, version, accepted_at) VALUES (?, ?, ?) ON CONFLICT (user_id, version) DO NOTHING`,
		userID, version, sqldb.StoredTime(at)).Error
	if err != nil {
		return time.Time{}, sqldb.MapErr(err, "terms acceptance")
	}
	return r.TermsAccepted(ctx, userID, version)
}

// TermsAccepted implements account.UserStore.
func (r *UserRepo) TermsAccepted(ctx context.Context, userID int64, version string) (time.Time, error) {
	var row termsRow
	if err := r.db.Gorm().WithContext(ctx).Where("user_id = ? AND version = ?", userID, version).Take(&row).Error; err != nil {
		return time.Time{}, sqldb.MapErr(err, "terms acceptance")
	}
	return row.AcceptedAt.UTC(), nil
}

// ByEmail implements account.UserStore. The comparison is exact; the
// lower(email) condition only lets the query use the unique index.
func (r *UserRepo) ByEmail(ctx context.Context, email string) (account.User, error) {
	var row userRow
	if err := r.db.Gorm().WithContext(ctx).Where("lower(email) = lower(?) AND email = ?", email, email).Take(&row).Error; err != nil {
		return account.User{}, sqldb.MapErr(err, "user", sqldb.NotFound(userNotFound()))
	}
	return toDomainUser(row), nil
}

// Search implements account.UserStore. The text is matched as a
// substring (LIKE's wildcards in it are escaped).
func (r *UserRepo) Search(ctx context.Context, text, documentHash string, limit int) ([]account.User, error) {
	like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(text) + "%"
	var rows []userRow
	err := r.db.Gorm().WithContext(ctx).
		Where(`lower(email) LIKE lower(?) ESCAPE '\' OR lower(name) LIKE lower(?) ESCAPE '\' OR name LIKE ? ESCAPE '\'
			OR id IN (SELECT user_id FROM verifications WHERE status = 'APPROVED' AND document_hash = ? AND ? <> '')`,
			like, like, like, documentHash, documentHash).
		Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "users")
	}
	out := make([]account.User, len(rows))
	for i, row := range rows {
		out[i] = toDomainUser(row)
	}
	return out, nil
}

// ByIDs implements account.UserStore: one query for many users.
func (r *UserRepo) ByIDs(ctx context.Context, ids []int64) ([]account.User, error) {
	var rows []userRow
	if err := r.db.Gorm().WithContext(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "users")
	}
	out := make([]account.User, len(rows))
	for i, row := range rows {
		out[i] = toDomainUser(row)
	}
	return out, nil
}

// ByID implements account.UserStore.
func (r *UserRepo) ByID(ctx context.Context, id int64) (account.User, error) {
	var row userRow
	if err := r.db.Gorm().WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return account.User{}, sqldb.MapErr(err, "user", sqldb.NotFound(userNotFound()))
	}
	return toDomainUser(row), nil
}

// SetPasswordHash implements account.UserStore.
func (r *UserRepo) SetPasswordHash(ctx context.Context, userID int64, hash string) error {
	res := r.db.Gorm().WithContext(ctx).Exec("UPDATE users SET password_hash = ? WHERE id = ?", hash, userID)
	if res.Error != nil {
		return sqldb.MapErr(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return userNotFound()
	}
	return nil
}

// SetRole implements account.UserStore: the role changes and the audit
// entry is appended in one transaction.
func (r *UserRepo) SetRole(ctx context.Context, userID int64, role account.Role, audit account.AuditEntry) (account.User, error) {
	return r.changeUser(ctx, userID, audit, "UPDATE users SET role = ? WHERE id = ?", string(role), userID)
}

// SetDisabled implements account.UserStore: the account's disabled state
// changes and the audit entry is appended in one transaction.
func (r *UserRepo) SetDisabled(ctx context.Context, userID int64, at *time.Time, reason string, audit account.AuditEntry) (account.User, error) {
	if at == nil {
		reason = ""
	} else {
		st := sqldb.StoredTime(*at)
		at = &st
	}
	return r.changeUser(ctx, userID, audit, "UPDATE users SET disabled_at = ?, disabled_reason = ? WHERE id = ?", at, reason, userID)
}

// changeUser runs an admin's change of one user's row (update, which must
// hit the row, else NotFound) with its audit entry in one transaction, and
// returns the user as stored.
func (r *UserRepo) changeUser(ctx context.Context, userID int64, audit account.AuditEntry, update string, args ...any) (account.User, error) {
	var row userRow
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		res := tx.Exec(update, args...)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return userNotFound()
		}
		if _, err := r.appendAudit(tx, audit); err != nil {
			return err
		}
		return tx.Where("id = ?", userID).Take(&row).Error
	})
	if err != nil {
		return account.User{}, sqldb.MapErr(err, "user")
	}
	return toDomainUser(row), nil
}

// Verification implements account.UserStore.
func (r *UserRepo) Verification(ctx context.Context, userID int64) (account.Verification, error) {
	var row verificationRow
	if err := r.db.Gorm().WithContext(ctx).Where("user_id = ?", userID).Order("id DESC").Limit(1).Take(&row).Error; err != nil {
		return account.Verification{}, sqldb.MapErr(err, "verification", sqldb.NotFound(verificationNotFound()))
	}
	return toDomainVerification(row), nil
}

// VerificationByID implements account.UserStore.
func (r *UserRepo) VerificationByID(ctx context.Context, id int64) (account.Verification, error) {
	var row verificationRow
	if err := r.db.Gorm().WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return account.Verification{}, sqldb.MapErr(err, "verification", sqldb.NotFound(verificationNotFound()))
	}
	return toDomainVerification(row), nil
}

// SaveVerification implements account.UserStore. Its first statement is a
// conditional update of the user's status (WHERE verification = From): it
// both checks From and locks the user's row, so of two admins deciding at
// once the second waits, then finds the status changed and gets Conflict.
func (r *UserRepo) SaveVerification(ctx context.Context, c account.VerificationChange) (account.Verification, error) {
	var saved verificationRow
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		row := fromDomainVerification(c.Verification)
		res := tx.Exec("UPDATE users SET verification = ? WHERE id = ? AND verification = ?", row.Status, row.UserID, string(c.From))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			var n int64
			if err := tx.Model(&userRow{}).Where("id = ?", row.UserID).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return userNotFound()
			}
			return verificationChanged("the verification changed meanwhile; reload and try again")
		}
		if row.ID == 0 {
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		} else if err := updateLatestVerification(tx, row); err != nil {
			return err
		}
		if c.Audit != nil {
			if _, err := r.appendAudit(tx, *c.Audit); err != nil {
				return err
			}
		}
		saved = row
		return nil
	})
	if err != nil {
		return account.Verification{}, sqldb.MapErr(err, "verification")
	}
	return toDomainVerification(saved), nil
}

// updateLatestVerification rewrites row, which must be its user's latest
// verification, inside tx. The document hint is not part of the domain's
// Verification and is left as it is.
func updateLatestVerification(tx *gorm.DB, row verificationRow) error {
	var latest int64
	if err := tx.Raw("SELECT COALESCE(MAX(id), 0) FROM verifications WHERE user_id = ?", row.UserID).Scan(&latest).Error; err != nil {
		return err
	}
	if latest != row.ID {
		return verificationChanged("only the latest verification can change")
	}
	res := tx.Exec(`UPDATE verifications
		SET status = ?, document_type = ?, document_hash = ?, date_of_birth = ?, reason = ?,
		    submitted_at = ?, decided_at = ?, decided_by = ?
		WHERE id = ? AND user_id = ?`,
		row.Status, row.DocumentType, row.DocumentHash, row.DateOfBirth, row.Reason,
		row.SubmittedAt, row.DecidedAt, row.DecidedBy, row.ID, row.UserID)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return verificationChanged("only the latest verification can change")
	}
	return nil
}

// ListPendingVerifications implements account.UserStore: PENDING
// verifications oldest first, after the cursor p.After.
func (r *UserRepo) ListPendingVerifications(ctx context.Context, p account.Page) ([]account.Verification, int64, error) {
	size := p.Size()
	var rows []verificationRow
	q := r.db.Gorm().WithContext(ctx).Where("status = 'PENDING' AND id > ?", max(p.After, 0)).Order("id") // a literal, to match the partial index
	if p.Backward {
		q = r.db.Gorm().WithContext(ctx).Where("status = 'PENDING'").Order("id DESC")
		if p.After > 0 {
			q = q.Where("id < ?", p.After)
		}
	}
	if err := q.Limit(size + 1).Find(&rows).Error; err != nil {
		return nil, 0, sqldb.MapErr(err, "verification")
	}
	var next int64
	if len(rows) > size {
		rows = rows[:size]
		next = rows[size-1].ID
	}
	if p.Backward {
		slices.Reverse(rows)
	}
	out := make([]account.Verification, len(rows))
	for i, row := range rows {
		out[i] = toDomainVerification(row)
	}
	return out, next, nil
}

// AdminEmails implements account.UserStore.
func (r *UserRepo) AdminEmails(ctx context.Context) ([]string, error) {
	var out []string
	if err := r.db.Gorm().WithContext(ctx).Raw(`SELECT email FROM users WHERE role = 'ADMIN'`).Scan(&out).Error; err != nil {
		return nil, sqldb.MapErr(err, "user")
	}
	return out, nil
}
