package graph

import (
	"strconv"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/graph/model"
)

// The conversions every resolver uses: ids, money, optional values and the
// nullable lookup. Each resolver file keeps only the conversions of its own
// part of the schema (tote_convert.go, holdem_convert.go, ...).

// id is the schema's ID of a domain id.
func id(n int64) string { return strconv.FormatInt(n, 10) }

// parseID reads a numeric id of the thing named by noun ("draw", "user",
// ...); anything else is BAD_USER_INPUT with reason INVALID_ID.
func parseID(s, noun string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.R(errs.Invalid, ReasonInvalidID, "%q is not a %s id", s, noun)
	}
	return n, nil
}

// moneyOf is the domain amount of a Money scalar.
func moneyOf(m model.Money) money.Amount { return money.Amount(m) }

// moneyPtr is an optional Money of a domain amount.
func moneyPtr(a money.Amount) *model.Money {
	m := model.Money(a)
	return &m
}

// ptrTo is a pointer to a copy of v (an optional field's value).
func ptrTo[T any](v T) *T { return &v }

// deref is an optional string's value, "" when absent.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// optionalString is null for "" and the string otherwise.
func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// nonZero is null for v's zero value and v otherwise (an optional field
// the domain leaves at zero when it does not apply).
func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// orEmpty answers a non-null list: nil becomes empty.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// nullIfNotFound finishes a lookup behind a nullable field: NOT_FOUND is
// answered with null (the schema's "no such thing"), any other error is
// passed on, and a found value is converted.
func nullIfNotFound[T, M any](v T, err error, convert func(T) (*M, error)) (*M, error) {
	if errs.Is(err, errs.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return convert(v)
}
