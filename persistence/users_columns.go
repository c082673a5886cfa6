package persistence

import (
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/account"
)

// sqlDate is a civil date as a column: DATE on Postgres, TEXT 'YYYY-MM-DD'
// on SQLite. It is written as the text 'YYYY-MM-DD' in both, so no time zone
// ever touches it, and read back from either a string or the midnight-UTC
// time.Time that pgx makes of a DATE.
type sqlDate account.Date

// Value implements driver.Valuer.
func (d sqlDate) Value() (driver.Value, error) {
	date := account.Date(d)
	if !date.Valid() {
		return nil, fmt.Errorf("persistence: invalid date %s", date)
	}
	return date.String(), nil
}

// Scan implements sql.Scanner.
func (d *sqlDate) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case time.Time:
		// pgx decodes DATE as midnight UTC of that day; take its fields as they are.
		*d = sqlDate(account.Date{Year: v.Year(), Month: v.Month(), Day: v.Day()})
		return nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("persistence: cannot read a date from %T", src)
	}
	date, err := account.ParseDate(s)
	if err != nil {
		return fmt.Errorf("persistence: stored date %q: %w", s, err)
	}
	*d = sqlDate(date)
	return nil
}

// storedTime is t as the database keeps it: UTC, to the microsecond (the
// precision of a Postgres TIMESTAMPTZ), so a value read back equals the one
// returned when it was written, on both dialects.
func storedTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// nullableTime is t for a nullable column: nil for the zero time.
func nullableTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	st := storedTime(t)
	return &st
}

// timeOrZero reads a nullable column back: the zero time for NULL.
func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// nullableID is id for a nullable reference column: nil for 0.
func nullableID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// idOrZero reads a nullable reference column back: 0 for NULL.
func idOrZero(id *int64) int64 {
	if id == nil {
		return 0
	}
	return *id
}
