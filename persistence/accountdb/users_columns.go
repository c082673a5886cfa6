package accountdb

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
