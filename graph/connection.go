package graph

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/paging"
	"github.com/pokertote/pokertote/graph/model"
)

// Every paged list is a Relay cursor connection with the one page-size rule
// of domain/paging: first (or last, paging backward) is 1 to MaxPageSize,
// DefaultPageSize when absent. Cursors are opaque to clients: base64url of
// "pt:" and the position the list's store understands (an id, or a store's
// own cursor). Every list is newest (or oldest) first by a unique key, so
// any edge's cursor continues after it (after) or before it (before): a
// store reads a backward page in the opposite order from the cursor and
// hands it back in the list's order.

// Page sizes of every connection.
const (
	DefaultPageSize = paging.Default
	MaxPageSize     = paging.Max
)

const cursorPrefix = "pt:"

// pageReq is a validated page request: first/after (forward) or
// last/before (backward, Relay's cursor connections).
type pageReq struct {
	size     int
	after    string // the store's cursor, "" for the first page
	before   string // the store's cursor of a backward page, "" for the list's end
	backward bool   // last/before: the size items just before before
}

// readPageArgs checks a connection's four page arguments: first/after ask
// for the items following after, last/before for the items preceding
// before (the last ones of the list without before). A request mixing the
// two directions is BAD_USER_INPUT / PAGE_DIRECTION_CONFLICT.
func readPageArgs(first *int, after *string, last *int, before *string) (pageReq, error) {
	hasAfter, hasBefore := after != nil && *after != "", before != nil && *before != ""
	if (first != nil || hasAfter) && (last != nil || hasBefore) {
		return pageReq{}, errs.R(errs.Invalid, ReasonPageDirection, "page forward (first, after) or backward (last, before), not both at once")
	}
	if last != nil || hasBefore {
		size, err := paging.Last(last)
		p := pageReq{size: size, backward: true}
		if err != nil {
			return p, err
		}
		p.before, err = decodeCursor(before)
		return p, err
	}
	size, err := paging.First(first)
	p := pageReq{size: size}
	if err != nil {
		return p, err
	}
	p.after, err = decodeCursor(after)
	return p, err
}

// decodeCursor is the store's cursor inside an opaque one ("" for none).
func decodeCursor(c *string) (string, error) {
	if c == nil || *c == "" {
		return "", nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(*c)
	inner, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if err != nil || !ok || inner == "" {
		return "", errInvalidCursor()
	}
	return inner, nil
}

// cursor is the page's cursor: before for a backward page, else after.
func (p pageReq) cursor() string {
	if p.backward {
		return p.before
	}
	return p.after
}

// afterID is the page's cursor (before of a backward page) as an id (0
// for none).
func (p pageReq) afterID() (int64, error) {
	if p.cursor() == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(p.cursor(), 10, 64)
	if err != nil || n <= 0 {
		return 0, errInvalidCursor()
	}
	return n, nil
}

func errInvalidCursor() error {
	return errs.R(errs.Invalid, ReasonInvalidCursor, "the page cursor is not valid")
}

// encodeCursor makes a store's cursor opaque.
func encodeCursor(inner string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + inner))
}

// idCursor is the opaque cursor of the item with this id.
func idCursor(id int64) string { return encodeCursor(strconv.FormatInt(id, 10)) }

// pageInfo is the PageInfo of a page whose edges have the cursors first
// and last ("" for an empty page); more tells that the list goes on past
// the page in the direction it was read (after last forward, before first
// backward). The other side is known from the request: a page read from a
// cursor has at least that cursor's item beside it.
func (p pageReq) pageInfo(first, last string, more bool) *model.PageInfo {
	pi := &model.PageInfo{}
	if p.backward {
		pi.HasPreviousPage, pi.HasNextPage = more, p.before != ""
	} else {
		pi.HasNextPage, pi.HasPreviousPage = more, p.after != ""
	}
	if first != "" {
		pi.StartCursor = &first
	}
	if last != "" {
		pi.EndCursor = &last
	}
	return pi
}

// edgesInfo is the PageInfo of a page of edges.
func edgesInfo[E any](p pageReq, edges []E, cursor func(E) string, more bool) *model.PageInfo {
	if len(edges) == 0 {
		return p.pageInfo("", "", more)
	}
	return p.pageInfo(cursor(edges[0]), cursor(edges[len(edges)-1]), more)
}
