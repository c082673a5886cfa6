package account

import (
	"time"
	// The operator's zone must resolve even in a container without
	// /usr/share/zoneinfo; the embedded database costs about 450 KB.
	_ "time/tzdata"

	"github.com/pokertote/pokertote/domain/errs"
)

// Age defaults.
const (
	// DefaultZone is the operator's time zone unless configured otherwise.
	DefaultZone = "Asia/Almaty"
	// DefaultMinAge is the minimum age to register and to stake (SPEC §3, rule 2).
	DefaultMinAge = 21
)

// LoadZone loads the operator's time zone by IANA name ("" means
// DefaultZone). An unknown name is an Invalid error: the server refuses to
// start rather than reckon ages in the wrong zone.
func LoadZone(name string) (*time.Location, error) {
	if name == "" {
		name = DefaultZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errs.R(errs.Invalid, ReasonInvalidZone, "unknown time zone %q", name)
	}
	return loc, nil
}

// AgeOn is the age in full years on day of someone born on dob: the number
// of birthdays they have had, 0 for days before their birth.
//
// Someone born on 29 February has their birthday on 1 March in common years:
// AgeOn(2004-02-29, 2025-02-28) is 20 and AgeOn(2004-02-29, 2025-03-01) is 21.
// This is the conservative choice (the later of the two candidate days), so
// the age gate never opens a day early; it follows from comparing
// (month, day) pairs, as (2, 28) < (2, 29) < (3, 1).
func AgeOn(dob, day Date) int {
	age := day.Year - dob.Year
	if day.Month < dob.Month || (day.Month == dob.Month && day.Day < dob.Day) {
		age--
	}
	return max(age, 0)
}

// IsAdult reports whether someone born on dob is at least minAge years old at
// the instant now, reckoned on the calendar of loc (the operator's zone).
// loc must not be nil.
func IsAdult(dob Date, now time.Time, loc *time.Location, minAge int) bool {
	return AgeOn(dob, DateOf(now, loc)) >= minAge
}
