package sqldb_test

import (
	"context"
	"errors"
	"testing"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestCommitUnknown drops the transaction's connection just before its
// commit (the server terminates the backend): the error says the outcome is
// unknown, with its own reason, instead of a bare internal error; an error
// of fn itself is returned as it is.
func TestCommitUnknown(t *testing.T) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, sqldbtest.MigratedOptions(t, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	err = db.Tx(ctx, func(tx *gorm.DB) error {
		var pid int
		if err := tx.Raw("SELECT pg_backend_pid()").Scan(&pid).Error; err != nil {
			return err
		}
		if err := tx.Exec("INSERT INTO settings (key, value) VALUES ('commit-test', 'x')").Error; err != nil {
			return err
		}
		// Another connection of the pool ends this one's session.
		_, err := db.SQL().ExecContext(ctx, "SELECT pg_terminate_backend($1)", pid)
		return err
	})
	if errs.ReasonOf(err) != errs.ReasonCommitUnknown || errs.CodeOf(err) != errs.Internal {
		t.Fatalf("commit on a dropped connection: %v (reason %q), want %s", err, errs.ReasonOf(err), errs.ReasonCommitUnknown)
	}

	mine := errs.R(errs.Conflict, "MINE", "fn failed")
	if err := db.Tx(ctx, func(*gorm.DB) error { return mine }); !errors.Is(err, mine) {
		t.Fatalf("fn's own error came back as %v", err)
	}
}
