package account

import (
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// Date is a civil calendar date with no time of day and no zone, such as a
// date of birth. It is used instead of a time.Time at midnight because a
// midnight instant silently moves to the previous or next day when it is
// viewed in another zone (or stored by a driver that converts to UTC); a Date
// cannot. The zero Date is not a valid date.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate reads a date written exactly as YYYY-MM-DD ("2001-12-31"), year
// 0001 to 9999, and checks that the day exists (2023-02-29 does not).
// Anything else is an Invalid error with reason INVALID_DATE.
func ParseDate(s string) (Date, error) {
	bad := func() (Date, error) {
		return Date{}, errs.R(errs.Invalid, ReasonInvalidDate, "%q is not a date: write it as YYYY-MM-DD, like 2001-12-31", truncate(s, 40))
	}
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return bad()
	}
	y, ok1 := atoi(s[0:4])
	m, ok2 := atoi(s[5:7])
	d, ok3 := atoi(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return bad()
	}
	date := Date{Year: y, Month: time.Month(m), Day: d}
	if !date.Valid() {
		return bad()
	}
	return date, nil
}

// MustParseDate is ParseDate for constants in tests and examples; it panics
// on a bad date.
func MustParseDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func atoi(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// DateOf is the calendar date of the instant t in loc: DateOf of
// 2025-06-14T19:30Z in Asia/Almaty (UTC+5) is 2025-06-15.
func DateOf(t time.Time, loc *time.Location) Date {
	y, m, d := t.In(loc).Date()
	return Date{Year: y, Month: m, Day: d}
}

// Valid reports whether d is a real day between 0001-01-01 and 9999-12-31.
func (d Date) Valid() bool {
	if d.Year < 1 || d.Year > 9999 || d.Month < time.January || d.Month > time.December || d.Day < 1 {
		return false
	}
	return d.Day <= daysIn(d.Year, d.Month)
}

func daysIn(year int, m time.Month) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String formats d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmpInt(d.Year, e.Year)
	case d.Month != e.Month:
		return cmpInt(int(d.Month), int(e.Month))
	}
	return cmpInt(d.Day, e.Day)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// MarshalText encodes d as YYYY-MM-DD (for JSON and database drivers).
func (d Date) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, errs.R(errs.Invalid, ReasonInvalidDate, "cannot encode invalid date %s", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText decodes a YYYY-MM-DD date, as ParseDate.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
