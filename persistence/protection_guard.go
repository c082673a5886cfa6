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
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/sqldb"
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
		c, err := readCounters(tx, g.flow.UserID, now, r.loc, r.db.LockSuffix(sqldb.LockExclusive))
		if err != nil {
			return err
		}
		ses, err := readSession(tx, g.flow.UserID, r.db.LockSuffix(sqldb.LockExclusive))
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

// standingRow is one row of pgBatchStanding, scanned in column order: a
// counter (Period set) or a session of play.
type standingRow struct {
	UserID                           int64
	Period                           *string
	Deposits                         *int64
	Stakes, Returned                 int64
	SessionNo, StartedUs, LastPlayUs *int64
	Checks                           *int64
}

// dest lists the row's fields in the select's column order.
func (r *standingRow) dest() []any {
	return []any{&r.UserID, &r.Period, &r.Deposits, &r.Stakes, &r.Returned, &r.SessionNo, &r.StartedUs, &r.LastPlayUs, &r.Checks}
}

// fold adds the row to the players' counters or sessions.
func (r *standingRow) fold(counters map[ids.UserID]protection.Counters, sessions map[ids.UserID]protection.Session) {
	u := ids.UserID(r.UserID)
	if r.Period == nil {
		sessions[u] = toDomainSession(sessionRow{UserID: r.UserID, SessionNo: deref(r.SessionNo), StartedUs: deref(r.StartedUs),
			LastPlayUs: deref(r.LastPlayUs), Stakes: r.Stakes, Returned: r.Returned, Checks: int(deref(r.Checks))})
		return
	}
	c := counters[u]
	if c == nil {
		c = make(protection.Counters, len(protection.Periods))
		counters[u] = c
	}
	p := protection.Period(*r.Period)
	c[p] = protection.Counter{Period: p, Deposits: money.Amount(deref(r.Deposits)), Stakes: money.Amount(r.Stakes), Returns: money.Amount(r.Returned)}
}

// deref is *p, or zero for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
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

// protectionStateSelect is the one read of players' protection state
// (issue 24): per player one row per limit (or one row without), with the
// exclusion and how many active register entries may name them (by their
// birthday, by one of their documents: the candidates registerCandidates
// reads, counted here so that the common player, with none, costs no more
// reads). The caller appends the WHERE on u.id: loadProtectionStates (GORM,
// both dialects) and the Postgres bet batch (pgBatchState, for an array of
// players), which both fold the rows with protectionStates.
const protectionStateSelect = `SELECT u.id, u.name, CAST(u.date_of_birth AS TEXT),
	e.kind, e.since, e.ends_at,
	l.kind, l.period, l.amount, l.pending, l.pending_amount, l.pending_at,
	(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.name_key <> ''
		AND r.birth_date = CAST(u.date_of_birth AS TEXT)),
	(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.document_hash <> ''
		AND r.document_hash IN (SELECT v.document_hash FROM verifications v WHERE v.user_id = u.id))
FROM users u
LEFT JOIN protection_exclusions e ON e.user_id = u.id
LEFT JOIN protection_limits l ON l.user_id = u.id
`

// registerCandidatesSelect lists the register entries that may name a
// player: the active ones with their date of birth or by one of their
// documents (the predicates of the register's two partial indexes);
// parameters: the date of birth, the user id. protection.RegisterNames
// decides which of them name the player.
const registerCandidatesSelect = `SELECT document_hash, name_key, birth_date FROM exclusion_register
		WHERE removed_at IS NULL AND (
			(name_key <> '' AND birth_date = ?)
			OR (document_hash <> '' AND document_hash IN (SELECT document_hash FROM verifications WHERE user_id = ?)))`

// playerDocumentsSelect lists the document hashes of a player's
// verifications (the docs of protection.RegisterNames); parameter: the
// user id.
const playerDocumentsSelect = `SELECT document_hash FROM verifications WHERE user_id = ? AND document_hash <> ''`

// registerCandidate is a row of registerCandidatesSelect.
type registerCandidate struct {
	DocumentHash, NameKey, BirthDate string
}

// entry is the candidate as protection.RegisterNames reads it.
func (c registerCandidate) entry() protection.RegisterEntry {
	return toDomainRegister(registerRow{DocumentHash: c.DocumentHash, NameKey: c.NameKey, BirthDate: c.BirthDate})
}

// stateRow is one row of protectionStateSelect, scanned in column order.
type stateRow struct {
	ID                int64
	Name, DateOfBirth string
	ExKind            *string
	ExSince, ExEndsAt *time.Time
	LKind, LPeriod    *string
	LAmount           *int64
	LPending          *bool
	LPendingAmount    *int64
	LPendingAt        *time.Time
	NameHits, DocHits int64
}

