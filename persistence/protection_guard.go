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
//     and limits in one query, and refuses an excluded player at once
//     (protection.Excluded), before any balance moves;
//  3. after the balance updates, moves the player's day, week and month
//     counters with ONE guarded UPDATE ... WHERE <the limits still hold>
//     RETURNING (rows of a new period are created at zero first, then
//     updated the same way), and the player's session of play with one
//     upsert. Two stakes racing each other serialize on the counter
//     rows; the second re-evaluates the WHERE on the first's committed
//     counters (Postgres re-checks an updated row under READ COMMITTED;
//     SQLite has one writer), so together they never exceed a limit. A row
//     missing from RETURNING means a limit would break: the counters are
//     read back and Decide names the limit, and the caller's savepoint or
//     transaction undoes the whole post.
//
// Lock order: a post locks its wallet rows before the counters of the same
// player, and every post does, so a transaction waiting for a counter row
// never holds what its holder waits for. Limits and exclusions are read
// without locks: a limit change committed before the read applies; one
// racing the stake is ordered after it.

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// noCap stands for "no limit" in a guarded counter update; far above any
// counter, yet far from overflowing when added to one.
const noCap = math.MaxInt64 / 4

// guardedFlow is one player's flow in a transfer with the state read for it.
type guardedFlow struct {
	flow  protection.Flow
	state protection.State
}

// guardCheck classifies t and, for deposits and stakes, reads each
// player's state and refuses what no counter can allow (steps 1 and 2 at
// the top of the file). It takes no locks, so post runs it before the
// balance updates: an excluded player hears so before a short wallet.
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

