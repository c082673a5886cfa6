package sqldb

import "time"

// Column conversions every repository shares: times as the database keeps
// them and nullable columns.

// StoredTime is t as the database keeps it: UTC, to the microsecond (the
// precision of a Postgres TIMESTAMPTZ), so a value read back equals the one
// returned when it was written, on both dialects.
func StoredTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// NullableTime is t for a nullable column: nil for the zero time.
func NullableTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	st := StoredTime(t)
	return &st
}

// TimeOrZero reads a nullable column back: the zero time for NULL.
func TimeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// NullableID is id for a nullable reference column: nil for 0.
func NullableID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// IDOrZero reads a nullable reference column back: 0 for NULL.
func IDOrZero(id *int64) int64 {
	if id == nil {
		return 0
	}
	return *id
}
