// Package money holds Pokertote's money types. Money is always an integer
// count of tiyn (1 KZT = 100 tiyn); coefficients are exact decimals with two
// places; rates are basis points. No float ever touches money.
package money

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// Amount is a sum of money in tiyn.
type Amount int64

// KZT is one tenge in tiyn.
const KZT Amount = 100

// Tenge is n whole tenge.
func Tenge(n int64) Amount { return Amount(n) * KZT }

// String formats the amount as tenge with exactly two decimals ("1234.05",
// "-0.50"). This is also the wire format of the Money scalar.
func (a Amount) String() string {
	neg := a < 0
	u := uint64(a)
	if neg {
		u = -u
	}
	s := fmt.Sprintf("%d.%02d", u/100, u%100)
	if neg {
		return "-" + s
	}
	return s
}

// ParseAmount reads a tenge amount written with at most two decimals
// ("100", "100.5", "100.50", "-3.25"). Anything else, including exponents,
// spaces, more than two decimals, leading zeros ("00100.00"), a negative
// zero ("-0.00") or overflow, is an Invalid error: a money string is never
// rounded or guessed at, and each amount has one spelling of its whole
// tenge and sign.
func ParseAmount(s string) (Amount, error) {
	bad := func() (Amount, error) {
		return 0, errs.R(errs.Invalid, ReasonInvalidAmount, "%q is not an amount of money: write tenge with at most two decimals, like 150.25", s)
	}
	if s == "" || len(s) > 24 {
		return bad()
	}
	neg := false
	body := s
	if body[0] == '-' {
		neg = true
		body = body[1:]
	}
	whole, frac, hasDot := strings.Cut(body, ".")
	if whole == "" || !digits(whole) || (hasDot && (len(frac) == 0 || len(frac) > 2 || !digits(frac))) {
		return bad()
	}
	if len(whole) > 1 && whole[0] == '0' {
		return bad()
	}
	w, err := strconv.ParseUint(whole, 10, 63)
	if err != nil || w > math.MaxInt64/100 {
		return bad()
	}
	var f uint64
	if hasDot {
		f, _ = strconv.ParseUint(frac, 10, 8)
		if len(frac) == 1 {
			f *= 10
		}
	}
	v := w*100 + f
	if v > math.MaxInt64 {
		return bad()
	}
	if neg {
		if v == 0 {
			return bad()
		}
		return -Amount(v), nil
	}
	return Amount(v), nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Coef is a pari-mutuel coefficient in hundredths: 110 means 1.10.
type Coef int64

// MinCoef is the guaranteed minimum coefficient of a winning bet (1.10).
const MinCoef Coef = 110

// String formats the coefficient with two decimals ("1.10").
func (c Coef) String() string { return Amount(c).String() }

// ParseCoef reads a coefficient with at most two decimals.
func ParseCoef(s string) (Coef, error) {
	a, err := ParseAmount(s)
	if err != nil {
		return 0, errs.R(errs.Invalid, ReasonInvalidCoefficient, "%q is not a coefficient: write it with at most two decimals, like 1.85", s)
	}
	return Coef(a), nil
}

// CoefOf is num/den truncated to two decimals, 0 when den is 0.
func CoefOf(num, den Amount) Coef {
	if den <= 0 || num <= 0 {
		return 0
	}
	return Coef(MulDiv(int64(num), 100, int64(den)))
}

// Pay is floor(stake × c): what a winning stake is paid at coefficient c.
func (c Coef) Pay(stake Amount) Amount {
	return Amount(MulDiv(int64(stake), int64(c), 100))
}

// BasisPoints is a rate in hundredths of a percent: 300 is 3%, 1 is 0.01%.
type BasisPoints int64

// String formats the rate as a percentage with two decimals ("3.00").
func (r BasisPoints) String() string { return Amount(r).String() }

// Of is floor(a × r): the part of a non-negative amount a taken at rate r.
func (r BasisPoints) Of(a Amount) Amount {
	return Amount(MulDiv(int64(a), int64(r), 10000))
}

// MulDiv returns floor(a×b/c) for non-negative a, b and positive c without
// overflowing in the product. It panics on negative input or a quotient that
// does not fit in int64: both are programming errors, not user input.
func MulDiv(a, b, c int64) int64 {
	if a < 0 || b < 0 || c <= 0 {
		panic(fmt.Sprintf("money.MulDiv(%d, %d, %d): negative operand", a, b, c))
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi >= uint64(c) {
		panic(fmt.Sprintf("money.MulDiv(%d, %d, %d): overflow", a, b, c))
	}
	q, _ := bits.Div64(hi, lo, uint64(c))
	if q > math.MaxInt64 {
		panic(fmt.Sprintf("money.MulDiv(%d, %d, %d): overflow", a, b, c))
	}
	return int64(q)
}
