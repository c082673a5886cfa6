package persistence

// The player-protection guard of the ledger (issue 13).
//
// post calls guard for every new transfer, inside the transaction that
// moves its money and after the balances were found sufficient, so a
// refused stake or deposit rolls back with the bet or hand it belonged to
// (postTx's savepoint, or Post's own transaction). guard:
//
//  1. classifies the transfer (protection.Classify): a deposit, a stake, or
//     returns of stakes, per player wallet;
//  2. for a deposit or stake, reads the player's exclusion, register match
//     and limits in one query, after the balance updates have locked the
//     player's wallet (an exclusion is set holding that row, holdWallet,
//     so it committed before this read or starts after this post commits:
//     issue 22), and refuses an excluded player (protection.Excluded); a
//     short wallet of an excluded player is answered with the exclusion;
//  3. after the balance updates, reads the player's day, week and month
//     counters and session of play, locked after the wallet, asks
//     protection.Admit (the one home of the limits, by name, and of the
//     session's rule) and writes the counters and session it returns. A
//     refusal leaves the caller's savepoint or transaction to undo the
//     whole post. Two stakes of one player serialise on the wallet row
//     (and again on the counter rows), so the second reads the counters
//     the first committed, and together they never exceed a limit.
//
// Lock order: a post locks its wallet rows before the counters of the same
// player, and every post does, so a transaction waiting for a counter row
// never holds what its holder waits for. Limits and exclusions are read
// without locks of their own, after the wallet's: a limit change committed
// before the read applies; one racing the stake is ordered after it; an
// exclusion waits for the wallet (holdWallet) before it reads the clock.

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// guardedFlow is one player's flow in a transfer with the state read for it.
type guardedFlow struct {
	flow  protection.Flow
	state protection.State
}