// dest lists the row's fields in the select's column order.
func (r *stateRow) dest() []any {
	return []any{&r.ID, &r.Name, &r.DateOfBirth, &r.ExKind, &r.ExSince, &r.ExEndsAt, &r.LKind, &r.LPeriod, &r.LAmount,
		&r.LPending, &r.LPendingAmount, &r.LPendingAt, &r.NameHits, &r.DocHits}
}

// playerState is what protectionStateSelect's rows say about one player.
type playerState struct {
	state             protection.State
	name, dob         string
	nameHits, docHits int64
}

// protectionStates folds protectionStateSelect's rows by player (add) and
// then matches the register (resolve).
type protectionStates map[int64]*playerState

// add folds one row.
func (ps protectionStates) add(row stateRow) {
	st := ps[row.ID]
	if st == nil {
		st = &playerState{name: row.Name, dob: row.DateOfBirth, nameHits: row.NameHits, docHits: row.DocHits}
		if row.ExKind != nil && row.ExSince != nil {
			st.state.Exclusion = protection.Exclusion{Kind: protection.ExclusionKind(*row.ExKind), Since: row.ExSince.UTC(), Until: sqldb.TimeOrZero(row.ExEndsAt)}
		}
		ps[row.ID] = st
	}
	if row.LKind == nil || row.LPeriod == nil {
		return
	}
	l := protection.Limit{Kind: protection.LimitKind(*row.LKind), Period: protection.Period(*row.LPeriod), PendingAt: sqldb.TimeOrZero(row.LPendingAt)}
	if row.LAmount != nil {
		l.Amount = money.Amount(*row.LAmount)
	}
	if row.LPending != nil {
		l.Pending = *row.LPending
	}
	if row.LPendingAmount != nil {
		l.PendingAmount = money.Amount(*row.LPendingAmount)
	}
	st.state.Limits = append(st.state.Limits, l)
}

// resolve sets each player's register match: for a player with
// candidates (the rare path), protection.RegisterNames on the entries and
// documents candidates reads for them (registerCandidatesSelect and
// playerDocumentsSelect run for the player).
func (ps protectionStates) resolve(candidates func(userID int64, dob string) ([]registerCandidate, []string, error)) error {
	for id, st := range ps {
		if st.nameHits == 0 && st.docHits == 0 {
			continue
		}
		rows, docs, err := candidates(id, st.dob)
		if err != nil {
			return fmt.Errorf("match the exclusion register: %w", err)
		}
		entries := make([]protection.RegisterEntry, len(rows))
		for i, c := range rows {
			entries[i] = c.entry()
		}
		var dob account.Date
		if st.dob != "" {
			// A date the register cannot hold names nobody by birthday.
			dob, _ = account.ParseDate(st.dob)
		}
		st.state.Registered = protection.RegisterNames(entries, docs, protection.NameKey(st.name), dob)
	}
	return nil
}

// loadProtectionStates reads what the guard needs about players in one
// query (and one more per player a register entry with their birthday may
// name): limits, own exclusion, and whether the register names them. A
// wallet without an account (ledger tests) has no state.
func loadProtectionStates(tx *gorm.DB, userIDs []int64) (protectionStates, error) {
	ps := protectionStates{}
	rows, err := tx.Raw(protectionStateSelect+"WHERE u.id IN ?", userIDs).Rows()
	if err != nil {
		return nil, fmt.Errorf("read protection state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var row stateRow
		if err := rows.Scan(row.dest()...); err != nil {
			return nil, fmt.Errorf("read protection state: %w", err)
		}
		ps.add(row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read protection state: %w", err)
	}
	rows.Close()
	err = ps.resolve(func(userID int64, dob string) ([]registerCandidate, []string, error) {
		var (
			rows []registerCandidate
			docs []string
		)
		if err := tx.Raw(registerCandidatesSelect, dob, userID).Scan(&rows).Error; err != nil {
			return nil, nil, err
		}
		err := tx.Raw(playerDocumentsSelect, userID).Scan(&docs).Error
		return rows, docs, err
	})
	return ps, err
}

// loadProtectionState is loadProtectionStates for one player.
func loadProtectionState(tx *gorm.DB, userID int64) (protection.State, error) {
	ps, err := loadProtectionStates(tx, []int64{userID})
	if err != nil || ps[userID] == nil {
		return protection.State{}, err
	}
	return ps[userID].state, nil
}
