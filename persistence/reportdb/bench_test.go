package reportdb_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/persistence/reportdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// benchBets is how many bets the benchmark's 90 days hold.
const benchBets = 1_000_000

// benchWorld is a Postgres database holding what 1,000,000 bets over 90
// days on 10 tables leave: the feed's record of every bet and its daily
// roll-up rows, as the sequencer writes them (seeded with
// generate_series: the sequencer itself is tested elsewhere).
func benchWorld(b *testing.B) *sqldb.DB {
	db := sqldbtest.Open(b, "postgres")
	{
		g := db.Gorm()
		for _, q := range []string{
			`INSERT INTO regulator_feed (seq, type, at, day, item, game, amount, user_id, transfer_id, data)
			 SELECT i, 'regulator.bet.accepted', timestamptz '2026-09-01 00:00+05' + i * interval '7.776 seconds',
			   to_char((timestamptz '2026-09-01 00:00+05' + i * interval '7.776 seconds') AT TIME ZONE 'Asia/Almaty', 'YYYY-MM-DD'),
			   'BET_ACCEPTED', 'TOTE', 100 + i % 5000, 1 + i % 20000, i, '{}'
			 FROM generate_series(1, BETS) AS i`,
			`INSERT INTO report_daily (day, game, table_id, bets, handle, payouts, refunds, commission)
			 SELECT day, 'TOTE', 1 + seq % 10, COUNT(*), SUM(amount), SUM(amount) * 8 / 10, 0, SUM(amount) / 10
			 FROM regulator_feed GROUP BY day, 1 + seq % 10`,
			`ANALYZE`,
		} {
			if err := g.Exec(strings.ReplaceAll(q, "BETS", strconv.Itoa(benchBets))).Error; err != nil {
				b.Fatalf("seed: %v", err)
			}
		}
	}
	return db
}

// tenTables is the store with the benchmark's ten tables (the seed writes
// no tote_tables rows: the report needs only their ids and names).
type tenTables struct{ *reportdb.Repo }

func (tenTables) Tables(context.Context) ([]report.Table, error) {
	var out []report.Table
	for i := int64(1); i <= 10; i++ {
		out = append(out, report.Table{ID: i, Name: "T"})
	}
	return out, nil
}

// BenchmarkReports90Days seeds the 90 days once and measures, in the same
// run: the daily report, the top players, and the reference.
func BenchmarkReports90Days(b *testing.B) {
	db := benchWorld(b)
	b.Run("daily", func(b *testing.B) { benchDaily(b, db) })
	b.Run("topPlayers", func(b *testing.B) { benchTopPlayers(b, db) })
	b.Run("scanBetsReference", func(b *testing.B) { benchScanBets(b, db) })
}

// benchDaily: the daily report of 90 days over 1,000,000 bets (10
// tables), from the roll-up.
func benchDaily(b *testing.B, db *sqldb.DB) {
	svc := report.NewService(tenTables{reportdb.New(db)}, almaty)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rows, err := svc.Daily(ctx, "2026-09-01", "2026-11-29", report.Filter{})
		if err != nil || len(rows) != 90*13 {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
	}
}

// benchTopPlayers: the biggest losers of 90 days, aggregated from the
// feed's 1,000,000 records.
func benchTopPlayers(b *testing.B, db *sqldb.DB) {
	svc := report.NewService(reportdb.New(db), almaty)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := svc.TopPlayers(ctx, "2026-09-01", "2026-11-29", false, 10); err != nil {
			b.Fatal(err)
		}
	}
}

// benchScanBets is the reference measured in the same run: one pass over
// the 1,000,000 bets' records summing the handle per day, what a report
// that read the bets would cost at the least.
func benchScanBets(b *testing.B, db *sqldb.DB) {
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		var rows []struct {
			Day    string
			Handle int64
		}
		if err := db.Gorm().WithContext(ctx).Raw(`SELECT day, SUM(amount) AS handle FROM regulator_feed WHERE item = 'BET_ACCEPTED' GROUP BY day`).Scan(&rows).Error; err != nil || len(rows) < 90 {
			b.Fatalf("%d days, %v", len(rows), err)
		}
	}
}