// guardCheck classifies t and, for deposits and stakes, reads each
// player's state and refuses what no counter can allow (steps 1 and 2 at
// the top of the file). post runs it after the balance updates, once the
// players' wallets are locked.
func (r *LedgerRepo) guardCheck(tx *gorm.DB, t ledger.Transfer, now time.Time) ([]guardedFlow, error) {
	flows := protection.Classify(t)
	out := make([]guardedFlow, 0, len(flows))
	for _, f := range flows {
		g := guardedFlow{flow: f}
		if f.Checked() {
			var err error
			if g.state, err = loadProtectionState(tx, f.UserID); err != nil {
				return nil, err
			}
			if err := protection.Excluded(f, g.state, now); err != nil {
				return nil, err
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// guardCount moves the counters and the session of play of the flows
// guardCheck admitted (step 3), after the balance updates, so counter and
// session rows are always locked after the wallet rows of the same player:
// it reads them (locked), asks protection.Admit, and writes what Admit
// returns. No rule of protection is written here.
func (r *LedgerRepo) guardCount(tx *gorm.DB, flows []guardedFlow, now time.Time) error {
	for _, g := range flows {
		c, err := readCounters(tx, g.flow.UserID, now, r.loc, r.db.lockSuffix(lockExclusive))
		if err != nil {
			return err
		}
		ses, err := readSession(tx, g.flow.UserID, r.db.lockSuffix(lockExclusive))
		if err != nil {
			return err
		}
		a, err := protection.Admit(g.flow, g.state, c, ses, now)
		if err != nil {
			return err
		}
		if err := writeCounters(tx, g.flow.UserID, a.Counters, now, r.loc); err != nil {
			return err
		}
		if a.Played {
			if err := writeSession(tx, a.Session); err != nil {
				return err
			}
		}
	}
	return nil
}

// sessionRow is a row of protection_sessions (instants in Unix µs).
type sessionRow struct {
	UserID     int64
	SessionNo  int64
	StartedUs  int64
	LastPlayUs int64
	Stakes     int64
	Returned   int64
	Checks     int
}

func (sessionRow) TableName() string { return "protection_sessions" }

func toDomainSession(r sessionRow) protection.Session {
	return protection.Session{
		UserID: r.UserID, No: r.SessionNo, StartedAt: time.UnixMicro(r.StartedUs).UTC(), LastPlayAt: time.UnixMicro(r.LastPlayUs).UTC(),
		Stakes: money.Amount(r.Stakes), Returns: money.Amount(r.Returned), Checks: r.Checks,
	}
}

func fromDomainSession(s protection.Session) sessionRow {
	return sessionRow{UserID: s.UserID, SessionNo: s.No, StartedUs: s.StartedAt.UnixMicro(), LastPlayUs: s.LastPlayAt.UnixMicro(),
		Stakes: int64(s.Stakes), Returned: int64(s.Returns), Checks: s.Checks}
}

// readSession reads the player's session of play (the zero Session when
// none), with lock appended to the query.
func readSession(tx *gorm.DB, userID int64, lock string) (protection.Session, error) {
	var rows []sessionRow
	if err := tx.Raw(`SELECT user_id, session_no, started_us, last_play_us, stakes, returned, checks
		FROM protection_sessions WHERE user_id = ?`+lock, userID).Scan(&rows).Error; err != nil {
		return protection.Session{}, fmt.Errorf("read session of play: %w", err)
	}
	if len(rows) == 0 {
		return protection.Session{UserID: userID}, nil
	}
	return toDomainSession(rows[0]), nil
}

// writeSession stores s as protection.Admit returned it.
func writeSession(tx *gorm.DB, s protection.Session) error {
	row := fromDomainSession(s)
	err := tx.Exec(`INSERT INTO protection_sessions (user_id, session_no, started_us, last_play_us, stakes, returned, checks)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET session_no = excluded.session_no, started_us = excluded.started_us,
			last_play_us = excluded.last_play_us, stakes = excluded.stakes, returned = excluded.returned, checks = excluded.checks`,
		row.UserID, row.SessionNo, row.StartedUs, row.LastPlayUs, row.Stakes, row.Returned, row.Checks).Error
	if err != nil {
		return fmt.Errorf("move session of play: %w", err)
	}
	return nil
}

// writeCounters stores the player's counters of the periods holding now as
// protection.Admit returned them (rows of a new period created).
func writeCounters(tx *gorm.DB, userID int64, c protection.Counters, now time.Time, loc *time.Location) error {
	args := make([]any, 0, 6*len(protection.Periods))
	for _, p := range protection.Periods {
		cnt := c[p]
		args = append(args, userID, string(p), p.Start(now, loc).String(), int64(cnt.Deposits), int64(cnt.Stakes), int64(cnt.Returns))
	}
	err := tx.Exec(`INSERT INTO protection_counters (user_id, period, period_start, deposits, stakes, returned)
		VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id, period, period_start) DO UPDATE SET
			deposits = excluded.deposits, stakes = excluded.stakes, returned = excluded.returned`, args...).Error
	if err != nil {
		return fmt.Errorf("move protection counters: %w", err)
	}
	return nil
}

// counterRow is a row of protection_counters.
type counterRow struct {
	Period      string
	PeriodStart string
	Deposits    int64
	Stakes      int64
	Returned    int64
}

// readCounters reads the user's counters of the periods holding at (zero
// where no row is stored yet), with lock appended to the query.
func readCounters(tx *gorm.DB, userID int64, at time.Time, loc *time.Location, lock string) (protection.Counters, error) {
	starts := make([]any, 0, 7)
	starts = append(starts, userID)
	for _, p := range protection.Periods {
		starts = append(starts, string(p), p.Start(at, loc).String())
	}
	var rows []counterRow
	err := tx.Raw(`SELECT period, period_start, deposits, stakes, returned FROM protection_counters
		WHERE user_id = ? AND ((period = ? AND period_start = ?) OR (period = ? AND period_start = ?) OR (period = ? AND period_start = ?))`+lock,
		starts...).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read protection counters: %w", err)
	}
	out := protection.Counters{}
	for _, p := range protection.Periods {
		out[p] = protection.Counter{Period: p, Start: p.Start(at, loc)}
	}
	for _, row := range rows {
		p := protection.Period(row.Period)
		c := out[p]
		c.Deposits, c.Stakes, c.Returns = money.Amount(row.Deposits), money.Amount(row.Stakes), money.Amount(row.Returned)
		out[p] = c
	}
	return out, nil
}

// stateRow is one row of loadProtectionState's query: the user, their
// exclusion, one of their limits (if any), and how many register entries
// may name them.
type stateRow struct {
	Name           string
	DateOfBirth    sqlDate
	ExKind         *string
	ExSince        *time.Time
	ExEndsAt       *time.Time
	LKind          *string
	LPeriod        *string
	LAmount        *int64
	LPending       *bool
	LPendingAmount *int64
	LPendingAt     *time.Time
	NameHits       int64
	DocHits        int64
}

// loadProtectionState reads what the guard needs about a player in one
// query: limits, own exclusion, and whether the register names them (a
// register entry with their birthday is compared by name key in Go, on the
// rare path). A wallet without an account (ledger tests) has no state.
func loadProtectionState(tx *gorm.DB, userID int64) (protection.State, error) {
	var st protection.State
	var rows []stateRow
	err := tx.Raw(`SELECT u.name, u.date_of_birth,
			e.kind AS ex_kind, e.since AS ex_since, e.ends_at AS ex_ends_at,
			l.kind AS l_kind, l.period AS l_period, l.amount AS l_amount, l.pending AS l_pending,
			l.pending_amount AS l_pending_amount, l.pending_at AS l_pending_at,
			(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.name_key <> ''
				AND r.birth_date = CAST(u.date_of_birth AS TEXT)) AS name_hits,
			(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.document_hash <> ''
				AND r.document_hash IN (SELECT v.document_hash FROM verifications v WHERE v.user_id = u.id)) AS doc_hits
		FROM users u
		LEFT JOIN protection_exclusions e ON e.user_id = u.id
		LEFT JOIN protection_limits l ON l.user_id = u.id
		WHERE u.id = ?`, userID).Scan(&rows).Error
	if err != nil {
		return st, fmt.Errorf("read protection state: %w", err)
	}
	if len(rows) == 0 {
		return st, nil
	}
	first := rows[0]
	if first.ExKind != nil && first.ExSince != nil {
		st.Exclusion = protection.Exclusion{Kind: protection.ExclusionKind(*first.ExKind), Since: first.ExSince.UTC(), Until: timeOrZero(first.ExEndsAt)}
	}
	for _, row := range rows {
		if row.LKind == nil || row.LPeriod == nil {
			continue
		}
		l := protection.Limit{Kind: protection.LimitKind(*row.LKind), Period: protection.Period(*row.LPeriod), PendingAt: timeOrZero(row.LPendingAt)}
		if row.LAmount != nil {
			l.Amount = money.Amount(*row.LAmount)
		}
		if row.LPending != nil {
			l.Pending = *row.LPending
		}
		if row.LPendingAmount != nil {
			l.PendingAmount = money.Amount(*row.LPendingAmount)
		}
		st.Limits = append(st.Limits, l)
	}
	switch {
	case first.DocHits > 0:
		st.Registered = true
	case first.NameHits > 0:
		st.Registered, err = registerNames(tx, userID, protection.NameKey(first.Name), account.Date(first.DateOfBirth))
	}
	return st, err
}

// registerNames reports whether an active register entry names the user by
// one of their documents, or by name key and date of birth.
func registerNames(tx *gorm.DB, userID int64, nameKey string, dob account.Date) (bool, error) {
	var keys []string
	err := tx.Raw(`SELECT name_key FROM exclusion_register
		WHERE removed_at IS NULL AND (
			(name_key <> '' AND birth_date = ?)
			OR (document_hash <> '' AND document_hash IN (SELECT document_hash FROM verifications WHERE user_id = ?)))`,
		dob.String(), userID).Scan(&keys).Error
	if err != nil {
		return false, fmt.Errorf("match the exclusion register: %w", err)
	}
	for _, k := range keys {
		if k == "" || k == nameKey {
			return true, nil
		}
	}
	return false, nil
}
