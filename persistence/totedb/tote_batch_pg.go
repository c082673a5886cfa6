package totedb

// The bet intake's Postgres fast path (tote.BatchPlacer): a batch of bets in
// two network round trips, on the pool's own pgx connection.
//
// Through database/sql and GORM a batch of bets costs a round trip per
// statement, many per bet, and the pool's escrow row stays locked from the
// first stake's balance update to the commit, so the batches of one draw
// queue on it for most of their transaction (the profile is in
// docs/bench/2026-12-01-bets.md). Here the batch is:
//
//  1. one pipeline (one network flush): BEGIN; the draw's shared advisory
//     lock; the draw and its table (read after the lock, each statement with
//     its own snapshot, so the round-close race is exactly as in LockDraw;
//     the draw's chances are parsed only when their text changes,
//     chancesCache);
//     bet ids from the sequence; the players for the stake gate; then the
//     players' wallets, locked FOR UPDATE in the ledger's order; their
//     protection state (exclusion, register, limits), read after the
//     wallets' locks (an exclusion is set holding the wallet);
//     their counters of the current periods and their sessions of play,
//     locked after the wallets (the guard's lock order) in one statement;
//  2. in memory, tote.PlanBatch on that snapshot (tote.BatchSnapshot): in
//     request order, exactly the checks a single post makes: the domain's
//     checks (draw, table, stake), the key (DUPLICATE_BET), the transfer's
//     Validate, protection.Excluded, ledger.Apply on the wallet's balance
//     (INSUFFICIENT_FUNDS), then protection.Admit on the counters and the
//     session as the earlier stakes of the batch left them (the limit that
//     breaks, by name; the counters and session after the stake); a refused
//     stake moves nothing and stores no bet;
//  3. one pipeline writing the plan: a data-modifying CTE that inserts the
//     bets, the transfers,
//     sets the wallets' balances, adds each escrow's total with one upsert
//     (the hot row is locked only here, for this statement and the COMMIT
//     sent with it), inserts the entries (escrow balances after each entry
//     derived from the row the upsert returned, entry ids drawn after the
//     lock), stores the counters and the sessions of play as Admit left
//     them (no rule in the SQL); then COMMIT.
//
// Keys are not looked up first: a bet's key is new in all but a client's
// retry, and the unique index (user, key) checks every insert anyway. A
// batch meeting a taken key (a retry, or two batches placing one new key at
// once) fails statement 3 on that index and runs again at once, this time
// reading the requests' taken keys in round trip 1 (DUPLICATE_BET for
// those, the others placed). A lookup on every batch would be its
// costliest read and grow with the table: its plan, cached per connection
// while the table was small, scans every bet of the table
// (docs/bench/2026-12-01-bets.md, third pass). Deadlocks and serialization failures are retried the same way
// as sqldb.RetryTx does. A COMMIT whose outcome is unknown is errs.CommitUnknown.
//
// These statements bypass GORM (and so its statement counter and SQL spans)
// and use pgx directly: on the bet path each statement's overhead is
// paid by every batch of a surge (docs/bets-load.md).

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

var _ tote.BatchPlacer = (*Repo)(nil)

// ReadsPlayers implements tote.BatchPlacer: the Postgres fast path reads
// the players with the draw; SQLite's batch leaves the stake gate to run
// before it.
func (r *Repo) ReadsPlayers() bool { return r.db.Dialect() == sqldb.Postgres }

