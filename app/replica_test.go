package app_test

import (
	"bufio"
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// TestReadReplicaReads runs the server with DATABASE_READ_URL on a second,
// read-only pool to the same database (standing in for a streaming
// replica; deploy/ha gives the real one) and follows the reads per pool on
// /metrics (a scrape itself reads the tables on the primary, so only the
// replica's count is exact): a player's mutation leaves in Redis the
// primary's WAL position at or past its commit (read-your-writes), and
// their history right after it is read on the read pool, whose sessions,
// on a primary, have every commit (TestReadAfterWritePosition in
// persistence and TestReadYourWritesOnTheStandby over deploy/ha cover a
// replica behind); public draw reads and an admin's results go to the
// replica; the balance (me) and every mutation stay on the primary, which
// they could not do otherwise (the replica's sessions refuse writes).
func TestReadReplicaReads(t *testing.T) {
	t.Parallel()
	b := backends(t)[1]
	srv, c := startServer(t, b, func(cfg *app.Config) {
		cfg.DatabaseReadURL = b.databaseURL + "&application_name=pokertote-read"
	})
	ctx := context.Background()
	pg, err := sql.Open("pgx", b.databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	opt, err := redis.ParseURL(b.redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	reads := func() (primary, replica int) {
		t.Helper()
		res, err := http.Get("http://" + srv.Addr() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "pokertote_db_plain_reads_total{") {
				continue
			}
			n, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(line, "pokertote_db_replica_behind_reads_total ") {
				continue
			}
			if strings.Contains(line, `pool="replica"`) {
				replica = int(n)
			} else {
				primary = int(n)
			}
		}
		return primary, replica
	}
	served := func(what string, run func()) (primary, replica int) {
		t.Helper()
		p0, r0 := reads()
		run()
		p1, r1 := reads()
		t.Logf("%s: %d reads on the primary, %d on the replica", what, p1-p0, r1-r0)
		return p1 - p0, r1 - r0
	}
	p := newPlayer(t, c, "500.00")
	ledger := func() { p.Client.MustDo(t, `{ myLedger(first: 5) { edges { node { amount } } } }`, nil, nil) }
	var before string
	if err := pg.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&before); err != nil {
		t.Fatal(err)
	}
	p.Client.MustDo(t, `mutation { holdemCommit { commitment } }`, nil, nil) // the player's own write
	stored, err := rdb.Get(ctx, b.redisPrefix+"wal:"+p.ID).Result()
	if err != nil {
		t.Fatalf("no write position of the player in Redis after their mutation: %v", err)
	}
	pos, err := strconv.ParseUint(stored, 16, 64)
	start, perr := sqldb.ParseLSN(before)
	if err != nil || perr != nil || sqldb.LSN(pos) < start {
		t.Fatalf("the player's write position %q is before the WAL position %s taken before the write (%v, %v)", stored, before, err, perr)
	}
	if _, r := served("myLedger right after the player's write", ledger); r == 0 {
		t.Fatal("a player's history right after their write was not read on the read pool, which has it")
	}
	if _, r := served("me (balance)", func() { p.balance(t) }); r != 0 {
		t.Fatalf("the balance read %d times on the replica", r)
	}
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	tableID := createTable(t, admin, unique("replica"))
	if _, r := served("results and draw", func() {
		admin.MustDo(t, `query($t: ID) { results(tableId: $t, first: 5) { edges { node { id } } } }`, map[string]any{"t": tableID}, nil)
		c.MustDo(t, `{ draw(id: "1") { id } }`, nil, nil)
	}); r < 2 {
		t.Fatalf("results and draw read %d times on the replica, want both there", r)
	}
	if _, r := served("a mutation", func() {
		admin.MustDo(t, `mutation($t: ID!) { pauseTable(tableId: $t) { id } }`, map[string]any{"t": tableID}, nil)
	}); r != 0 {
		t.Fatalf("a mutation read %d times on the replica", r)
	}
}
