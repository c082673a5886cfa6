package protection

import (
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/money"
)

// Period is the span a limit and its counter cover.
type Period string

// The periods; the values are part of the API.
const (
	Day   Period = "DAY"
	Week  Period = "WEEK"
	Month Period = "MONTH"
)

// Periods lists every period in a stable order.
var Periods = []Period{Day, Week, Month}

// Valid reports whether p is a known period.
func (p Period) Valid() bool { return p == Day || p == Week || p == Month }

// Start is the first civil day of the period holding instant t in loc: t's
// own day, the Monday of its week, or the first of its month.
func (p Period) Start(t time.Time, loc *time.Location) account.Date {
	lt := t.In(loc)
	switch p {
	case Week:
		back := (int(lt.Weekday()) + 6) % 7 // days since Monday
		lt = lt.AddDate(0, 0, -back)
	case Month:
		lt = time.Date(lt.Year(), lt.Month(), 1, 12, 0, 0, 0, loc)
	}
	return account.Date{Year: lt.Year(), Month: lt.Month(), Day: lt.Day()}
}

// Counter is what one player did in one period.
type Counter struct {
	Period Period
	// Start is the period's first day (see Period.Start).
	Start    account.Date
	Deposits money.Amount
	Stakes   money.Amount
	Returns  money.Amount
}

// NetLoss is stakes minus returns (negative when the player is ahead).
func (c Counter) NetLoss() money.Amount { return c.Stakes - c.Returns }