// The statements of the fast path. Their text does not depend on the
// batch's size (arrays), so pgx prepares each once per connection.
const (
	pgBatchIDs = `SELECT nextval('tote_bets_id_seq') FROM generate_series(1, $1)`
	// One probe of the unique index per key (LATERAL … LIMIT 1 keeps the
	// planner from a hash join over the whole table, which a plan cached
	// while the table was small kept choosing as it grew).
	pgBatchTaken = `SELECT k.u, k.key FROM unnest($1::bigint[], $2::text[]) AS k(u, key)
	CROSS JOIN LATERAL (SELECT 1 FROM tote_bets b WHERE b.user_id = k.u AND b.idempotency_key = k.key LIMIT 1) AS taken`
	// The protection state (protectiondb.StateSelect), for many players at once.
	pgBatchState = protectiondb.StateSelect + `WHERE u.id = ANY($1::bigint[])`
	// Wallets locked in the order given (the ledger's lock order).
	pgBatchWallets = `SELECT a.id, a.ref, a.balance FROM ledger_accounts a
JOIN unnest($1::text[]) WITH ORDINALITY AS v(ref, ord) ON a.kind = 'WALLET' AND a.ref = v.ref
ORDER BY v.ord` + sqldb.PGForUpdateOfA
	// The write: bets, transfers, wallets, escrows, entries, counters,
	// sessions of play, in one statement.
	pgBatchWrite = `WITH bets AS (
	INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
	SELECT b.id, $1, $2, b.u, $3, b.m, b.s, b.st, 'ACCEPTED', 0, b.k, $4
	FROM unnest($5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::bigint[], $10::text[]) WITH ORDINALITY AS b(id, u, m, s, st, k, ord)
	ORDER BY b.ord
	RETURNING id
), tr AS (
	INSERT INTO ledger_transfers (idempotency_key, request_hash, kind, memo, created_at)
	SELECT t.k, t.h, t.kd, t.m, $11 FROM unnest($12::text[], $13::bytea[], $14::text[], $15::text[]) WITH ORDINALITY AS t(k, h, kd, m, ord)
	ORDER BY t.ord
	RETURNING id, idempotency_key
), wal AS (
	UPDATE ledger_accounts a SET balance = v.b FROM unnest($16::bigint[], $17::bigint[]) AS v(id, b)
	WHERE a.id = v.id RETURNING a.id
), esc AS (
	INSERT INTO ledger_accounts (kind, ref, balance)
	SELECT 'ESCROW', v.ref, v.amt FROM unnest($18::text[], $19::bigint[]) WITH ORDINALITY AS v(ref, amt, ord) ORDER BY v.ord
	ON CONFLICT (kind, ref) DO UPDATE SET balance = ledger_accounts.balance + excluded.balance
	RETURNING id, ref, balance
), ent AS (
	INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after, created_at)
	SELECT tr.id, COALESCE(esc.id, e.acc), e.amt, COALESCE(esc.balance - e.tail, e.aft), $11
	FROM unnest($20::text[], $21::bigint[], $22::text[], $23::bigint[], $24::bigint[], $25::bigint[]) WITH ORDINALITY AS e(k, acc, ref, amt, aft, tail, ord)
	JOIN tr ON tr.idempotency_key = e.k
	LEFT JOIN esc ON esc.ref = e.ref
	ORDER BY e.ord
	RETURNING id, transfer_id, account_id, balance_after
), cnt AS (
	INSERT INTO protection_counters AS c (user_id, period, period_start, deposits, stakes, returned)
	SELECT v.u, v.p, v.ps, v.d, v.st, v.r FROM unnest($26::bigint[], $27::text[], $28::text[], $29::bigint[], $30::bigint[], $31::bigint[]) WITH ORDINALITY AS v(u, p, ps, d, st, r, ord)
	ORDER BY v.ord
	ON CONFLICT (user_id, period, period_start) DO UPDATE SET deposits = excluded.deposits, stakes = excluded.stakes, returned = excluded.returned
	RETURNING 1
), ses AS (
	INSERT INTO protection_sessions AS s (user_id, session_no, started_us, last_play_us, stakes, returned, checks)
	SELECT v.u, v.n, v.su, v.lu, v.st, v.r, v.c FROM unnest($32::bigint[], $33::bigint[], $34::bigint[], $35::bigint[], $36::bigint[], $37::bigint[], $38::int[]) WITH ORDINALITY AS v(u, n, su, lu, st, r, c, ord)
	ORDER BY v.ord
	ON CONFLICT (user_id) DO UPDATE SET session_no = excluded.session_no, started_us = excluded.started_us,
		last_play_us = excluded.last_play_us, stakes = excluded.stakes, returned = excluded.returned, checks = excluded.checks
	RETURNING 1
)
SELECT ent.id, ent.transfer_id, ent.account_id, ent.balance_after,
	(SELECT count(*) FROM bets), (SELECT count(*) FROM wal), (SELECT count(*) FROM cnt), (SELECT count(*) FROM ses)
FROM ent ORDER BY ent.id`
)

