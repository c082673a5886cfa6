package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
)

// schemaShape is what the two dialects' migrations must agree on: tables,
// columns (a coarse type class and nullability), unique keys, foreign keys
// and named CHECK constraints. Types are compared by class because the
// dialects spell them differently (BIGSERIAL/INTEGER, TIMESTAMPTZ/DATETIME).
type schemaShape struct {
	columns map[string]string   // "table.column" -> "class null|not null"
	uniques map[string][]string // table -> sorted "col,col" of each unique key
	foreign map[string][]string // table -> sorted "col->reftable"
	checks  map[string][]string // table -> sorted names of CHECK constraints
}

func TestMigrationsProduceTheSameSchemaOnBothDialects(t *testing.T) {
	ctx := context.Background()
	shapes := map[Dialect]schemaShape{}
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "shape.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		db := openMigrated(t, d, o)
		var shape schemaShape
		var err error
		if d == Postgres {
			shape, err = postgresShape(ctx, db.sql)
		} else {
			shape, err = sqliteShape(ctx, db.sql)
		}
		if err != nil {
			t.Fatalf("read %s schema: %v", d, err)
		}
		shapes[d] = shape
	}
	pg, lite := shapes[Postgres], shapes[SQLite]
	if len(pg.columns) == 0 {
		t.Fatal("no columns read from Postgres")
	}
	for c := range postgresOnly {
		if pg.columns[c] == "" || lite.columns[c] != "" {
			t.Errorf("column %s: Postgres only, yet postgres %q, sqlite %q", c, pg.columns[c], lite.columns[c])
		}
		delete(pg.columns, c)
	}
	compareMaps(t, "column", pg.columns, lite.columns)
	compareLists(t, "unique key", pg.uniques, lite.uniques)
	compareLists(t, "foreign key", pg.foreign, lite.foreign)
	compareLists(t, "CHECK constraint", pg.checks, lite.checks)
}

// sqliteSubstitute lists the Postgres type classes that SQLite stores as
// TEXT on purpose: it has no JSON type (the application reads and writes
// JSON text) and no date type (calendar dates are ISO text, kept honest by a
// *_format CHECK that only SQLite needs).
// sqliteSubstitute maps a Postgres type class to the one SQLite stores it
// as.
var sqliteSubstitute = map[string]string{"json": "text", "date": "text"}

// postgresOnly are the columns only Postgres has: the transaction ids that
// order the regulator feed (SQLite's one writer commits in id order).
var postgresOnly = map[string]bool{"ledger_transfers.txid": true, "protection_changes.txid": true}

// sqliteOnlyCheck reports a CHECK that stands in, on SQLite, for what a
// Postgres column type already enforces (integer affinity, date format).
func sqliteOnlyCheck(name string) bool {
	return strings.HasSuffix(name, "_integer") || strings.HasSuffix(name, "_format")
}

func compareMaps(t *testing.T, what string, pg, lite map[string]string) {
	t.Helper()
	for _, k := range sortedKeys(pg, lite) {
		if class, null, ok := strings.Cut(pg[k], " "); ok && sqliteSubstitute[class] != "" {
			if lite[k] == sqliteSubstitute[class]+" "+null {
				continue
			}
		}
		if pg[k] != lite[k] {
			t.Errorf("%s %s: postgres %q, sqlite %q", what, k, pg[k], lite[k])
		}
	}
}

func compareLists(t *testing.T, what string, pg, lite map[string][]string) {
	t.Helper()
	for _, table := range sortedKeys(pg, lite) {
		if !slices.Equal(pg[table], lite[table]) {
			t.Errorf("%ss of %s: postgres %v, sqlite %v", what, table, pg[table], lite[table])
		}
	}
}

func sortedKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// typeClass folds a declared column type onto the class both dialects share.
func typeClass(declared string) string {
	s := strings.ToLower(declared)
	switch {
	case strings.Contains(s, "int") || strings.Contains(s, "serial"):
		return "integer"
	case strings.Contains(s, "bool"):
		return "boolean"
	case s == "date":
		return "date"
	case strings.Contains(s, "time") || strings.Contains(s, "date"):
		return "time"
	case strings.Contains(s, "bytea") || strings.Contains(s, "blob"):
		return "bytes"
	case strings.Contains(s, "json"):
		return "json"
	case strings.Contains(s, "text") || strings.Contains(s, "char") || strings.Contains(s, "clob"):
		return "text"
	case strings.Contains(s, "numeric") || strings.Contains(s, "decimal"):
		return "numeric"
	}
	return "other:" + s
}

func nullability(notNull bool) string {
	if notNull {
		return "not null"
	}
	return "null"
}

func newShape() schemaShape {
	return schemaShape{
		columns: map[string]string{},
		uniques: map[string][]string{},
		foreign: map[string][]string{},
		checks:  map[string][]string{},
	}
}

func (s schemaShape) sortLists() {
	for _, m := range []map[string][]string{s.uniques, s.foreign, s.checks} {
		for k := range m {
			slices.Sort(m[k])
		}
	}
}

// ignoredTable is bookkeeping of the migration tool, not of the schema.
func ignoredTable(name string) bool {
	return name == "goose_db_version" || strings.HasPrefix(name, "sqlite_")
}

