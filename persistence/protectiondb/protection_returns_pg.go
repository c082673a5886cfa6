package protectiondb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

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
// sessions of play protection.Admit returned.
const countReturnsSQL = `WITH c AS (
	INSERT INTO protection_counters AS c (user_id, period, period_start, deposits, stakes, returned)
	SELECT v.u, v.p, v.ps, v.d, v.st, v.r FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) WITH ORDINALITY AS v(u, p, ps, d, st, r, ord)
	ORDER BY v.ord
	ON CONFLICT (user_id, period, period_start) DO UPDATE SET deposits = excluded.deposits, stakes = excluded.stakes, returned = excluded.returned
	RETURNING 1
), s AS (
	UPDATE protection_sessions s SET session_no = v.n, started_us = v.su, last_play_us = v.lu, stakes = v.st, returned = v.r, checks = v.c
	FROM unnest($7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::int[]) AS v(u, n, su, lu, st, r, c)
	WHERE s.user_id = v.u
	RETURNING 1
)
SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM s)`

// CountReturnsPG moves the counters and sessions of play of the players the
// transfers ts[applied...] return stakes to, as Count one flow at a time
// would leave them. The ledger's Postgres batch runs it for a batch of
// returns alone.
func (g Guard) CountReturnsPG(ctx context.Context, pool gorm.ConnPool, ts []ledger.Transfer, applied []int, now time.Time) error {
	users, sum, err := returnsByUser(ts, applied)
	if err != nil || len(users) == 0 {
		return err
	}
	starts := make([]any, len(protection.Periods))
	for i, p := range protection.Periods {
		starts[i] = p.Start(now, g.loc).String()
	}
	counters := make(map[ids.UserID]protection.Counters, len(users))
	sessions := make(map[ids.UserID]protection.Session, len(users))
	err = scanRows(ctx, pool, StandingSelectPG, []any{users, starts[0], starts[1], starts[2]}, func(rows *sql.Rows) error {
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
	var (
		cUsers, cDeps, cStakes, cRets []int64
		cPeriods, cStarts             []string
		sUsers, sNos, sStarted, sLast []int64
		sStakes, sRets                []int64
		sChecks                       []int32
	)
	for _, u := range users {
		a, err := protection.Admit(protection.Flow{UserID: u, Kind: protection.FlowReturn, Amount: money.Amount(sum[u])}, protection.State{}, counters[ids.UserID(u)], sessions[ids.UserID(u)], now)
		if err != nil {
			return fmt.Errorf("count returns: %w", err)
		}
		for i, p := range protection.Periods {
			c := a.Counters[p]
			cUsers, cPeriods, cStarts = append(cUsers, u), append(cPeriods, string(p)), append(cStarts, starts[i].(string))
			cDeps, cStakes, cRets = append(cDeps, int64(c.Deposits)), append(cStakes, int64(c.Stakes)), append(cRets, int64(c.Returns))
		}
		if a.Played {
			row := fromDomainSession(a.Session)
			sUsers, sNos, sStarted, sLast = append(sUsers, u), append(sNos, row.SessionNo), append(sStarted, row.StartedUs), append(sLast, row.LastPlayUs)
			sStakes, sRets, sChecks = append(sStakes, row.Stakes), append(sRets, row.Returned), append(sChecks, int32(row.Checks))
		}
	}
	var nc, ns int64
	if err := pool.QueryRowContext(ctx, countReturnsSQL, cUsers, cPeriods, cStarts, cDeps, cStakes, cRets,
		sUsers, sNos, sStarted, sLast, sStakes, sRets, sChecks).Scan(&nc, &ns); err != nil {
		return fmt.Errorf("count returns: %w", err)
	}
	if nc != int64(len(cUsers)) || ns != int64(len(sUsers)) {
		return fmt.Errorf("count returns: %d counters and %d sessions moved for %d and %d", nc, ns, len(cUsers), len(sUsers))
	}
	return nil
}

// returnsByUser sums what the transfers ts[applied...] return to each
// player, with the players by id; a transfer holding any other flow than a
// return is an error.
func returnsByUser(ts []ledger.Transfer, applied []int) ([]int64, map[int64]int64, error) {
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
