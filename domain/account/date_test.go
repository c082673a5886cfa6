package account_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want account.Date
		ok   bool
	}{
		{"2001-12-31", account.Date{Year: 2001, Month: time.December, Day: 31}, true},
		{"2004-02-29", account.Date{Year: 2004, Month: time.February, Day: 29}, true},
		{"2000-02-29", account.Date{Year: 2000, Month: time.February, Day: 29}, true},
		{"0001-01-01", account.Date{Year: 1, Month: time.January, Day: 1}, true},
		{"9999-12-31", account.Date{Year: 9999, Month: time.December, Day: 31}, true},
		{"1900-02-29", account.Date{}, false},
		{"2023-02-29", account.Date{}, false},
		{"2023-04-31", account.Date{}, false},
		{"2023-13-01", account.Date{}, false},
		{"2023-00-10", account.Date{}, false},
		{"2023-01-00", account.Date{}, false},
		{"0000-01-01", account.Date{}, false},
		{"2023-1-01", account.Date{}, false},
		{"2023/01/01", account.Date{}, false},
		{"+023-01-01", account.Date{}, false},
		{"2023-01-01T00:00:00Z", account.Date{}, false},
		{" 2023-01-01", account.Date{}, false},
		{"", account.Date{}, false},
		{"２０２３-01-01", account.Date{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := account.ParseDate(tc.in)
			if tc.ok != (err == nil) {
				t.Fatalf("ParseDate(%q) error = %v, want ok=%v", tc.in, err, tc.ok)
			}
			if !tc.ok {
				if errs.ReasonOf(err) != "INVALID_DATE" || !errs.Is(err, errs.Invalid) {
					t.Fatalf("error %v, want Invalid INVALID_DATE", err)
				}
				return
			}
			if got != tc.want || got.String() != tc.in {
				t.Fatalf("ParseDate(%q) = %v (%s), want %v", tc.in, got, got, tc.want)
			}
		})
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2001-12-31", "2004-02-29", "1900-02-29", "0000-00-00", "9999-12-31", "2001-12-3x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := account.ParseDate(s)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseDate(%q): code %s, want Invalid", s, errs.CodeOf(err))
			}
			return
		}
		if !d.Valid() || d.String() != s {
			t.Fatalf("ParseDate(%q) = %v, which prints as %q", s, d, d.String())
		}
		// Agrees with the standard library's notion of a real day.
		tm, err := time.Parse(time.DateOnly, s)
		if err != nil || account.DateOf(tm, time.UTC) != d {
			t.Fatalf("time.Parse(%q) = %v, %v; ParseDate = %v", s, tm, err, d)
		}
	})
}

func TestDateCompare(t *testing.T) {
	a := account.MustParseDate("2004-02-29")
	b := account.MustParseDate("2004-03-01")
	c := account.MustParseDate("2005-01-01")
	if !a.Before(b) || !b.Before(c) || !c.After(a) || a.Compare(a) != 0 || a.After(a) {
		t.Fatal("Compare is not a date order")
	}
	if !(account.Date{}).IsZero() || (account.Date{}).Valid() || a.IsZero() {
		t.Fatal("IsZero/Valid wrong")
	}
}

func TestDateOf(t *testing.T) {
	almaty, err := account.LoadZone("")
	if err != nil {
		t.Fatal(err)
	}
	instant := time.Date(2025, 6, 14, 19, 30, 0, 0, time.UTC) // 00:30 on the 15th in Almaty (UTC+5)
	if got := account.DateOf(instant, almaty); got != account.MustParseDate("2025-06-15") {
		t.Fatalf("DateOf in Almaty = %s, want 2025-06-15", got)
	}
	if got := account.DateOf(instant, time.UTC); got != account.MustParseDate("2025-06-14") {
		t.Fatalf("DateOf in UTC = %s, want 2025-06-14", got)
	}
}

func TestDateJSON(t *testing.T) {
	var v struct{ DOB account.Date }
	if err := json.Unmarshal([]byte(`{"DOB":"2001-12-31"}`), &v); err != nil || v.DOB != account.MustParseDate("2001-12-31") {
		t.Fatalf("unmarshal: %v, %v", v, err)
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"DOB":"2001-12-31"}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"DOB":"2001-02-30"}`), &v); err == nil {
		t.Fatal("unmarshal accepted 2001-02-30")
	}
	if _, err := json.Marshal(struct{ D account.Date }{}); err == nil {
		t.Fatal("marshal accepted the zero date")
	}
}
