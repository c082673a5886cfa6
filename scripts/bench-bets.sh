#!/usr/bin/env bash
# bench-bets.sh: placeBet throughput against pgbench, back to back (issue 8).
#
# Creates two fresh databases on the local Postgres (one for pgbench, one for
# the server), runs pgbench tpcb-like (scale 1, i.e. one hot branch row, as one
# pool is one hot escrow row) and then cmd/loadgen's bets workload against a
# server it starts on Postgres, at each client count, and prints the ratios.
# Both sides talk plain TCP on loopback (sslmode=disable). Everything it starts
# is killed on exit. The machine is shared: read the ratios, not the absolutes.
#
#   scripts/bench-bets.sh                      # 8 and 32 clients, 20 s each
#   CLIENTS="8 32" DURATION=30 scripts/bench-bets.sh
#
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PORT
# (18080, the server), REDIS_URL (redis://127.0.0.1:6379/0), CLIENTS ("8 32"),
# DURATION (seconds, 20), PLAYERS (64), POOLS (1), OPEN_LOOP (1: also an
# open-loop run at half the last closed-loop rate).
set -euo pipefail

PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
PGUSER=${PGUSER:-postgres}
PORT=${PORT:-18080}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
CLIENTS=${CLIENTS:-"8 32"}
DURATION=${DURATION:-20}
PLAYERS=${PLAYERS:-64}
POOLS=${POOLS:-1}
OPEN_LOOP=${OPEN_LOOP:-1}
BENCH_DB=${BENCH_DB:-pokertote_bench_bets}
PGBENCH_DB=${PGBENCH_DB:-pokertote_bench_pgbench}
export PGHOST PGPORT PGUSER PGSSLMODE=disable

cd "$(dirname "$0")/.."
work=$(mktemp -d)
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "building server and loadgen..."
go build -o "$work/server" ./cmd/server
go build -o "$work/loadgen" ./cmd/loadgen

for db in "$BENCH_DB" "$PGBENCH_DB"; do
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
done
pgbench -i -q -s 1 "$PGBENCH_DB" >/dev/null 2>&1

export ADMIN_EMAIL=bench-admin@example.com ADMIN_PASSWORD=bench-admin-password-1
DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$BENCH_DB?sslmode=disable" REDIS_URL="$REDIS_URL" \
	ADDR="127.0.0.1:$PORT" DEMO_TABLES=false LOG_LEVEL=warn \
	"$work/server" >"$work/server.log" 2>&1 &
server_pid=$!
url="http://127.0.0.1:$PORT/query"
for _ in $(seq 1 100); do
	if curl -fsS -H 'Content-Type: application/json' -d '{"query":"{__typename}"}' "$url" >/dev/null 2>&1; then break; fi
	sleep 0.2
done

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) CPUs, load average before: $load"
printf '\n%-8s %-14s %-10s %-14s %-10s %-10s %-8s\n' clients pgbench_tps pg_avg_ms bets_per_s p50_ms p99_ms ratio
rows=()
last_rate=0
for c in $CLIENTS; do
	pg=$(pgbench -n -c "$c" -j 2 -T "$DURATION" -b tpcb-like "$PGBENCH_DB" 2>/dev/null | tee "$work/pgbench-$c.txt" | awk '/^tps =/{print $3}')
	pglat=$(awk '/^latency average/{print $4}' "$work/pgbench-$c.txt")
	out=$("$work/loadgen" bets -url "$url" -players "$PLAYERS" -clients "$c" -pools "$POOLS" -duration "${DURATION}s" | tee "$work/loadgen-$c.txt" | awk '/^RESULT/')
	rate=$(sed -E 's/.*accepted_per_s=([0-9.]+).*/\1/' <<<"$out")
	p50=$(sed -E 's/.*p50_ms=([0-9.]+).*/\1/' <<<"$out")
	p99=$(sed -E 's/.*p99_ms=([0-9.]+).*/\1/' <<<"$out")
	ratio=$(awk -v a="$rate" -v b="$pg" 'BEGIN{printf "%.2f", a/b}')
	printf '%-8s %-14s %-10s %-14s %-10s %-10s %-8s\n' "$c" "$pg" "avg:$pglat" "$rate" "$p50" "$p99" "$ratio"
	grep -E '^  refused' "$work/loadgen-$c.txt" || true
	last_rate=$rate
done
if [[ "$OPEN_LOOP" == 1 ]]; then
	half=$(awk -v r="$last_rate" 'BEGIN{printf "%.0f", r/2}')
	out=$("$work/loadgen" bets -url "$url" -players "$PLAYERS" -rate "$half" -pools "$POOLS" -duration "${DURATION}s" | awk '/^RESULT/')
	echo "open loop at $half bets/s: $out"
fi
echo "machine load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