func postgresShape(ctx context.Context, db *sql.DB) (schemaShape, error) {
	s := newShape()
	err := eachRow(ctx, db, `
		SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
		FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
		func(r *sql.Rows) error {
			var table, col, typ string
			var notNull bool
			if err := r.Scan(&table, &col, &typ, &notNull); err != nil {
				return err
			}
			if !ignoredTable(table) {
				s.columns[table+"."+col] = typeClass(typ) + " " + nullability(notNull)
			}
			return nil
		})
	if err != nil {
		return s, err
	}
	// Unique keys: unique indexes (constraints and CREATE UNIQUE INDEX),
	// with a partial index's predicate marked so it only matches a partial one.
	err = eachRow(ctx, db, `
		SELECT t.relname,
		       (SELECT string_agg(a.attname, ',' ORDER BY a.attname)
		          FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k),
		       i.indpred IS NOT NULL, 0 = ANY(i.indkey)
		FROM pg_index i
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = current_schema() AND i.indisunique`,
		func(r *sql.Rows) error {
			var table string
			var cols sql.NullString
			var partial, expr bool
			if err := r.Scan(&table, &cols, &partial, &expr); err != nil {
				return err
			}
			if ignoredTable(table) {
				return nil
			}
			names := strings.Split(cols.String, ",")
			if cols.String == "" {
				names = nil
			}
			if expr {
				names = append(names, exprColumn)
			}
			slices.Sort(names)
			s.uniques[table] = append(s.uniques[table], uniqueKey(strings.Join(names, ","), partial))
			return nil
		})
	if err != nil {
		return s, err
	}
	err = eachRow(ctx, db, `
		SELECT t.relname, c.contype, c.conname,
		       COALESCE((SELECT string_agg(a.attname, ',' ORDER BY a.attname)
		          FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k), ''),
		       COALESCE(rt.relname, '')
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		LEFT JOIN pg_class rt ON rt.oid = c.confrelid
		WHERE n.nspname = current_schema() AND c.contype IN ('c', 'f')`,
		func(r *sql.Rows) error {
			var table, typ, name, cols, ref string
			if err := r.Scan(&table, &typ, &name, &cols, &ref); err != nil {
				return err
			}
			if ignoredTable(table) {
				return nil
			}
			if typ == "f" {
				s.foreign[table] = append(s.foreign[table], cols+"->"+ref)
			} else {
				s.checks[table] = append(s.checks[table], name)
			}
			return nil
		})
	s.sortLists()
	return s, err
}

// namedCheck finds "CONSTRAINT name CHECK" in SQLite's stored CREATE TABLE.
var namedCheck = regexp.MustCompile(`(?i)CONSTRAINT\s+"?(\w+)"?\s+CHECK\b`)

func sqliteShape(ctx context.Context, db *sql.DB) (schemaShape, error) {
	s := newShape()
	tables := map[string]string{}
	err := eachRow(ctx, db, `SELECT name, sql FROM sqlite_master WHERE type = 'table'`, func(r *sql.Rows) error {
		var name string
		var ddl sql.NullString
		if err := r.Scan(&name, &ddl); err != nil {
			return err
		}
		if !ignoredTable(name) {
			tables[name] = ddl.String
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	for table, ddl := range tables {
		var pk []string
		err := eachRow(ctx, db, fmt.Sprintf(`SELECT name, type, "notnull", pk FROM pragma_table_info('%s')`, table), func(r *sql.Rows) error {
			var col, typ string
			var notNull, pkPos int
			if err := r.Scan(&col, &typ, &notNull, &pkPos); err != nil {
				return err
			}
			// A primary key column is NOT NULL in Postgres whatever it declares.
			s.columns[table+"."+col] = typeClass(typ) + " " + nullability(notNull == 1 || pkPos > 0)
			if pkPos > 0 {
				pk = append(pk, col)
			}
			return nil
		})
		if err != nil {
			return s, err
		}
		if len(pk) > 0 {
			slices.Sort(pk)
			s.uniques[table] = append(s.uniques[table], uniqueKey(strings.Join(pk, ","), false))
		}
		type index struct {
			name    string
			partial bool
		}
		var idx []index
		err = eachRow(ctx, db, fmt.Sprintf(`SELECT name, "unique", origin, partial FROM pragma_index_list('%s')`, table), func(r *sql.Rows) error {
			var name, origin string
			var unique, partial int
			if err := r.Scan(&name, &unique, &origin, &partial); err != nil {
				return err
			}
			if unique == 1 && origin != "pk" {
				idx = append(idx, index{name, partial == 1})
			}
			return nil
		})
		if err != nil {
			return s, err
		}
		for _, ix := range idx {
			var cols []string
			err = eachRow(ctx, db, fmt.Sprintf(`SELECT name FROM pragma_index_info('%s')`, ix.name), func(r *sql.Rows) error {
				var col sql.NullString
				if err := r.Scan(&col); err != nil {
					return err
				}
				if col.Valid {
					cols = append(cols, col.String)
				} else {
					cols = append(cols, exprColumn)
				}
				return nil
			})
			if err != nil {
				return s, err
			}
			slices.Sort(cols)
			s.uniques[table] = append(s.uniques[table], uniqueKey(strings.Join(cols, ","), ix.partial))
		}
		err = eachRow(ctx, db, fmt.Sprintf(`SELECT "table", "from" FROM pragma_foreign_key_list('%s')`, table), func(r *sql.Rows) error {
			var ref, col string
			if err := r.Scan(&ref, &col); err != nil {
				return err
			}
			s.foreign[table] = append(s.foreign[table], col+"->"+ref)
			return nil
		})
		if err != nil {
			return s, err
		}
		for _, m := range namedCheck.FindAllStringSubmatch(ddl, -1) {
			if sqliteOnlyCheck(m[1]) {
				continue
			}
			s.checks[table] = append(s.checks[table], m[1])
		}
	}
	s.sortLists()
	return s, nil
}

// exprColumn stands for an indexed expression (lower(email), say).
const exprColumn = "<expr>"

func uniqueKey(cols string, partial bool) string {
	if partial {
		return cols + " (partial)"
	}
	return cols
}

func eachRow(ctx context.Context, db *sql.DB, query string, fn func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
