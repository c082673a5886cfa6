package app_test

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// TestRestoreDrill is the restore drill of docs/operations.md on a scratch
// cluster (deploy/backup/drill-cluster.sh: its own port and folder, backed
// up by pgBackRest as production is): a full backup, a draw played and
// settled, a second draw begun, the point in time noted once its first
// round's bets are in, the second draw settled, then the cluster restored
// to that point and a server started on it:
//   - the restored database has the first settlement, and the second draw
//     with its first bets but not its settlement;
//   - no draw is half-settled (a settled draw has no open bet, an unsettled
//     one no settled bet) and the ledger reconciles;
//   - every settled draw's result still verifies;
//   - the outbox resumes: the table's events go on from the last seq the
//     restored database holds, with no gap, and the dealer finishes the
//     interrupted draw and settles a new one.
func TestRestoreDrill(t *testing.T) {
	testenv.SkipShort(t, "backs a scratch Postgres cluster up, plays draws and restores it")
	t.Parallel()
	needTool(t, "pgbackrest", "sudo apt-get install -y pgbackrest")
	redisURL, prefix := testenv.Redis(t)
	dir := drillCluster(t)
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%s/pokertote?sslmode=disable", readFile(t, filepath.Join(dir, "port")))
	b := backend{name: "drill", databaseURL: url, redisURL: redisURL, redisPrefix: prefix}

	clk := clocktest.NewSkipping()
	_, c, stop := startStoppable(t, b, onClock(clk))
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	players := []player{newPlayer(t, c, "100000.00"), newPlayer(t, c, "100000.00")}
	tableID := createLongTable(t, admin, unique("drill"))
	events := watch(t, c, tableID)
	first, _ := playDraw(t, clk, events, players, 3*time.Minute)
	// The point in time: in the middle of the second draw, once its first
	// round's bets are in.
	target := ""
	second, _ := playDrawWith(t, clk, events, players, 3*time.Minute, func(tableEvent) {
		if target == "" {
			target = pointInTime(t, url)
		}
	})
	if err := <-stop(); err != nil {
		t.Fatalf("server stopped with %v", err)
	}

	drill(t, "archive", dir)
	drill(t, "restore", dir, target)
	db := openSQL(t, url)
	for _, d := range []struct {
		id      string
		settled bool
	}{{first, true}, {second, false}} {
		var phase string
		var bets int
		if err := db.QueryRow(`SELECT phase, (SELECT count(*) FROM tote_bets WHERE draw_id = d.id) FROM tote_draws d WHERE id = $1`, d.id).Scan(&phase, &bets); err != nil {
			t.Fatalf("draw %s in the restored database: %v", d.id, err)
		}
		if (phase == "SETTLED") != d.settled || phase == "VOID" || bets == 0 {
			t.Errorf("restored to %s: draw %s is %s with %d bets, want settled %v with bets", target, d.id, phase, bets, d.settled)
		}
	}
	checkRestored(t, db, url)
	var lastSeq int64
	if err := db.QueryRow(`SELECT COALESCE(max(seq), 0) FROM tote_events WHERE table_id = $1`, tableID).Scan(&lastSeq); err != nil {
		t.Fatal(err)
	}

	// The same clock: the restored lease and round deadlines were written on
	// it, as production's are on the wall clock.
	_, c = startServer(t, b, onClock(clk))
	events = watchFrom(t, c, tableID, lastSeq)
	finishDraw(t, clk, c, events, tableID, second, lastSeq)
	for i := range players { // their tokens, signed before the backup, still hold
		cl := *players[i].Client
		cl.URL = c.URL
		players[i].Client = &cl
	}
	third, _ := playDraw(t, clk, events, players, 3*time.Minute)
	for _, d := range []string{first, third} {
		checkVerifies(t, c, d)
	}
	checkRestored(t, db, url)
	checkArchive(t, db, url)
}

// notArchived are the tables the betting records archive leaves out: the
// short-lived table events and what only a running server needs.
var notArchived = map[string]bool{
	"tote_events": true, "tote_event_retention": true, "tote_leases": true,
	"refresh_tokens": true, "refresh_families_revoked": true, "settings": true,
	"protection_counters": true, "protection_sessions": true,
	"holdem_pending_seeds": true, "api_keys": true, "goose_db_version": true,
	"webhook_endpoints": true, "webhook_cursors": true, "betting_stop": true,
	"regulator_feed_cursor": true,
	// The users' event streams (pruned like the table events) and the
	// clients' registered documents (configuration).
	"user_events": true, "user_event_seqs": true, "trusted_manifests": true,
}

