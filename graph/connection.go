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
// of domain/paging: first is 1 to MaxPageSize, DefaultPageSize when absent. Cursors are
// opaque to clients: base64url of "pt:" and the position the list's store
// understands (an id, or a store's own cursor). Every list is newest (or
// oldest) first by a unique key, so any edge's cursor continues after it.

// Page sizes of every connection.
const (
	DefaultPageSize = paging.Default
	MaxPageSize     = paging.Max
)

const cursorPrefix = "pt:"

// pageReq is a validated first/after pair.
type pageReq struct {
	size  int
	after string // the store's cursor, "" for the first page
}

// readPage checks first and decodes after.
func readPage(first *int, after *string) (pageReq, error) {
	size, err := paging.First(first)
	p := pageReq{size: size}
	if err != nil {
		return p, err
	}
	if after != nil && *after != "" {
		raw, err := base64.RawURLEncoding.DecodeString(*after)
		inner, ok := strings.CutPrefix(string(raw), cursorPrefix)
		if err != nil || !ok || inner == "" {
			return p, errInvalidCursor()
		}
		p.after = inner
	}
	return p, nil
}

// afterID is the page's cursor as an id (0 for the first page).
func (p pageReq) afterID() (int64, error) {
	if p.after == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(p.after, 10, 64)
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

// pageInfo is the PageInfo of a page whose last edge has cursor last ("" for
// an empty page).
func pageInfo(last string, more bool) *model.PageInfo {
	pi := &model.PageInfo{HasNextPage: more}
	if last != "" {
		pi.EndCursor = &last
	}
	return pi
}

// lastCursor is the cursor of the last of n edges.
func lastCursor[E any](edges []E, cursor func(E) string) string {
	if len(edges) == 0 {
		return ""
	}
	return cursor(edges[len(edges)-1])
}
