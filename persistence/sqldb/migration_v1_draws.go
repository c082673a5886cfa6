package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// refuseUnfinishedV1Draws is migration 420, a check that changes nothing.
// Fair deal 1 (cards from a public seed fixed by round 1's bets, no beacon
// commitment: beacons IS NULL) is no longer dealt or settled, and no
// release since fair deal 2 opens such a draw. A database still holding
// one unfinished would leave it stranded under this release, so the
// upgrade stops here, naming the draws, before any later migration runs:
// the release before this one finishes them (settles, or refunds by the
// ordinary void), and migrating again then passes. Finished version-1
// draws stay as they are: their results are still shown and verified.
func refuseUnfinishedV1Draws(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, phase FROM tote_draws
		WHERE beacons IS NULL AND phase NOT IN ('SETTLED', 'VOID') ORDER BY id`)
	if err != nil {
		return fmt.Errorf("find unfinished version-1 draws: %w", err)
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var id int64
		var phase string
		if err := rows.Scan(&id, &phase); err != nil {
			return fmt.Errorf("find unfinished version-1 draws: %w", err)
		}
		found = append(found, fmt.Sprintf("%d (%s)", id, phase))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("find unfinished version-1 draws: %w", err)
	}
	if len(found) > 0 {
		return fmt.Errorf("tote draws %s are unfinished version-1 draws (no beacons), which this release can neither deal nor settle: "+
			"run the release before this one until they are settled or voided (its dealer finishes them; an admin void refunds one still in round 1), then upgrade again",
			strings.Join(found, ", "))
	}
	return nil
}
