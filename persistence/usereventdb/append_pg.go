package usereventdb

// Append on Postgres: one statement, so one round trip and one commit.
//
// Every batch of the bet intake appends its players' BET_ACCEPTED and
// BALANCE_CHANGED here. Through GORM that was a transaction of a round
// trip per player (the counter's upsert), one for the rows and two for
// BEGIN and COMMIT, and it took a fifth of the server's CPU under the bet
// load (docs/bench/2026-12-06-bets-2.md). Here the counters' upsert and the
// rows' insert are one data-modifying statement, which is its own
// transaction: the counters' rows are taken in user id order (the insert
// takes its rows in the order given) and held until it commits, so a
// user's events still commit in seq order and two appends never wait on
// each other in a cycle.
//
// A stored event's data is its encoding with its seq (Encode, seq first,
// omitted when 0). The seq is known only inside the statement, so the
// statement is handed each event encoded without it and writes
// '{"seq":N,' before the rest: the same bytes (TestAppendPGStoresEncode).

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/pokertote/pokertote/persistence/sqldb"
)

// pgAppend appends events ($1 users, $2 times, $3 data encoded with seq 0)
// and answers each stored row's user and seq. Within a user the seqs are
// given in the order of the arrays.
const pgAppend = `WITH v AS (
	SELECT u, at, d, ord FROM unnest($1::bigint[], $2::timestamptz[], $3::text[]) WITH ORDINALITY AS v(u, at, d, ord)
), n AS (
	INSERT INTO user_event_seqs AS s (user_id, last_seq)
	SELECT u, count(*) FROM v GROUP BY u ORDER BY u
	ON CONFLICT (user_id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq
	RETURNING user_id, last_seq
), e AS (
	SELECT v.u, n.last_seq - count(*) OVER (PARTITION BY v.u) + row_number() OVER (PARTITION BY v.u ORDER BY v.ord) AS seq, v.at, v.d, v.ord
	FROM v JOIN n ON n.user_id = v.u
)
INSERT INTO user_events (user_id, seq, at, data)
SELECT u, seq, at, '{"seq":' || seq || ',' || substr(d, 2) FROM e ORDER BY ord
RETURNING user_id, seq`

// PGAppend is the statement that appends events on Postgres: its
// arguments are PGAppendArgs', its rows each stored event's user and seq
// (read them with Seqs). A transaction that runs it holds its players'
// counters' rows (taken in user id order) until it ends, so it may run
// inside another transaction: the bet batch appends its players' events
// with the bets (persistence/totedb), and they commit or roll back
// together.
const PGAppend = pgAppend

// PGAppendArgs are PGAppend's arguments for evs: the users, the times and
// each event encoded without its seq.
func PGAppendArgs(evs []Pending) (users []int64, at []time.Time, data []string, err error) {
	users = make([]int64, len(evs))
	at = make([]time.Time, len(evs))
	data = make([]string, len(evs))
	for i, p := range evs {
		e := p.Event
		e.Seq = 0
		enc := string(e.Encode())
		if !strings.HasPrefix(enc, `{"`) {
			return nil, nil, nil, fmt.Errorf("user events: an event encodes as %q", enc)
		}
		users[i], at[i], data[i] = p.UserID, sqldb.StoredTime(p.Event.At), enc
	}
	return users, at, data, nil
}

// Seqs reads PGAppend's rows and sets the seq of each of evs (the events
// it was given, in the same order).
type Seqs struct {
	first  map[int64]int64 // user -> the lowest seq stored for them
	stored int
	u, seq int64
}

// Scan reads PGAppend's rows.
func (s *Seqs) Scan(rows pgx.Rows) error {
	s.first = map[int64]int64{}
	_, err := pgx.ForEachRow(rows, []any{&s.u, &s.seq}, func() error {
		s.stored++
		if f, ok := s.first[s.u]; !ok || s.seq < f {
			s.first[s.u] = s.seq
		}
		return nil
	})
	return err
}

// Set gives evs their seqs: a user's events got consecutive seqs in the
// order given.
func (s *Seqs) Set(evs []Pending) error {
	if s.stored != len(evs) {
		return fmt.Errorf("user events: %d of %d stored", s.stored, len(evs))
	}
	for i := range evs {
		u := evs[i].UserID
		evs[i].Event.Seq = s.first[u]
		s.first[u]++
	}
	return nil
}

// appendPG is Append on Postgres: out are the events to store, in order,
// whose seqs it sets.
func (r *Repo) appendPG(ctx context.Context, out []Pending) error {
	users, at, data, err := PGAppendArgs(out)
	if err != nil {
		return err
	}
	var seqs Seqs
	conn, err := r.db.SQL().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("persistence: the Postgres driver connection is a %T, not pgx's", dc)
		}
		rows, err := sc.Conn().Query(ctx, pgAppend, users, at, data)
		if err != nil {
			return err
		}
		return seqs.Scan(rows)
	})
	if errors.Is(err, driver.ErrBadConn) {
		return fmt.Errorf("user events: %w", err)
	}
	if err != nil {
		return err
	}
	return seqs.Set(out)
}