// checkArchive runs deploy/backup/archive-betting-records.sh on the
// database: its dump holds the data of every table but notArchived (so a
// new table must be put on one side or the other) and none of those.
func checkArchive(t *testing.T, db *sql.DB, url string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("../deploy/backup/archive-betting-records.sh")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+url, "ARCHIVE_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("archive-betting-records.sh: %v\n%s", err, out)
	}
	dumps, _ := filepath.Glob(filepath.Join(dir, "betting-records-*.dump"))
	if len(dumps) != 1 {
		t.Fatalf("archive wrote %v, want one dump", dumps)
	}
	list, err := exec.Command("pg_restore", "--list", dumps[0]).Output()
	if err != nil {
		t.Fatalf("pg_restore --list: %v", err)
	}
	rows, err := db.Query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(list), " TABLE DATA public "+name+" ")
		if has == notArchived[name] {
			t.Errorf("table %s: in the betting records archive %v, want %v", name, has, !notArchived[name])
		}
	}
}

// drillCluster makes a scratch cluster under a folder the postgres user
// can reach (the drill runs as it when the test runs as root) and removes
// it when the test ends.
func drillCluster(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "pokertote-drill-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "cluster")
	t.Cleanup(func() {
		drill(t, "stop", dir)
		_ = os.RemoveAll(base)
	})
	_, port, _ := net.SplitHostPort(freeAddr(t))
	drill(t, "init", dir, port)
	return dir
}

func drill(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("../deploy/backup/drill-cluster.sh", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("drill-cluster.sh %v: %v\n%s", args, err, out)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(bytesTrim(b))
}

func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

func openSQL(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// pointInTime is the database's clock between two commits: what came
// before is restored, what comes after is not.
func pointInTime(t *testing.T, url string) string {
	t.Helper()
	db := openSQL(t, url)
	time.Sleep(200 * time.Millisecond)
	var at string
	if err := db.QueryRow(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`).Scan(&at); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	return at
}

// checkRestored: no draw half-settled, and the ledger reconciles.
func checkRestored(t *testing.T, db *sql.DB, url string) {
	t.Helper()
	// Settling writes a rate per selection, not each bet: a settled draw
	// has one for every selection bet on, an unfinished one has none.
	var half int
	if err := db.QueryRow(`SELECT
		(SELECT count(*) FROM tote_bets b JOIN tote_draws d ON d.id = b.draw_id
		  WHERE d.phase = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM tote_selection_results r
		    WHERE r.draw_id = b.draw_id AND r.round = b.round AND r.market = b.market AND r.selection = b.selection))
		+ (SELECT count(*) FROM tote_selection_results r JOIN tote_draws d ON d.id = r.draw_id
		  WHERE d.phase NOT IN ('SETTLED', 'VOID'))`).Scan(&half); err != nil {
		t.Fatal(err)
	}
	if half != 0 {
		t.Errorf("%d bets or selections are half-settled", half)
	}
	ctx := context.Background()
	sdb, err := sqldb.Open(ctx, sqldb.Options{DatabaseURL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if err := ledgerdb.New(sdb).Reconcile(ctx); err != nil {
		t.Errorf("the restored ledger: %v", err)
	}
}

// finishDraw lets the dealer of the restored database finish the draw that
// was open at the point in time (no more bets), checking that the events
// go on from lastSeq with no gap.
func finishDraw(t *testing.T, clk *clocktest.Skipping, c *gqltest.Client, events <-chan tableEvent, tableID, drawID string, lastSeq int64) {
	t.Helper()
	var tb struct {
		Table struct {
			CurrentDraw struct{ RoundClosesAt *time.Time }
		}
	}
	c.MustDo(t, `query($t: ID!) { table(id: $t) { currentDraw { roundClosesAt } } }`, map[string]any{"t": tableID}, &tb)
	skipRound(clk, tb.Table.CurrentDraw.RoundClosesAt)
	timeout := time.After(2 * time.Minute)
	for seq := lastSeq; ; {
		select {
		case <-timeout:
			t.Fatalf("draw %s did not finish within 2 minutes of the restore", drawID)
		case e, ok := <-events:
			if !ok {
				t.Fatal("event stream ended")
			}
			if e.Seq != seq+1 {
				t.Fatalf("after the restore: event seq %d follows %d", e.Seq, seq)
			}
			seq = e.Seq
			switch {
			case e.Type == "ROUND_OPENED" && e.DrawID == drawID:
				skipRound(clk, e.ClosesAt)
			case (e.Type == "DRAW_SETTLED" || e.Type == "DRAW_VOIDED") && e.DrawID == drawID:
				return
			}
		}
	}
}

// checkVerifies: the draw's result verifies (commitment, cards, payouts,
// beacon).
func checkVerifies(t *testing.T, c *gqltest.Client, drawID string) {
	t.Helper()
	var v struct {
		VerifyDraw struct {
			CommitmentValid, CardsMatch, PayoutsMatch, BeaconsValid bool
			Problems                                                []string
		}
	}
	c.MustDo(t, `query($d: ID!) { verifyDraw(id: $d) { commitmentValid cardsMatch payoutsMatch beaconsValid problems } }`, map[string]any{"d": drawID}, &v)
	if vd := v.VerifyDraw; !vd.CommitmentValid || !vd.CardsMatch || !vd.PayoutsMatch || !vd.BeaconsValid || len(vd.Problems) > 0 {
		t.Errorf("after the restore, verifyDraw(%s): %+v", drawID, vd)
	}
}
