package account_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
)

func TestAgeOn(t *testing.T) {
	d := account.MustParseDate
	tests := []struct {
		name     string
		dob, day string
		want     int
	}{
		{"day before birthday", "2004-06-15", "2025-06-14", 20},
		{"on birthday", "2004-06-15", "2025-06-15", 21},
		{"day after", "2004-06-15", "2025-06-16", 21},
		{"earlier month", "2004-06-15", "2025-05-30", 20},
		{"later month", "2004-06-15", "2025-07-01", 21},
		{"leapling, Feb 28 of a common year", "2004-02-29", "2025-02-28", 20},
		{"leapling, Mar 1 of a common year", "2004-02-29", "2025-03-01", 21},
		{"leapling, Feb 29 of a leap year", "2004-02-29", "2028-02-29", 24},
		{"leapling, Feb 28 of a leap year", "2004-02-29", "2028-02-28", 23},
		{"born Mar 1, Feb 29 of a leap year", "2003-03-01", "2024-02-29", 20},
		{"born Dec 31, Jan 1", "2003-12-31", "2025-01-01", 21},
		{"day of birth", "2025-01-01", "2025-01-01", 0},
		{"before birth", "2025-01-02", "2025-01-01", 0},
		{"long before birth", "2030-01-01", "2025-01-01", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := account.AgeOn(d(tc.dob), d(tc.day)); got != tc.want {
				t.Fatalf("AgeOn(%s, %s) = %d, want %d", tc.dob, tc.day, got, tc.want)
			}
		})
	}
}

func TestIsAdultInOperatorZone(t *testing.T) {
	almaty, err := account.LoadZone("Asia/Almaty")
	if err != nil {
		t.Fatal(err)
	}
	d := account.MustParseDate
	tests := []struct {
		name string
		dob  string
		now  time.Time
		loc  *time.Location
		want bool
	}{
		// Almaty is UTC+5 since 2024-03-01: 00:30 there is 19:30 UTC the day before.
		{"21st birthday at 00:30 Almaty, UTC still the day before", "2004-06-15", time.Date(2025, 6, 14, 19, 30, 0, 0, time.UTC), almaty, true},
		{"same instant reckoned in UTC", "2004-06-15", time.Date(2025, 6, 14, 19, 30, 0, 0, time.UTC), time.UTC, false},
		{"23:59 Almaty the evening before", "2004-06-15", time.Date(2025, 6, 14, 18, 59, 0, 0, time.UTC), almaty, false},
		{"midnight Almaty exactly", "2004-06-15", time.Date(2025, 6, 14, 19, 0, 0, 0, time.UTC), almaty, true},
		// Before 2024-03-01 Almaty was UTC+6: 00:30 was 18:30 UTC.
		{"old offset: 00:30 Almaty in 2023", "2002-06-15", time.Date(2023, 6, 14, 18, 30, 0, 0, time.UTC), almaty, true},
		{"old offset: 23:30 Almaty in 2023", "2002-06-15", time.Date(2023, 6, 14, 17, 30, 0, 0, time.UTC), almaty, false},
		{"leapling on Feb 28 of a common year", "2004-02-29", time.Date(2025, 2, 28, 12, 0, 0, 0, time.UTC), almaty, false},
		{"leapling on Mar 1 Almaty, UTC still Feb 28", "2004-02-29", time.Date(2025, 2, 28, 19, 30, 0, 0, time.UTC), almaty, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := account.IsAdult(d(tc.dob), tc.now, tc.loc, 21); got != tc.want {
				t.Fatalf("IsAdult(%s, %s in %s) = %v, want %v", tc.dob, tc.now, tc.loc, got, tc.want)
			}
		})
	}
}

func TestLoadZone(t *testing.T) {
	if loc, err := account.LoadZone(""); err != nil || loc.String() != account.DefaultZone {
		t.Fatalf("LoadZone(\"\") = %v, %v", loc, err)
	}
	if _, err := account.LoadZone("Mars/Olympus_Mons"); err == nil {
		t.Fatal("LoadZone accepted an unknown zone")
	}
}
