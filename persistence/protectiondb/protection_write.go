package protectiondb

// The one writer of the players' standing: every row stored in
// protection_counters and protection_sessions goes through a statement
// built here, one builder per table (upsertCounters, upsertSessions), in
// the shapes the callers need:
//
//   - GORM, ? placeholders, both dialects: WriteCounters and WriteSession
//     (the guard's Count, totedb's SQLite bet batch);
//   - Postgres, arrays through unnest with named parameters (pgx.NamedArgs,
//     filled by StandingRows), for a caller's data-modifying CTEs:
//     CountersPG and SessionsPG (totedb's Postgres bet batch), CountersPG
//     and sessionsUpdatePG (CountReturnsPG).
//
// What is written is what protection.Admit returned: no rule is written
// here.

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// upsertCounters is the one INSERT INTO protection_counters: rows (a
// VALUES list or a SELECT of the columns in this order) stored as given, a
// period's row created or overwritten.
func upsertCounters(rows string) string {
	return `INSERT INTO protection_counters (user_id, period, period_start, deposits, stakes, returned) ` + rows + `
	ON CONFLICT (user_id, period, period_start) DO UPDATE SET deposits = excluded.deposits, stakes = excluded.stakes, returned = excluded.returned`
}

// upsertSessions is the one INSERT INTO protection_sessions: rows (a
// VALUES list or a SELECT of the columns in this order) stored as given, a
// player's one row created or overwritten.
func upsertSessions(rows string) string {
	return `INSERT INTO protection_sessions (user_id, session_no, started_us, last_play_us, stakes, returned, checks) ` + rows + `
	ON CONFLICT (user_id) DO UPDATE SET session_no = excluded.session_no, started_us = excluded.started_us,
		last_play_us = excluded.last_play_us, stakes = excluded.stakes, returned = excluded.returned, checks = excluded.checks`
}

// CountersPG stores the counters of StandingRows in their order (the
// players' lock order) and returns a row for each. Exported for totedb's
// Postgres bet batch, a CTE of its write statement.
var CountersPG = upsertCounters(`SELECT v.u, v.p, v.ps, v.d, v.st, v.r
	FROM unnest(@cnt_users::bigint[], @cnt_periods::text[], @cnt_starts::text[], @cnt_deposits::bigint[], @cnt_stakes::bigint[], @cnt_returned::bigint[])
		WITH ORDINALITY AS v(u, p, ps, d, st, r, ord)
	ORDER BY v.ord`) + " RETURNING 1"

// sessionsPGRows are the sessions of StandingRows, in their order.
const sessionsPGRows = `SELECT v.u, v.n, v.su, v.lu, v.st, v.r, v.c
	FROM unnest(@ses_users::bigint[], @ses_nos::bigint[], @ses_started::bigint[], @ses_last::bigint[], @ses_stakes::bigint[], @ses_returned::bigint[], @ses_checks::int[])
		WITH ORDINALITY AS v(u, n, su, lu, st, r, c, ord)
	ORDER BY v.ord`

// SessionsPG stores the sessions of play of StandingRows and returns a row
// for each. Exported for totedb's Postgres bet batch, a CTE of its write
// statement.
var SessionsPG = upsertSessions(sessionsPGRows) + " RETURNING 1"

// sessionsUpdatePG moves the sessions of StandingRows that exist (a return
// plays only a session going on) and returns a row for each.
var sessionsUpdatePG = `UPDATE protection_sessions s SET session_no = v.n, started_us = v.su, last_play_us = v.lu, stakes = v.st, returned = v.r, checks = v.c
	FROM (` + sessionsPGRows + `) AS v(u, n, su, lu, st, r, c)
	WHERE s.user_id = v.u
	RETURNING 1`

// PeriodStarts are the starts of the periods holding at in loc, as the
// counters' rows store them (period_start).
func PeriodStarts(at time.Time, loc *time.Location) map[protection.Period]string {
	out := make(map[protection.Period]string, len(protection.Periods))
	for _, p := range protection.Periods {
		out[p] = p.Start(at, loc).String()
	}
	return out
}

