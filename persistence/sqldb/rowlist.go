package sqldb

import "strings"

// ChunkRows bounds the rows of one multi-row statement, keeping the bound
// parameters under SQLite's limit of 32766 and Postgres's of 65535.
const ChunkRows = 1000

// RowList writes the list of a multi-row VALUES or IN clause: tuple (its
// placeholders, such as "(?, ?)") once per element of rows, comma
// separated, and the arguments args gives each element (with its index),
// in the same order. The stores write their batches in chunks of ChunkRows
// rows or fewer, so that no statement passes a driver's parameter limit.
func RowList[T any](rows []T, tuple string, args func(i int, row T) []any) (string, []any) {
	var sb strings.Builder
	sb.Grow(len(rows) * (len(tuple) + 2))
	out := make([]any, 0, strings.Count(tuple, "?")*len(rows))
	for i, r := range rows {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(tuple)
		out = append(out, args(i, r)...)
	}
	return sb.String(), out
}
