package protectiondb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// The protection guard's count of returns, for a batch at once.
//
// A return of stakes (a settlement's or a refund's credit to a player) is
// never refused: no limit caps it. What it does is move the player's day,
// week and month counters and their session of play, if one goes on. A
// settlement credits thousands of players in one transfer; one by one that
// is three statements a player, most of a large settlement's posting time
// (profiled: docs/bench/2026-12-01-bets.md). CountReturnsPG does the
// same for every player of a batch in two round trips, after the balance
// updates as Count does (counter and session rows are locked after
// the wallet rows of the same players): it reads their counters and
// sessions (the bet batch's reads, locked), asks protection.Admit for each
// player's returns, and stores what Admit returns, as Count does one
// flow at a time.

// StandingSelectPG reads the players' standing: their counters of the
// current periods, then their sessions of play, locked in that order after the wallets (the
// guard's lock order), in one statement; a session's row has no period.
// The branches of a UNION ALL run one after the other, and a query that
// locks rows never runs in parallel. Exported for the tote's bet batch,
// which reads the standing in its first round trip; parameters: the user
// ids, the starts of the day, week and month.
const StandingSelectPG = `SELECT user_id, period, deposits, stakes, returned,
	CAST(NULL AS bigint) AS session_no, CAST(NULL AS bigint) AS started_us, CAST(NULL AS bigint) AS last_play_us, CAST(NULL AS int) AS checks
FROM (SELECT user_id, period, deposits, stakes, returned FROM protection_counters
	WHERE user_id = ANY($1::bigint[])
		AND ((period = 'DAY' AND period_start = $2) OR (period = 'WEEK' AND period_start = $3) OR (period = 'MONTH' AND period_start = $4))
	ORDER BY user_id, period` + sqldb.PGForUpdate + `) AS c
UNION ALL
SELECT user_id, NULL, NULL, stakes, returned, session_no, started_us, last_play_us, checks
FROM (SELECT user_id, session_no, started_us, last_play_us, stakes, returned, checks FROM protection_sessions
	WHERE user_id = ANY($1::bigint[]) ORDER BY user_id` + sqldb.PGForUpdate + `) AS s`

// countReturnsSQL stores the counters of the periods holding now and the
// sessions of play protection.Admit returned (StandingRows).
var countReturnsSQL = `WITH c AS (` + CountersPG + `), s AS (` + sessionsUpdatePG + `)
SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM s)`

// CountReturnsPG moves the counters and sessions of play of the players the
// transfers ts[applied...] return stakes to, as Count one flow at a time
// would leave them. The ledger's Postgres batch runs it for a batch of
// returns alone.
func (g Guard) CountReturnsPG(ctx context.Context, pool gorm.ConnPool, ts []ledger.Transfer, applied []int, now time.Time) error {
	users, sum, err := returnsByPlayer(ts, applied)
	if err != nil || len(users) == 0 {
		return err
	}
	starts := PeriodStarts(now, g.loc)
	counters := make(map[ids.UserID]protection.Counters, len(users))
	sessions := make(map[ids.UserID]protection.Session, len(users))
	err = scanRows(ctx, pool, StandingSelectPG, []any{users, starts[protection.Day], starts[protection.Week], starts[protection.Month]}, func(rows *sql.Rows) error {
		var row StandingRow
		if err := rows.Scan(row.Dest()...); err != nil {
			return err
		}
		row.Fold(counters, sessions)
		return nil
	})
	if err != nil {
		return fmt.Errorf("count returns: %w", err)
	}
	var standing StandingRows
	for _, u := range users {
		ret := protection.Flow{UserID: u, Kind: protection.FlowReturn, Amount: money.Amount(sum[u])}
		a, err := protection.Admit(ret, protection.State{}, counters[ids.UserID(u)], sessions[ids.UserID(u)], now)
		if err != nil {
			return fmt.Errorf("count returns: %w", err)
		}
		standing.Counters(u, a.Counters, starts)
		if a.Played {
			standing.Session(a.Session)
		}
	}
	args := pgx.NamedArgs{}
	standing.Args(args)
	var nc, ns int64
	if err := pool.QueryRowContext(ctx, countReturnsSQL, args).Scan(&nc, &ns); err != nil {
		return fmt.Errorf("count returns: %w", err)
	}
	if wc, ws := standing.Len(); nc != int64(wc) || ns != int64(ws) {
		return fmt.Errorf("count returns: %d counters and %d sessions moved for %d and %d", nc, ns, wc, ws)
	}
	return nil
}

// returnsByPlayer sums the returns of the transfers ts[applied...] by
// player (users in id order); any other flow is an error.
func returnsByPlayer(ts []ledger.Transfer, applied []int) ([]int64, map[int64]int64, error) {
	sum := map[int64]int64{}
	for _, i := range applied {
		flows, err := protection.Classify(ts[i])
		if err != nil {
			return nil, nil, err
		}
		for _, f := range flows {
			if f.Kind != protection.FlowReturn {
				return nil, nil, fmt.Errorf("count returns: transfer %q holds a %s flow", ts[i].IdempotencyKey, f.Kind)
			}
			sum[f.UserID] += int64(f.Amount)
		}
	}
	users := make([]int64, 0, len(sum))
	for u := range sum {
		users = append(users, u)
	}
	slices.Sort(users)
	return users, sum, nil
}

// scanRows runs query on pool and calls each for every row.
func scanRows(ctx context.Context, pool gorm.ConnPool, query string, args []any, each func(*sql.Rows) error) error {
	rows, err := pool.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