// StandingRows are the counters and sessions of play of CountersPG,
// SessionsPG and sessionsUpdatePG, as the arrays they take, in the order
// they are added.
type StandingRows struct {
	cUsers, cDeps, cStakes, cRets []int64
	cPeriods, cStarts             []string
	sUsers, sNos, sStarted, sLast []int64
	sStakes, sRets                []int64
	sChecks                       []int32
}

// Counters adds the player's counters of every period (c, as
// protection.Admit returned them), in the periods holding at starts
// (PeriodStarts).
func (s *StandingRows) Counters(userID int64, c protection.Counters, starts map[protection.Period]string) {
	for _, p := range protection.Periods {
		cnt := c[p]
		s.cUsers, s.cPeriods, s.cStarts = append(s.cUsers, userID), append(s.cPeriods, string(p)), append(s.cStarts, starts[p])
		s.cDeps, s.cStakes, s.cRets = append(s.cDeps, int64(cnt.Deposits)), append(s.cStakes, int64(cnt.Stakes)), append(s.cRets, int64(cnt.Returns))
	}
}

// Session adds a player's session of play as protection.Admit returned it.
func (s *StandingRows) Session(ses protection.Session) {
	row := fromDomainSession(ses)
	s.sUsers, s.sNos, s.sStarted, s.sLast = append(s.sUsers, row.UserID), append(s.sNos, row.SessionNo), append(s.sStarted, row.StartedUs), append(s.sLast, row.LastPlayUs)
	s.sStakes, s.sRets, s.sChecks = append(s.sStakes, row.Stakes), append(s.sRets, row.Returned), append(s.sChecks, int32(row.Checks))
}

// Len counts the counter rows and the sessions added.
func (s *StandingRows) Len() (counters, sessions int) { return len(s.cUsers), len(s.sUsers) }

// Args sets the statements' parameters in args.
func (s *StandingRows) Args(args pgx.NamedArgs) {
	args["cnt_users"], args["cnt_periods"], args["cnt_starts"] = s.cUsers, s.cPeriods, s.cStarts
	args["cnt_deposits"], args["cnt_stakes"], args["cnt_returned"] = s.cDeps, s.cStakes, s.cRets
	args["ses_users"], args["ses_nos"], args["ses_started"], args["ses_last"] = s.sUsers, s.sNos, s.sStarted, s.sLast
	args["ses_stakes"], args["ses_returned"], args["ses_checks"] = s.sStakes, s.sRets, s.sChecks
}

// WriteSession stores s as protection.Admit returned it. ReadSession,
// WriteSession, ReadCounters and WriteCounters are exported for totedb's
// SQLite bet batch, which reads and moves them in its own transaction.
func WriteSession(tx *gorm.DB, s protection.Session) error {
	row := fromDomainSession(s)
	err := tx.Exec(upsertSessions("VALUES (?, ?, ?, ?, ?, ?, ?)"),
		row.UserID, row.SessionNo, row.StartedUs, row.LastPlayUs, row.Stakes, row.Returned, row.Checks).Error
	if err != nil {
		return fmt.Errorf("move session of play: %w", err)
	}
	return nil
}

// WriteCounters stores the player's counters of the periods holding now as
// protection.Admit returned them (rows of a new period created).
func WriteCounters(tx *gorm.DB, userID int64, c protection.Counters, now time.Time, loc *time.Location) error {
	starts := PeriodStarts(now, loc)
	list, args := sqldb.RowList(protection.Periods, "(?, ?, ?, ?, ?, ?)", func(_ int, p protection.Period) []any {
		cnt := c[p]
		return []any{userID, string(p), starts[p], int64(cnt.Deposits), int64(cnt.Stakes), int64(cnt.Returns)}
	})
	if err := tx.Exec(upsertCounters("VALUES "+list), args...).Error; err != nil {
		return fmt.Errorf("move protection counters: %w", err)
	}
	return nil
}