// guardCount moves the counters of the flows guardCheck admitted (step 3),
// after the balance updates, so counter rows are always locked after the
// wallet rows of the same player.
func (r *LedgerRepo) guardCount(tx *gorm.DB, flows []guardedFlow, now time.Time) error {
	for _, g := range flows {
		caps := map[protection.Period]protection.GuardCaps{}
		if g.flow.Checked() {
			caps = g.state.Caps(now)
		}
		if err := r.bumpCounters(tx, g.flow, g.state, caps, now); err != nil {
			return err
		}
		if err := playSession(tx, g.flow, now); err != nil {
			return err
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

// playSession moves the player's session of play (reality checks) by f in
// one statement, the SQL form of protection.Session.Play: a stake after
// SessionIdle without one starts a new session, a return counts while the
// session goes on. It runs after the counters, so the row is locked after
// the wallet's.
func playSession(tx *gorm.DB, f protection.Flow, now time.Time) error {
	nowUs := now.UnixMicro()
	cut := now.Add(-protection.SessionIdle).UnixMicro()
	var err error
	switch f.Kind {
	case protection.FlowStake:
		err = tx.Exec(`INSERT INTO protection_sessions (user_id, session_no, started_us, last_play_us, stakes, returned, checks)
			VALUES (?, 1, ?, ?, ?, 0, 0)
			ON CONFLICT (user_id) DO UPDATE SET
				session_no = CASE WHEN protection_sessions.last_play_us < ? THEN protection_sessions.session_no + 1 ELSE protection_sessions.session_no END,
				started_us = CASE WHEN protection_sessions.last_play_us < ? THEN excluded.started_us ELSE protection_sessions.started_us END,
				stakes = CASE WHEN protection_sessions.last_play_us < ? THEN excluded.stakes ELSE protection_sessions.stakes + excluded.stakes END,
				returned = CASE WHEN protection_sessions.last_play_us < ? THEN 0 ELSE protection_sessions.returned END,
				checks = CASE WHEN protection_sessions.last_play_us < ? THEN 0 ELSE protection_sessions.checks END,
				last_play_us = excluded.last_play_us`,
			f.UserID, nowUs, nowUs, int64(f.Amount), cut, cut, cut, cut, cut).Error
	case protection.FlowReturn:
		err = tx.Exec(`UPDATE protection_sessions SET returned = returned + ? WHERE user_id = ? AND last_play_us >= ?`,
			int64(f.Amount), f.UserID, cut).Error
	}
	if err != nil {
		return fmt.Errorf("move session of play: %w", err)
	}
	return nil
}

// bumpCounters adds f to the player's counters of the periods holding now,
// refusing (the caller's savepoint or transaction then undoes any part
// already moved) when a cap would break. The common case is one guarded
// UPDATE of the three rows; only when some row is missing (a new period)
// are those rows created and updated again.
func (r *LedgerRepo) bumpCounters(tx *gorm.DB, f protection.Flow, st protection.State, caps map[protection.Period]protection.GuardCaps, now time.Time) error {
	var dep, stake, ret int64
	switch f.Kind {
	case protection.FlowDeposit:
		dep = int64(f.Amount)
	case protection.FlowStake:
		stake = int64(f.Amount)
	case protection.FlowReturn:
		ret = int64(f.Amount)
	}
	capOf := func(p protection.Period, k protection.LimitKind) int64 {
		c, ok := caps[p]
		if !ok {
			return noCap
		}
		var v int64
		switch {
		case k == protection.DepositLimit && f.Kind == protection.FlowDeposit:
			v = c.Deposits
		case k == protection.StakeLimit && f.Kind == protection.FlowStake:
			v = c.Stakes
		case k == protection.LossLimit && f.Kind == protection.FlowStake:
			v = c.Loss
		default:
			return noCap
		}
		if v < 0 {
			return noCap
		}
		return v
	}
	starts := map[protection.Period]string{}
	for _, p := range protection.Periods {
		starts[p] = p.Start(now, r.loc).String()
	}
	update := func(periods []protection.Period) ([]string, error) {
		args := []any{dep, stake, ret, f.UserID}
		var sb strings.Builder
		for i, p := range periods {
			if i > 0 {
				sb.WriteString(" OR ")
			}
			sb.WriteString("(period = ? AND period_start = ?)")
			args = append(args, string(p), starts[p])
		}
		for _, k := range []protection.LimitKind{protection.DepositLimit, protection.StakeLimit, protection.LossLimit} {
			args = append(args, map[protection.LimitKind]int64{protection.DepositLimit: dep, protection.StakeLimit: stake, protection.LossLimit: stake}[k],
				capOf(protection.Day, k), capOf(protection.Week, k), capOf(protection.Month, k))
		}
		var got []string
		err := tx.Raw(`UPDATE protection_counters
			SET deposits = deposits + ?, stakes = stakes + ?, returned = returned + ?
			WHERE user_id = ? AND (`+sb.String()+`)
				AND deposits + ? <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
				AND stakes + ? <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
				AND stakes + ? - returned <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
			RETURNING period`, args...).Scan(&got).Error
		if err != nil {
			return nil, fmt.Errorf("move protection counters: %w", err)
		}
		return got, nil
	}
	got, err := update(protection.Periods)
	if err != nil {
		return err
	}
	if len(got) < len(protection.Periods) {
		// Rows of a new period may be missing: create them (at zero) and
		// update those not moved yet.
		var rest []protection.Period
		ins := []any{}
		for _, p := range protection.Periods {
			if !slices.Contains(got, string(p)) {
				rest = append(rest, p)
				ins = append(ins, f.UserID, string(p), starts[p])
			}
		}
		values := strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(rest)), ", ")
		if err := tx.Exec(`INSERT INTO protection_counters (user_id, period, period_start) VALUES `+values+`
			ON CONFLICT (user_id, period, period_start) DO NOTHING`, ins...).Error; err != nil {
			return fmt.Errorf("create protection counters: %w", err)
		}
		more, err := update(rest)
		if err != nil {
			return err
		}
		got = append(got, more...)
	}
	if len(got) == len(protection.Periods) {
		return nil
	}
	counters, err := readCounters(tx, f.UserID, now, r.loc)
	if err != nil {
		return err
	}
	// The periods whose guard held were updated (the savepoint or
	// transaction undoes them with the refusal); take f back out of them so
	// Decide sees the counters as they were before f.
	for _, p := range got {
		c := counters[protection.Period(p)]
		c.Deposits -= money.Amount(dep)
		c.Stakes -= money.Amount(stake)
		c.Returns -= money.Amount(ret)
		counters[protection.Period(p)] = c
	}
	if err := protection.Decide(f, st, counters, now); err != nil {
		return err
	}
	return errs.R(errs.Conflict, protection.StakeLimit.Reason(), "a limit you set does not allow this now")
}

// counterRow is a row of protection_counters.
type counterRow struct {
	Period      string
	PeriodStart string
	Deposits    int64
	Stakes      int64
	Returned    int64
}

// readCounters reads the user's counters of the periods holding at.
func readCounters(tx *gorm.DB, userID int64, at time.Time, loc *time.Location) (protection.Counters, error) {
	starts := make([]any, 0, 7)
	starts = append(starts, userID)
	for _, p := range protection.Periods {
		starts = append(starts, string(p), p.Start(at, loc).String())
	}
	var rows []counterRow
	err := tx.Raw(`SELECT period, period_start, deposits, stakes, returned FROM protection_counters
		WHERE user_id = ? AND ((period = ? AND period_start = ?) OR (period = ? AND period_start = ?) OR (period = ? AND period_start = ?))`,
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
