package report

import (
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// MaxDays bounds a report's range.
const MaxDays = 366

// The reasons of a refused range or table: part of the API
// (docs/frontend.md lists them), so a value never changes.
const (
	// ReasonBadRange refuses a range of days: not dates, from after to,
	// or over MaxDays (the message names the field).
	ReasonBadRange = "INVALID_DATE_RANGE"
	// ReasonUnknownTable refuses a report of a table that does not exist.
	ReasonUnknownTable = "UNKNOWN_TABLE"
)

// Days lists the gaming days from..to (inclusive, "YYYY-MM-DD") in loc; a
// range backwards or over MaxDays is refused.
func Days(from, to string, loc *time.Location) ([]string, error) {
	f, err := time.ParseInLocation(time.DateOnly, from, loc)
	if err != nil {
		return nil, errs.R(errs.Invalid, ReasonBadRange, "from: %q is not a date as YYYY-MM-DD", from)
	}
	t, err := time.ParseInLocation(time.DateOnly, to, loc)
	if err != nil {
		return nil, errs.R(errs.Invalid, ReasonBadRange, "to: %q is not a date as YYYY-MM-DD", to)
	}
	if t.Before(f) {
		return nil, errs.R(errs.Invalid, ReasonBadRange, "from: %s is after to (%s)", from, to)
	}
	var days []string
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		if len(days) == MaxDays {
			return nil, errs.R(errs.Invalid, ReasonBadRange, "to: a range covers at most %d days", MaxDays)
		}
		days = append(days, d.Format(time.DateOnly))
	}
	return days, nil
}

// DayOf is the gaming day of instant at in loc: the operator's calendar
// day (TIME_ZONE).
func DayOf(at time.Time, loc *time.Location) string { return at.In(loc).Format(time.DateOnly) }