// columnsOf lists the columns of row type T as GORM maps them (the same
// names pgx.RowToStructByName matches), so the fast path reads exactly the
// columns the GORM reads of the same rows do; the columns named in nulls
// are read as NULL (text).
func (r *Repo) columnsOf(model any, alias string, nulls ...string) (string, error) {
	stmt := &gorm.Statement{DB: r.db.Gorm()}
	if err := stmt.Parse(model); err != nil {
		return "", fmt.Errorf("persistence: columns of %T: %w", model, err)
	}
	cols := make([]string, len(stmt.Schema.DBNames))
	for i, c := range stmt.Schema.DBNames {
		cols[i] = alias + "." + c
		if slices.Contains(nulls, c) {
			cols[i] = "CAST(NULL AS TEXT) AS " + c
		}
	}
	return strings.Join(cols, ", "), nil
}

// batchQueries are the fast path's reads whose column lists come from the
// row types; built once per repository.
type batchQueries struct {
	draw, table, users, verifications string
}

// The fast path's statements with their column lists, built once (GORM's
// naming is the same for every database).
var (
	batchOnce sync.Once
	batchQ    batchQueries
	batchErr  error
)

func (r *Repo) batchSQL() (batchQueries, error) {
	batchOnce.Do(func() {
		var q batchQueries
		user, verification := accountdb.PlayerModels()
		cols := map[string]any{"t": &toteTableRow{}, "u": user, "v": verification}
		list := map[string]string{}
		for alias, m := range cols {
			c, err := r.columnsOf(m, alias)
			if err != nil {
				batchErr = err
				return
			}
			list[alias] = c
		}
		// The batch's checks read no odds, result or beacons (PlanBatch), so
		// a batch does not read or decode their JSON.
		draw, err := r.columnsOf(&toteDrawRow{}, "d", "odds", "result", "beacons")
		if err != nil {
			batchErr = err
			return
		}
		q.draw = "SELECT " + draw + " FROM tote_draws d WHERE d.id = $1"
		q.table = "SELECT " + list["t"] + " FROM tote_tables t JOIN tote_draws d ON d.table_id = t.id WHERE d.id = $1"
		q.users = "SELECT " + list["u"] + " FROM users u WHERE u.id = ANY($1::bigint[])"
		// Each player's latest verification, as UserRepo.Verification.
		q.verifications = "SELECT DISTINCT ON (v.user_id) " + list["v"] + " FROM verifications v WHERE v.user_id = ANY($1::bigint[]) ORDER BY v.user_id, v.id DESC"
		batchQ = q
	})
	return batchQ, batchErr
}

// errBetKeyRace is reported (as a serialization failure, so the batch runs
// again) when a key of the batch was taken between its reads and its write.
var errBetKeyRace = &pgconn.PgError{Code: "40001", Message: "a key of the bet batch was taken meanwhile; the batch is run again"}

// PlaceBatch implements tote.BatchPlacer; see the top of this file (and
// tote_batch_sqlite.go for SQLite).
func (r *Repo) PlaceBatch(ctx context.Context, w tote.BatchWork) ([]tote.BatchResult, error) {
	if r.db.Dialect() != sqldb.Postgres {
		return r.placeBatchSQLite(ctx, w)
	}
	var (
		res    []tote.BatchResult
		lookup bool // read the taken keys (after a batch met one)
	)
	err := sqldb.Retry(ctx, r.db, "bet batch", func() (bool, error) {
		var err error
		res, err = r.placeBatchOnce(ctx, w, lookup)
		if errors.Is(err, errBetKeyRace) && !lookup {
			// A taken key, not contention: again at once, reading the keys.
			lookup = true
			return true, err
		}
		return false, err
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "bet")
	}
	return res, nil
}

// placeBatchOnce is one attempt of PlaceBatch on one pooled connection.
func (r *Repo) placeBatchOnce(ctx context.Context, w tote.BatchWork, lookup bool) ([]tote.BatchResult, error) {
	conn, err := r.db.SQL().Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var res []tote.BatchResult
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("persistence: the Postgres driver connection is a %T, not pgx's", dc)
		}
		pc := sc.Conn()
		var txErr error
		res, txErr = r.placeBatchTx(ctx, pc, w, lookup)
		if pc.PgConn().TxStatus() != 'I' {
			// Whatever failed left the transaction open: end it, or give
			// the connection up.
			if _, rbErr := pc.Exec(ctx, "ROLLBACK"); rbErr != nil {
				return errors.Join(txErr, rbErr, driver.ErrBadConn)
			}
		}
		return txErr
	})
	if errors.Is(err, driver.ErrBadConn) {
		// The pool drops the connection; the error still says why.
		return nil, fmt.Errorf("bet batch: %w", err)
	}
	return res, err
}

