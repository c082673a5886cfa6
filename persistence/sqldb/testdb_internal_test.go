package sqldb

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// migratedPostgres is the migrated template of the package's internal
// tests; its external tests use sqldbtest, which imports this package.
var migratedPostgres = &testenv.PostgresTemplate{Build: func(ctx context.Context, u string) error {
	db, err := Open(ctx, Options{DatabaseURL: u})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Migrate(ctx)
}}
