// Package paging is the one page-size rule of every listing: a client asks
// for first = 1 to Max items, Default when it does not say; services and
// stores clamp what they are given to the same bounds (a store's to
// StoreMax, which leaves room for the one extra row a service reads to tell
// whether a next page exists).
package paging

import "github.com/pokertote/pokertote/domain/errs"

// The page sizes.
const (
	// Default is the size of a page whose size was not given.
	Default = 50
	// Max is the largest page a client may ask for.
	Max = 100
	// StoreMax is the largest page a store hands out.
	StoreMax = 2 * Max
)

// ReasonInvalidPageSize is the reason of a first outside 1..Max.
const ReasonInvalidPageSize = "INVALID_PAGE_SIZE"

// First checks the page size a client asked for: Default when first is
// nil, BAD_USER_INPUT / INVALID_PAGE_SIZE unless it is 1 to Max.
func First(first *int) (int, error) {
	if first == nil {
		return Default, nil
	}
	if *first < 1 || *first > Max {
		return *first, errs.R(errs.Invalid, ReasonInvalidPageSize, "first must be 1 to %d", Max)
	}
	return *first, nil
}

// Last checks the size of a backward page (Relay's last) as First does
// first: Default when last is nil, BAD_USER_INPUT / INVALID_PAGE_SIZE
// unless it is 1 to Max.
func Last(last *int) (int, error) {
	if last == nil {
		return Default, nil
	}
	if *last < 1 || *last > Max {
		return *last, errs.R(errs.Invalid, ReasonInvalidPageSize, "last must be 1 to %d", Max)
	}
	return *last, nil
}

// IDRange bounds a listing ordered by a unique, increasing id: the ids
// strictly between After and Before (0: no bound on that side), read in
// ascending order of id when Ascending, else descending. A backward page
// of a newest-first listing is the ascending read above its cursor.
type IDRange struct {
	After, Before int64
	Ascending     bool
}

// Holds tells whether id is inside the range's bounds.
func (r IDRange) Holds(id int64) bool {
	return (r.After <= 0 || id > r.After) && (r.Before <= 0 || id < r.Before)
}

// Size clamps a page size already inside the domain: Default when limit is
// 0 or less, max when it is larger than max.
func Size(limit, max int) int {
	switch {
	case limit <= 0:
		return Default
	case limit > max:
		return max
	}
	return limit
}