// placeBatchTx runs the transaction of one attempt on pc, reading the
// requests' taken keys if lookup. It leaves the transaction open only on
// error (the caller rolls it back).
func (r *Repo) placeBatchTx(ctx context.Context, pc *pgx.Conn, w tote.BatchWork, lookup bool) ([]tote.BatchResult, error) {
	n := len(w.Requests)
	users := w.Users()
	led := r.led
	now := sqldb.StoredTime(led.Now())
	starts := map[protection.Period]string{}
	for _, p := range protection.Periods {
		starts[p] = p.Start(now, led.Location()).String()
	}
	uniq := make([]int64, n) // the user ids as the SQL reads them
	for i, u := range users {
		uniq[i] = int64(u)
	}
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	walletRefs := make([]string, len(uniq))
	for i, u := range uniq {
		walletRefs[i] = ledger.UserWallet(ids.UserID(u)).Ref
	}
	slices.SortFunc(walletRefs, func(a, b string) int {
		return ledgerdb.LockCompare(ledger.AccountRef{Kind: ledger.Wallet, Ref: a}, ledger.AccountRef{Kind: ledger.Wallet, Ref: b})
	})

	q, err := r.batchSQL()
	if err != nil {
		return nil, err
	}
	// Round trip 1: lock, read, lock the wallets and counters. The reads
	// that need no lock of the batch's come before the wallets' locks, so
	// that concurrent batches of the same players wait for each other as
	// briefly as they can; the snapshot's maps are filled as the rows come.
	var (
		drawRow  toteDrawRow
		tableRow toteTableRow
		takenKey map[betKey]bool
		stateOf  = protectiondb.States{}
		walletID = make(map[int64]int64, len(uniq)) // user -> account id
		snap     = tote.BatchSnapshot{Now: now,
			Wallets:  make(map[ids.UserID]money.Amount, len(uniq)),
			Counters: make(map[ids.UserID]protection.Counters, len(uniq)),
			Sessions: make(map[ids.UserID]protection.Session, len(uniq)),
		}
	)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	// The batch's statements are prepared once per connection and their
	// shape does not depend on the arrays' lengths; left to choose, the
	// server plans the protection-state read afresh on many batches, and
	// planning it costs several times executing it (pg_stat_statements with
	// track_planning: docs/bench/2026-12-01-bets.md). For this transaction only.
	b.Queue("SET LOCAL plan_cache_mode = force_generic_plan")
	b.Queue(sqldb.PGDrawLockShared, int32(drawLockClass), int32(w.DrawID))
	b.Queue(q.draw, w.DrawID).Query(func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByName[toteDrawRow])
		if err != nil {
			return fmt.Errorf("read draw: %w", err)
		}
		if len(got) == 0 {
			return errs.R(errs.NotFound, tote.ReasonNotFound, "draw not found")
		}
		drawRow = got[0]
		return nil
	})
	b.Queue(q.table, w.DrawID).Query(func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByName[toteTableRow])
		if err != nil {
			return fmt.Errorf("read table: %w", err)
		}
		if len(got) == 0 {
			return errs.R(errs.NotFound, tote.ReasonNotFound, "table not found")
		}
		tableRow = got[0]
		return nil
	})
	b.Queue(pgBatchIDs, n).Query(func(rows pgx.Rows) error {
		var err error
		snap.BetIDs, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
	if lookup {
		takenKey = map[betKey]bool{}
		b.Queue(pgBatchTaken, users, w.Keys()).Query(func(rows pgx.Rows) error {
			var k betKey
			_, err := pgx.ForEachRow(rows, []any{&k.user, &k.key}, func() error {
				takenKey[k] = true
				return nil
			})
			return err
		})
		snap.Taken = func(u ids.UserID, key string) bool { return takenKey[betKey{int64(u), key}] }
	}
	if w.ReadPlayers() {
		// The stake gate's rows (the account, its latest verification):
		// no lock of the batch's orders them.
		snap.Players = make(map[ids.UserID]tote.Player, len(uniq))
		for _, u := range uniq {
			snap.Players[ids.UserID(u)] = tote.Player{Err: accountdb.UserNotFound()}
		}
		b.Queue(q.users, uniq).Query(func(rows pgx.Rows) error {
			got, err := accountdb.CollectUsers(rows)
			for _, u := range got {
				snap.Players[ids.UserID(u.ID)] = tote.Player{User: u}
			}
			return err
		})
		b.Queue(q.verifications, uniq).Query(func(rows pgx.Rows) error {
			got, err := accountdb.CollectVerifications(rows)
			for _, v := range got {
				if p := snap.Players[ids.UserID(v.UserID)]; p.Err == nil {
					p.Verification = v
					snap.Players[ids.UserID(v.UserID)] = p
				}
			}
			return err
		})
	}
	b.Queue(pgBatchWallets, walletRefs).Query(func(rows pgx.Rows) error {
		var (
			id, bal int64
			ref     string
		)
		_, err := pgx.ForEachRow(rows, []any{&id, &ref, &bal}, func() error {
			if u, ok := (ledger.AccountRef{Kind: ledger.Wallet, Ref: ref}).User(); ok {
				walletID[int64(u)], snap.Wallets[u] = id, money.Amount(bal)
			}
			return nil
		})
		return err
	})
	// The protection state is read after the wallets are locked: an
	// exclusion holds the wallet while it reads the clock (holdWallet), so
	// it committed before this read or starts after this batch commits.
	b.Queue(pgBatchState, uniq).Query(func(rows pgx.Rows) error {
		var row protectiondb.StateRow
		_, err := pgx.ForEachRow(rows, row.Dest(), func() error {
			stateOf.Add(row)
			return nil
		})
		return err
	})
	b.Queue(protectiondb.StandingSelectPG, uniq, starts[protection.Day], starts[protection.Week], starts[protection.Month]).Query(func(rows pgx.Rows) error {
		var row protectiondb.StandingRow
		_, err := pgx.ForEachRow(rows, row.Dest(), func() error {
			row.Fold(snap.Counters, snap.Sessions)
			return nil
		})
		return err
	})
	if err := r.db.SendBatch(ctx, pc, b, "select"); err != nil {
		return nil, err
	}
	if len(snap.BetIDs) != n {
		return nil, fmt.Errorf("bet batch: %d ids for %d bets", len(snap.BetIDs), n)
	}
	raw := drawRow.Chances
	drawRow.Chances = "" // parsed once per change, below
	d, err := toDomainDraw(drawRow)
	if err == nil {
		d.Chances, err = r.chances.parse(d.ID, raw)
	}
	if err != nil {
		return nil, errs.Wrap(err, "a stored draw is unreadable")
	}
	snap.Draw, snap.Table = d, toDomainTable(tableRow)
	// The register's rare path (a player an entry may name).
	if err := stateOf.Resolve(func(userID int64, dob string) ([]protectiondb.RegisterCandidate, []string, error) {
		rows, err := pc.Query(ctx, pgRegisterCandidates, dob, userID)
		if err != nil {
			return nil, nil, err
		}
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[protectiondb.RegisterCandidate])
		if err != nil {
			return nil, nil, err
		}
		if rows, err = pc.Query(ctx, pgPlayerDocuments, userID); err != nil {
			return nil, nil, err
		}
		docs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		return got, docs, err
	}); err != nil {
		return nil, err
	}

	// In memory: the plan (tote.PlanBatch, the rules), in request order.
	snap.States = make(map[ids.UserID]protection.State, len(stateOf))
	for u, st := range stateOf {
		snap.States[ids.UserID(u)] = st.State()
	}
	plan, err := tote.PlanBatch(w, snap)
	if err != nil {
		return nil, err
	}
	res := plan.Results
	if len(plan.Stakes) == 0 {
		if _, err := pc.Exec(ctx, "COMMIT"); err != nil {
			return nil, err
		}
		return res, nil
	}

	// Round trip 2: the write and the commit.
	wr := planRows(plan)
	args := wr.pgArgs(snap.Draw, now, walletID, starts)
	type entryBack struct{ id, transfer, account, after int64 }
	var back []entryBack
	var nBets, nWal, nCnt, nSes int64
	b = &pgx.Batch{}
	b.Queue(pgBatchWrite, args...).Query(func(rows pgx.Rows) error {
		var e entryBack
		_, err := pgx.ForEachRow(rows, []any{&e.id, &e.transfer, &e.account, &e.after, &nBets, &nWal, &nCnt, &nSes}, func() error {
			back = append(back, e)
			return nil
		})
		return err
	})
	if w.Writing != nil {
		w.Writing()
	}
	committed := false
	b.Queue("COMMIT").Exec(func(pgconn.CommandTag) error {
		committed = true
		return nil
	})
	if err := r.db.SendBatch(ctx, pc, b, "insert"); err != nil {
		switch {
		case committed:
		case sqldb.IsUniqueViolation(err):
			return nil, fmt.Errorf("bet batch: %w", errors.Join(errBetKeyRace, err))
		case len(back) > 0 && !sqldb.KnownRollback(err):
			// The write went through; the COMMIT's fate is unknown.
			return nil, errs.CommitUnknown(err)
		case !serverAnswered(err) && !pgconn.SafeToRetry(err):
			// The connection failed after the batch, COMMIT included, was
			// sent: the server may have committed it. Saying "nothing was
			// changed" would invite a retry with a new key.
			return nil, errs.CommitUnknown(err)
		default:
			return nil, err
		}
	}
	nPlayers := int64(len(wr.players))
	if len(back) != len(wr.entries) || nBets != int64(len(wr.bets)) || nWal != nPlayers || nCnt != nPlayers*int64(len(protection.Periods)) || nSes != nPlayers {
		return nil, fmt.Errorf("bet batch: the write answered %d entries, %d bets, %d wallets, %d counters, %d sessions for %d entries, %d bets, %d players",
			len(back), nBets, nWal, nCnt, nSes, len(wr.entries), len(wr.bets), nPlayers)
	}
	return res, nil
}

