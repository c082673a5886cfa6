package persistence

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/protection"
)

// The protection guard's count of returns, for a batch at once (issue 8).
//
// A return of stakes (a settlement's or a refund's credit to a player) is
// never refused: no limit caps it, so guardCount's guarded UPDATE always
// holds for it. What it does is move the player's day, week and month
// counters (rows of a new period created at zero first) and their session
// of play, if one goes on. A settlement credits thousands of players in
// one transfer; one by one that was three statements a player (measured:
// most of a 100,000-bet settlement's posting time, docs/bets-load.md).
// countReturnsPG does the same for every player of a batch in one
// statement, after the balance updates as guardCount does (counter and
// session rows are locked after the wallet rows of the same players).

// countReturnsSQL upserts the counters of the periods holding now by each
// player's returns, and moves each player's session of play still going on
// ($5: the last play at or after it). The players are distinct.
const countReturnsSQL = `WITH c AS (
	INSERT INTO protection_counters AS c (user_id, period, period_start, returned)
	SELECT v.u, p.period, p.start, v.a
	FROM unnest($1::bigint[], $2::bigint[]) AS v(u, a), unnest($3::text[], $4::text[]) AS p(period, start)
	ORDER BY v.u, p.period
	ON CONFLICT (user_id, period, period_start) DO UPDATE SET returned = c.returned + excluded.returned
	RETURNING 1
), s AS (
	UPDATE protection_sessions s SET returned = s.returned + v.a
	FROM unnest($1::bigint[], $2::bigint[]) AS v(u, a)
	WHERE s.user_id = v.u AND s.last_play_us >= $5
	RETURNING 1
)
SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM s)`

// onlyReturns reports whether no transfer of ts[valid...] holds a flow the
// guard checks (a deposit or a stake): such a batch needs only its returns
// counted.
func onlyReturns(ts []ledger.Transfer, valid []int) bool {
	for _, i := range valid {
		for _, f := range protection.Classify(ts[i]) {
			if f.Checked() {
				return false
			}
		}
	}
	return true
}

// countReturnsPG moves the counters and sessions of play of the players the
// transfers ts[applied...] return stakes to, as guardCount one flow at a
// time would leave them.
func (r *LedgerRepo) countReturnsPG(ctx context.Context, pool gorm.ConnPool, ts []ledger.Transfer, applied []int, now time.Time) error {
	sum := map[int64]int64{}
	for _, i := range applied {
		for _, f := range protection.Classify(ts[i]) {
			if f.Kind != protection.FlowReturn {
				return fmt.Errorf("count returns: transfer %q holds a %s flow", ts[i].IdempotencyKey, f.Kind)
			}
			sum[f.UserID] += int64(f.Amount)
		}
	}
	if len(sum) == 0 {
		return nil
	}
	users := make([]int64, 0, len(sum))
	for u := range sum {
		users = append(users, u)
	}
	slices.Sort(users)
	amounts := make([]int64, len(users))
	for i, u := range users {
		amounts[i] = sum[u]
	}
	periods := make([]string, len(protection.Periods))
	starts := make([]string, len(protection.Periods))
	for i, p := range protection.Periods {
		periods[i], starts[i] = string(p), p.Start(now, r.loc).String()
	}
	cut := now.Add(-protection.SessionIdle).UnixMicro()
	var counters, sessions int64
	if err := pool.QueryRowContext(ctx, countReturnsSQL, users, amounts, periods, starts, cut).Scan(&counters, &sessions); err != nil {
		return fmt.Errorf("count returns: %w", err)
	}
	if counters != int64(len(users)*len(periods)) {
		return fmt.Errorf("count returns: %d counters moved for %d players", counters, len(users))
	}
	return nil
}
