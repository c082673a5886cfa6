package sqldb_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestTxRaw: on Postgres the raw pgx connection is the transaction's own
// session (same backend, sees the transaction's uncommitted row, and what
// the transaction rolls back is gone); a commit on a dropped connection is
// still CommitUnknown; on SQLite there is no raw connection and the
// transaction works as Tx.
func TestTxRaw(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, err := sqldb.Open(ctx, sqldbtest.MigratedOptions(t, dialect))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			count := func() (n int64) {
				t.Helper()
				if err := db.Gorm().Raw("SELECT count(*) FROM settings WHERE key = 'raw-test'").Scan(&n).Error; err != nil {
					t.Fatal(err)
				}
				return n
			}
			rollback := errors.New("roll back")
			err = db.TxRaw(ctx, func(tx *gorm.DB, raw sqldb.RawConn) error {
				if err := tx.Exec("INSERT INTO settings (key, value) VALUES ('raw-test', 'x')").Error; err != nil {
					return err
				}
				if dialect != "postgres" {
					if raw != nil {
						t.Error("a raw pgx connection on " + dialect)
					}
					return rollback
				}
				var pid, rawPid, seen int64
				if err := tx.Raw("SELECT pg_backend_pid()").Scan(&pid).Error; err != nil {
					return err
				}
				err := raw(func(pc *pgx.Conn) error {
					return pc.QueryRow(ctx, "SELECT pg_backend_pid(), (SELECT count(*) FROM settings WHERE key = 'raw-test')").Scan(&rawPid, &seen)
				})
				if err != nil {
					return err
				}
				if rawPid != pid || seen != 1 {
					t.Errorf("raw read on backend %d seeing %d rows; the transaction is on %d with 1", rawPid, seen, pid)
				}
				return rollback
			})
			if !errors.Is(err, rollback) {
				t.Fatalf("fn's error came back as %v", err)
			}
			if n := count(); n != 0 {
				t.Fatalf("%d rows after the rollback", n)
			}
			if dialect != "postgres" {
				return
			}
			err = db.TxRaw(ctx, func(tx *gorm.DB, raw sqldb.RawConn) error {
				if err := tx.Exec("INSERT INTO settings (key, value) VALUES ('raw-test', 'y')").Error; err != nil {
					return err
				}
				var pid int64
				if err := raw(func(pc *pgx.Conn) error { return pc.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid) }); err != nil {
					return err
				}
				_, err := db.SQL().ExecContext(ctx, "SELECT pg_terminate_backend($1)", pid)
				return err
			})
			if errs.ReasonOf(err) != errs.ReasonCommitUnknown {
				t.Fatalf("commit on a dropped connection: %v, want %s", err, errs.ReasonCommitUnknown)
			}
		})
	}
}
