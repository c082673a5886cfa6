// Package model holds the GraphQL-facing types: the generated models and the
// hand-written scalars that carry money and dates across the API as strings.
package model

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// Money is an amount in tiyn that crosses the API as a tenge string with two
// decimals ("100.00"): GraphQL Int is 32-bit and Float is inexact.
type Money money.Amount

// MarshalGQL writes the amount as a quoted decimal string.
func (m Money) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(money.Amount(m).String()))
}

// UnmarshalGQL reads a decimal string; numbers are refused so that no client
// sends a float by accident.
func (m *Money) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errs.R(errs.Invalid, money.ReasonInvalidAmount, "money must be a string like \"100.00\", got %v", v)
	}
	a, err := money.ParseAmount(s)
	if err != nil {
		return err
	}
	*m = Money(a)
	return nil
}

// Coefficient is a pari-mutuel coefficient in hundredths, on the wire "1.10".
type Coefficient money.Coef

// MarshalGQL writes the coefficient as a quoted decimal string.
func (c Coefficient) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(money.Coef(c).String()))
}

// UnmarshalGQL reads a decimal string.
func (c *Coefficient) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errs.R(errs.Invalid, money.ReasonInvalidCoefficient, "a coefficient must be a string like \"1.10\", got %v", v)
	}
	k, err := money.ParseCoef(s)
	if err != nil {
		return err
	}
	*c = Coefficient(k)
	return nil
}

// Date is a calendar date without a time zone, on the wire "YYYY-MM-DD".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate reads "YYYY-MM-DD" and refuses dates that do not exist.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, errs.R(errs.Invalid, account.ReasonInvalidDate, "%q is not a date: write YYYY-MM-DD", s)
	}
	return Date{t.Year(), t.Month(), t.Day()}, nil
}

// String formats the date as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// MarshalGQL writes the date as a quoted string.
func (d Date) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(d.String())) }

// UnmarshalGQL reads "YYYY-MM-DD".
func (d *Date) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errs.R(errs.Invalid, account.ReasonInvalidDate, "a date must be a string YYYY-MM-DD, got %v", v)
	}
	p, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// Percent is a percentage in basis points (hundredths of a percent), on the
// wire a string with two decimals: "3.00".
type Percent money.BasisPoints

// MarshalGQL writes the percentage as a quoted decimal string.
func (p Percent) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(money.Amount(p).String()))
}

// UnmarshalGQL reads a decimal string from 0.00 to 100.00.
func (p *Percent) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errs.R(errs.Invalid, ReasonInvalidPercent, "a percentage must be a string like \"3.00\"")
	}
	a, err := money.ParseAmount(s)
	if err != nil || a < 0 || a > 100*money.KZT {
		return errs.R(errs.Invalid, ReasonInvalidPercent, "a percentage is a string from \"0.00\" to \"100.00\"")
	}
	*p = Percent(a)
	return nil
}
