package sqldb_test

import (
	"slices"
	"testing"

	"github.com/pokertote/pokertote/persistence/sqldb"
)

func TestRowList(t *testing.T) {
	type row struct {
		k string
		v int
	}
	list, args := sqldb.RowList([]row{{"a", 1}, {"b", 2}, {"c", 3}}, "(?, ?, ?)", func(i int, r row) []any { return []any{i, r.k, r.v} })
	if want := "(?, ?, ?), (?, ?, ?), (?, ?, ?)"; list != want {
		t.Fatalf("list %q, want %q", list, want)
	}
	if want := []any{0, "a", 1, 1, "b", 2, 2, "c", 3}; !slices.Equal(args, want) {
		t.Fatalf("args %v, want %v", args, want)
	}
	if list, args := sqldb.RowList([]row{}, "(?)", func(int, row) []any { return nil }); list != "" || len(args) != 0 {
		t.Fatalf("no rows: %q %v", list, args)
	}
}