// serverAnswered reports whether err is the server's own error: a
// statement of the batch failed, so its transaction (and the COMMIT queued
// behind it) rolled back.
func serverAnswered(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg)
}

// chancesCache keeps the parsed chances (tote.ParseChances) of the draws
// the fast path met lately, by draw id, with the stored text each was
// parsed from. A draw's chances change only when a betting round opens,
// yet every batch reads the draw: parsing a late round's chances cost
// about half of what PlanBatch itself costs for a batch of 8 bets
// (BenchmarkParseChances and BenchmarkPlanBatch, docs/bench/2026-12-01-stake-engine.md).
// The parsed chances are shared by the batches of a draw: nothing may
// modify them.
type chancesCache struct {
	mu sync.Mutex
	m  map[int64]parsedChances
}

// parsedChances is one draw's stored chances and their parsed form.
type parsedChances struct {
	raw    string
	parsed []tote.RoundChances
}

// chancesCached bounds the draws the cache holds (all are forgotten when it
// is full: the live draws come back at their next batch).
const chancesCached = 64

// parse is tote.ParseChances(raw), parsed once while draw drawID's stored
// chances stay raw.
func (c *chancesCache) parse(drawID int64, raw string) ([]tote.RoundChances, error) {
	c.mu.Lock()
	e, ok := c.m[drawID]
	c.mu.Unlock()
	if ok && e.raw == raw {
		return e.parsed, nil
	}
	parsed, err := tote.ParseChances(raw)
	if err != nil {
		return nil, fmt.Errorf("draw id %d: %w", drawID, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= chancesCached {
		c.m = make(map[int64]parsedChances, chancesCached)
	}
	c.m[drawID] = parsedChances{raw: raw, parsed: parsed}
	return parsed, nil
}

// protectiondb's RegisterCandidatesSelect and PlayerDocumentsSelect with
// pgx's placeholders.
var (
	pgRegisterCandidates = pgParams(protectiondb.RegisterCandidatesSelect)
	pgPlayerDocuments    = pgParams(protectiondb.PlayerDocumentsSelect)
)

// pgParams numbers the ? placeholders of a statement written for GORM
// ($1, $2, ...) for pgx.
func pgParams(q string) string {
	var sb strings.Builder
	n := 0
	for _, c := range q {
		if c != '?' {
			sb.WriteRune(c)
			continue
		}
		n++
		fmt.Fprintf(&sb, "$%d", n)
	}
	return sb.String()
}

// placedAt is when the batch's bets were judged (tote.PlanBatch's clock,
// the one their round's close is checked against, published in their
// leaves), stored as placed_at; now when the plan has no bet.
func (w batchRows) placedAt(now time.Time) time.Time {
	if len(w.bets) > 0 && !w.bets[0].PlacedAt.IsZero() {
		return sqldb.StoredTime(w.bets[0].PlacedAt)
	}
	return now
}

// pgArgs are the parameters $1 to $38 of pgBatchWrite: the rows as
// arrays, one per column, for the draw d at now; walletID holds the
// players' wallet ids, starts the periods' starts.
func (w batchRows) pgArgs(d tote.Draw, now time.Time, walletID map[int64]int64, starts map[protection.Period]string) []any {
	var (
		bIDs, bUsers, bStakes         []int64
		bMarkets, bSels, bKeys        []string
		tKeys, tKinds, tMemos         []string
		tHashes                       [][]byte
		wIDs, wBals                   []int64
		escRefs                       []string
		escAmts                       []int64
		eKeys, eRefs                  []string
		eAccs, eAmts, eAfters, eTls   []int64
		cUsers, cDeps, cStakes, cRets []int64
		cPeriods, cStarts             []string
		sUsers, sNos, sStarted, sLast []int64
		sStakes, sRets                []int64
		sChecks                       []int32
	)
	for _, bet := range w.bets {
		bIDs, bUsers, bStakes = append(bIDs, bet.ID), append(bUsers, int64(bet.UserID)), append(bStakes, int64(bet.Stake))
		bMarkets, bSels, bKeys = append(bMarkets, string(bet.Selection.Market)), append(bSels, bet.Selection.String()), append(bKeys, bet.IdempotencyKey)
	}
	for _, tr := range w.transfers {
		h := tr.RequestHash()
		tKeys, tHashes, tKinds, tMemos = append(tKeys, tr.IdempotencyKey), append(tHashes, h[:]), append(tKinds, string(tr.Kind)), append(tMemos, tr.Memo)
	}
	for _, e := range w.escrows {
		escRefs, escAmts = append(escRefs, e.ref), append(escAmts, int64(e.amount))
	}
	for _, e := range w.entries {
		eKeys, eRefs, eAmts, eTls = append(eKeys, e.key), append(eRefs, e.ref), append(eAmts, int64(e.amount)), append(eTls, int64(e.tail))
		if e.ref != "" {
			eAccs, eAfters = append(eAccs, 0), append(eAfters, 0)
			continue
		}
		eAccs, eAfters = append(eAccs, walletID[int64(e.user)]), append(eAfters, int64(e.after))
	}
	for _, pl := range w.players {
		u := int64(pl.User)
		wIDs, wBals = append(wIDs, walletID[u]), append(wBals, int64(pl.Balance))
		for _, p := range protection.Periods {
			c := pl.Counters[p]
			cUsers, cPeriods, cStarts = append(cUsers, u), append(cPeriods, string(p)), append(cStarts, starts[p])
			cDeps, cStakes, cRets = append(cDeps, int64(c.Deposits)), append(cStakes, int64(c.Stakes)), append(cRets, int64(c.Returns))
		}
		// Every admitted stake plays the session (protection.Admit).
		s := pl.Session
		sUsers, sNos, sStarted, sLast = append(sUsers, u), append(sNos, s.No), append(sStarted, s.StartedAt.UnixMicro()), append(sLast, s.LastPlayAt.UnixMicro())
		sStakes, sRets, sChecks = append(sStakes, int64(s.Stakes)), append(sRets, int64(s.Returns)), append(sChecks, int32(s.Checks))
	}
	return []any{
		d.ID, d.TableID, int(d.OpenRound()), w.placedAt(now),
		bIDs, bUsers, bMarkets, bSels, bStakes, bKeys,
		now, tKeys, tHashes, tKinds, tMemos,
		wIDs, wBals,
		escRefs, escAmts,
		eKeys, eAccs, eRefs, eAmts, eAfters, eTls,
		cUsers, cPeriods, cStarts, cDeps, cStakes, cRets,
		sUsers, sNos, sStarted, sLast, sStakes, sRets, sChecks,
	}
}
