#!/usr/bin/env bash
# bench-bets.sh: placeBet throughput against pgbench, back to back (issue 8).
#
# Creates two fresh databases on the local Postgres (one for pgbench, one for
# the server), runs pgbench tpcb-like (the reference the performance goals
# name: scale 8, prepared statements; PGBENCH_SCALE=1 PGBENCH_MODE=simple
# gives the softer reference of the figures before 6 Dec 2026 afternoon,
# one hot branch row as one pool is one hot escrow row) and then cmd/loadgen's bets workload against a
# server it starts on Postgres, at each client count, and prints the ratios.
# Both sides talk plain TCP on loopback (sslmode=disable). After each
# closed-loop row, "machine cpu" gives the whole machine's CPU (/proc/stat)
# per pgbench transaction and per accepted bet, and the ratio placeBet could
# reach with that CPU per bet if it had the machine to itself (the ceiling).
# Everything it starts
# is killed on exit. The machine is shared: read the ratios, not the absolutes.
#
#   scripts/bench-bets.sh                      # 8 and 32 clients, 20 s each
#   CLIENTS="8 32" DURATION=30 scripts/bench-bets.sh
#   ROUNDS=3 DURATION=10 scripts/bench-bets.sh  # pgbench and placeBet alternate
#                                              # three times per client count;
#                                              # the median ratio is printed
#
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PORT
# (18080, the server), REDIS_URL (redis://127.0.0.1:6379/0), PGBENCH_SCALE (8),
# PGBENCH_MODE (prepared), CLIENTS ("8 32"),
# DURATION (seconds, 20), ROUNDS (1: pgbench then placeBet once per client
# count; more alternate them that many times, since on a shared VM either
# side drifts by a third within minutes, and print the median ratio), PLAYERS (64), POOLS (1), OPEN_LOOP (1: also
# open-loop runs after the closed-loop ones, each beside a reference: an
# uncontended one-row commit through pgbench at the same rate), OPEN_LOOP_AT
# (the open loop's rates as fractions of the last closed-loop rate, "0.5";
# "0.5 0.25" adds a quarter), OPEN_LOOP_RATE (fixed open-loop rates in bets
# per second instead, e.g. "2000"), OPEN_LOOP_DURATION (seconds, DURATION),
# PROFILE (a directory: for
# each closed-loop run, keep the server's CPU profile (DEBUG_ADDR on PORT+1),
# the bench database's top statements from pg_stat_statements, and the CPU
# seconds the server and its Postgres backends spent per accepted bet),
# GROW (a number of bets, 0 for none: after the runs, the first client
# count's draw is filled with that many more bets at 32 clients and the
# first client count is measured again on it, to show the cost as a draw
# grows; `GROW=100000` for issue 8's 100,000 bets).
#
# The open loop alone, at a fixed rate for a minute (CLIENTS empty: no
# closed-loop runs):
#
#   CLIENTS= OPEN_LOOP_RATE=2000 OPEN_LOOP_DURATION=60 scripts/bench-bets.sh
#
# loadgen counts every send scheduled in the window as offered (answered
# or not, sent or not) and its latency from the scheduled send; the
# percentiles over the offered bets count one not accepted as infinite.
set -euo pipefail

PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
PGUSER=${PGUSER:-postgres}
PORT=${PORT:-18080}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
CLIENTS=${CLIENTS-"8 32"}
DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-1}
PLAYERS=${PLAYERS:-64}
POOLS=${POOLS:-1}
OPEN_LOOP=${OPEN_LOOP:-1}
OPEN_LOOP_AT=${OPEN_LOOP_AT:-"0.5"}
OPEN_LOOP_RATE=${OPEN_LOOP_RATE:-}
OPEN_LOOP_DURATION=${OPEN_LOOP_DURATION:-$DURATION}
PROFILE=${PROFILE:-}
GROW=${GROW:-0}
PGBENCH_SCALE=${PGBENCH_SCALE:-8}
PGBENCH_MODE=${PGBENCH_MODE:-prepared}
BENCH_DB=${BENCH_DB:-pokertote_bench_bets}
PGBENCH_DB=${PGBENCH_DB:-pokertote_bench_pgbench}
export PGHOST PGPORT PGUSER PGSSLMODE=disable

cd "$(dirname "$0")/.."
work=$(mktemp -d)
server_pid=""
prof_pid=""
cleanup() {
	if [[ -n "$prof_pid" ]]; then
		kill "$prof_pid" 2>/dev/null || true
	fi
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
pgbench -i -q -s "$PGBENCH_SCALE" "$PGBENCH_DB" >/dev/null 2>&1

export ADMIN_EMAIL=bench-admin@example.com ADMIN_PASSWORD=bench-admin-password-1
DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$BENCH_DB?sslmode=disable" REDIS_URL="$REDIS_URL" \
	ADDR="127.0.0.1:$PORT" DEMO_TABLES=false LOG_LEVEL=warn DEBUG_ADDR=${PROFILE:+127.0.0.1:$((PORT + 1))} \
	"$work/server" >"$work/server.log" 2>&1 &
server_pid=$!
url="http://127.0.0.1:$PORT/query"
for _ in $(seq 1 100); do
	if curl -fsS -H 'Content-Type: application/json' -d '{"query":"{__typename}"}' "$url" >/dev/null 2>&1; then break; fi
	sleep 0.2
done

if [[ -n "$PROFILE" ]]; then
	mkdir -p "$PROFILE"
	psql -qX -d "$BENCH_DB" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null 2>&1 || true
fi
# cpu_ticks PID...: user+system clock ticks of the processes (0 when gone).
cpu_ticks() {
	local t=0 p
	for p in "$@"; do
		if [[ -r /proc/$p/stat ]]; then
			t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat")))
		fi
	done
	echo "$t"
}
# median N...: the median of the numbers.
median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
# field NAME RESULT: a number from loadgen's RESULT line (NAME=value).
field() {
	sed -E "s/.*[ ]$1=([0-9.]+).*/\\1/" <<<" $2"
}
# measuring FILE: waits (up to 2 min) until the load generator writing FILE
# has finished its warm-up.
measuring() {
	for _ in $(seq 1 600); do
		grep -qs '^bets: measuring' "$1" && return
		sleep 0.2
	done
}
# intake: the server's intake metrics so far: batches, bets, seconds
# waited, seconds in transactions (sums).
intake() {
	curl -fsS "http://127.0.0.1:$PORT/metrics" | awk '
		/^pokertote_tote_bet_batch_bets_count / {n = $2}
		/^pokertote_tote_bet_batch_bets_sum / {b = $2}
		/^pokertote_tote_bet_batch_wait_seconds_sum / {w = $2}
		/^pokertote_tote_bet_batch_seconds_sum/ {t += $2}
		/^pokertote_http_request_seconds_sum\{route="\/query"\}/ {hs = $2}
		/^pokertote_http_request_seconds_count\{route="\/query"\}/ {hn = $2}
		END {printf "%d %d %f %f %f %d\n", n, b, w, t, hs, hn}'
}
# busy: the machine's busy and total clock ticks so far (all CPUs, from
# /proc/stat): what the server, Postgres, the load generator and pgbench
# spent together.
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8}' /proc/stat; }
# cpu_per_op B0 B1 OPS: the machine's CPU milliseconds per operation between
# the busy readings B0 and B1, and its busy share.
cpu_per_op() {
	awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN{split(a, x, " "); split(b, y, " ")
		printf "%.3f %.0f%%", (n > 0) ? 1000 * (y[1] - x[1]) / hz / n : 0, 100 * (y[1] - x[1]) / (y[2] - x[2])}'
}
# analyze: fresh statistics for the bench database, once each run's warm-up
# is over, as autovacuum keeps them on a production server. A Postgres set
# up for CI may run with autovacuum off; the planner then never learns how
# large the ledger has grown, and the regulator feed's reads of the
# ledger's legs turn into sequential scans whose cost grows run after run.
# Not before the warm-up: statistics of nearly empty tables mislead the
# plans for the rest of the run (0.18x instead of 0.28x at 8 clients in one
# try). pgbench -i analyzes its own tables.
analyze() { psql -qX -d "$BENCH_DB" -c "ANALYZE" >/dev/null 2>&1 || true; }
backends() {
	psql -AtX -d postgres -c "SELECT pid FROM pg_stat_activity WHERE datname = '$BENCH_DB' AND pid <> pg_backend_pid()"
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) CPUs, load average before: $load"
echo "postgres: autovacuum $(psql -AtX -d postgres -c 'SHOW autovacuum') (the bench database is analyzed after each placeBet run's warm-up)"
echo "reference: pgbench tpcb-like, scale $PGBENCH_SCALE, -M $PGBENCH_MODE"
printf '\n%-8s %-14s %-10s %-14s %-10s %-10s %-8s\n' clients pgbench_tps pg_avg_ms bets_per_s p50_ms p99_ms ratio
last_rate=0
for c in $CLIENTS; do
	rates=() ratios=()
	for round in $(seq 1 "$ROUNDS"); do
		pb0=$(busy)
		pg=$(pgbench -n -M "$PGBENCH_MODE" -c "$c" -j 2 -T "$DURATION" -b tpcb-like "$PGBENCH_DB" 2>/dev/null | tee "$work/pgbench-$c.txt" | awk '/^tps =/{print $3}')
		pb1=$(busy)
		pglat=$(awk '/^latency average/{print $4}' "$work/pgbench-$c.txt")
		pgtx=$(awk '/^number of transactions actually processed/{split($NF, a, "/"); print a[1]}' "$work/pgbench-$c.txt")
		read -r pg_cpu pg_busy <<<"$(cpu_per_op "$pb0" "$pb1" "$pgtx")"
		# The machine's CPU over the bets' measured window (after the load
		# generator's warm-up, which signs its players up).
		: >"$work/loadgen-$c.txt"
		(
			measuring "$work/loadgen-$c.txt"
			analyze
			busy >"$work/busy0-$c"
		) &
		busy_pid=$!
		if [[ -n "$PROFILE" && $round == 1 ]]; then
			# Once the load generator's warm-up is over: reset the statement
			# counts, take CPU ticks, profile for all but the last 2 s, and read
			# the ticks and the statements again.
			(
				measuring "$work/loadgen-$c.txt"
				# pg_stat_statements needs shared_preload_libraries; without it
				# the statements are left out and the rest is still taken.
				psql -qX -d "$BENCH_DB" -c "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)" >/dev/null 2>&1 || true
				be=$(backends)
				echo "$(cpu_ticks "$server_pid") $(cpu_ticks $be) $(date +%s.%N)" >"$work/ticks0-$c"
				# What the bench database's backends wait on, sampled every 5 ms
				# while the profile runs (CPU, IO:WALSync, Lock:transactionid...).
				timeout "$((DURATION - 2))" psql -AtX -d "$BENCH_DB" -f <(printf '%s\n' \
					"SELECT coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, '-') || ' ' || left(regexp_replace(query, '\s+', ' ', 'g'), 24) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() \\watch 0.005") \
					2>/dev/null | grep -v '^$' | sort | uniq -c | sort -rn | head -15 >"$PROFILE/waits-$c.txt" &
				curl -fsS -o "$PROFILE/cpu-$c.pprof" "http://127.0.0.1:$((PORT + 1))/debug/pprof/profile?seconds=$((DURATION - 2))"
				wait
				echo "$(cpu_ticks "$server_pid") $(cpu_ticks $be) $(date +%s.%N)" >"$work/ticks1-$c"
				psql -X -d "$BENCH_DB" -c "SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
					rows, left(regexp_replace(query, '\s+', ' ', 'g'), 120) AS query
					FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
					ORDER BY calls DESC LIMIT 40" >"$PROFILE/statements-$c.txt" 2>/dev/null || true
			) &
			prof_pid=$!
		fi
		intake0=$(intake)
		out=$("$work/loadgen" bets -url "$url" -players "$PLAYERS" -clients "$c" -pools "$POOLS" -duration "${DURATION}s" | tee -a "$work/loadgen-$c.txt" | awk '/^RESULT/')
		intake1=$(intake)
		bb1=$(busy)
		wait "$busy_pid" || true
		rate=$(field accepted_per_s "$out")
		p50=$(field p50_ms "$out")
		p99=$(field p99_ms "$out")
		ratio=$(awk -v a="$rate" -v b="$pg" 'BEGIN{printf "%.2f", a/b}')
		printf '%-8s %-14s %-10s %-14s %-10s %-10s %-8s\n' "$c" "$pg" "avg:$pglat" "$rate" "$p50" "$p99" "$ratio"
		grep -E '^  refused' "$work/loadgen-$c.txt" || true
		echo "  loadgen: $(field loadgen_cpu_ms "$out") ms of its own CPU per accepted bet"
		# The whole machine per unit of work, both sides: 2 cores divided by
		# this is the most either side could do with the machine to itself.
		read -r bet_cpu bet_busy <<<"$(cpu_per_op "$(cat "$work/busy0-$c")" "$bb1" "$(field accepted "$out")")"
		echo "  machine cpu: pgbench $pg_cpu ms per transaction ($pg_busy busy), placeBet $bet_cpu ms per accepted bet ($bet_busy busy); ceilings on $(nproc) cores: $(awk -v a="$pg_cpu" -v b="$bet_cpu" -v n="$(nproc)" 'BEGIN{printf "%.0f tps, %.0f bets/s, ratio %.2f", 1000*n/a, 1000*n/b, a/b}')"
		# The server's own intake metrics over the run (warm-up included).
		awk -v a="$intake0" -v b="$intake1" 'BEGIN{split(a, x); split(b, y); n = y[1] - x[1]
			if (n > 0) printf "  intake: %d batches, %.1f bets per batch, oldest bet waited %.2f ms, transaction %.2f ms (means)\n", n, (y[2] - x[2]) / n, 1000 * (y[3] - x[3]) / n, 1000 * (y[4] - x[4]) / n
			if (y[6] > x[6]) printf "  server: /query %.2f ms per request (mean, from the handler'"'"'s start to its answer; the rest of the client'"'"'s latency is the loop-back and the client)\n", 1000 * (y[5] - x[5]) / (y[6] - x[6])}'
		if [[ -n "$PROFILE" && $round == 1 ]]; then
			wait "$prof_pid" || true
			read -r s0 p0 t0 <"$work/ticks0-$c"
			read -r s1 p1 t1 <"$work/ticks1-$c"
			hz=$(getconf CLK_TCK)
			# CPU per bet and statements per bet over the profiled window.
			bets=$(awk -v r="$rate" -v a="$t0" -v b="$t1" 'BEGIN{printf "%d", r*(b-a)}')
			awk -v s="$((s1 - s0))" -v p="$((p1 - p0))" -v hz="$hz" -v n="$bets" \
				'BEGIN{printf "  cpu per accepted bet: server %.2f ms, postgres backends %.2f ms (~%d bets)\n", 1000*s/hz/n, 1000*p/hz/n, n}' | tee "$PROFILE/cpu-per-bet-$c.txt"
			awk -v n="$bets" 'NR > 2 && $1 ~ /^[0-9]+$/ {c += $1} END {printf "  statements per accepted bet: %.1f\n", c/n}' "$PROFILE/statements-$c.txt" | tee -a "$PROFILE/cpu-per-bet-$c.txt"
			psql -X -d "$BENCH_DB" -c "SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
				rows, round(calls::numeric / $(awk -v r="$rate" -v d="$DURATION" 'BEGIN{printf "%d", r*d+1}'), 2) AS per_bet,
				left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
				FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
				ORDER BY calls DESC LIMIT 30" >"$PROFILE/statements-$c.txt" 2>/dev/null || true
			echo "  profile: $PROFILE/cpu-$c.pprof, $PROFILE/statements-$c.txt, $PROFILE/waits-$c.txt"
		fi
		rates+=("$rate") ratios+=("$ratio")
	done
	if [[ "$ROUNDS" -gt 1 ]]; then
		med_ratio=$(median "${ratios[@]}")
		med_rate=$(median "${rates[@]}")
		printf '%-8s median of %s rounds: ratio %s (%s), bets/s %s\n' "$c" "$ROUNDS" "$med_ratio" "${ratios[*]}" "$med_rate"
		rate=$med_rate
	fi
	last_rate=$rate
done
if [[ "$GROW" -gt 0 ]]; then
	first=${CLIENTS%% *}
	table=$(awk '/^bets: table /{print $3; exit}' "$work/loadgen-$first.txt" | tr -d ',')
	before=$(awk '/^RESULT/' "$work/loadgen-$first.txt")
	bets_before=$(psql -AtX -d "$BENCH_DB" -c "SELECT count(*) FROM tote_bets b JOIN tote_draws d ON d.id = b.draw_id WHERE d.table_id = $table")
	echo "growing table $table's draw by $GROW bets (32 clients)..."
	"$work/loadgen" bets -url "$url" -players "$PLAYERS" -clients 32 -table "$table" -count "$GROW" -duration 600s -warmup 0s | awk '/^RESULT/{print "  fill: " $0}'
	bets_now=$(psql -AtX -d "$BENCH_DB" -c "SELECT count(*) FROM tote_bets b JOIN tote_draws d ON d.id = b.draw_id WHERE d.table_id = $table")
	# The fill writes some 300 MB of WAL, which starts a checkpoint (by WAL
	# volume) that would run through the next measurement with full-page
	# writes; the first measurement ran just after the checkpoint that
	# CREATE DATABASE forces. Checkpoint now, so both start alike.
	psql -qX -d "$BENCH_DB" -c "CHECKPOINT" >/dev/null
	after=$("$work/loadgen" bets -url "$url" -players "$PLAYERS" -clients "$first" -table "$table" -pools "$POOLS" -duration "${DURATION}s" | awk '/^RESULT/')
	r0=$(field accepted_per_s "$before")
	r1=$(field accepted_per_s "$after")
	p0=$(field p99_ms "$before")
	p1=$(field p99_ms "$after")
	echo "flat cost, $first clients: $r0 bets/s (p99 $p0 ms) with $bets_before bets in the table's draw, $r1 bets/s (p99 $p1 ms) with $bets_now: ratio $(awk -v a="$r1" -v b="$r0" 'BEGIN{printf "%.2f", a/b}')"
fi
if [[ "$OPEN_LOOP" == 1 ]]; then
	# At each open-loop rate (a fraction of the last closed-loop rate):
	# first pgbench with a one-row INSERT per transaction at that rate (an
	# uncontended commit: the tail this machine's Postgres and disk give the
	# smallest durable transaction), then placeBet. Both count from the
	# schedule (pgbench: time + schedule lag, from its -l log).
	# The machine's CPU busy share during placeBet comes from /proc/stat.
	PGOPTIONS='-c client_min_messages=warning' psql -qX -d "$PGBENCH_DB" -c "DROP TABLE IF EXISTS bench_commit" -c "CREATE TABLE bench_commit (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"
	echo "INSERT INTO bench_commit DEFAULT VALUES;" >"$work/commit.sql"
	printf '\n%-10s %-30s %-30s %-8s %-10s\n' "open loop" "one-row commit p50/p99/p999" "placeBet p50/p99/p999" cpu_busy p99_ratio
	rates=()
	if [[ -n "$OPEN_LOOP_RATE" ]]; then
		rates=($OPEN_LOOP_RATE)
	else
		for f in $OPEN_LOOP_AT; do rates+=("$(awk -v r="$last_rate" -v f="$f" 'BEGIN{printf "%.0f", r*f}')"); done
	fi
	for r in "${rates[@]}"; do
		rm -f "$work"/commit_log*
		(cd "$work" && pgbench -n -R "$r" -c 16 -j 2 -T "$OPEN_LOOP_DURATION" -f "$work/commit.sql" -l --log-prefix=commit_log "$PGBENCH_DB" >/dev/null 2>&1)
		ref=$(cat "$work"/commit_log* | awk '{print ($3 + $NF) / 1000}' | sort -g |
			awk '{a[NR] = $1} END {printf "%.2f %.2f %.2f", a[int(NR * 0.5)], a[int(NR * 0.99)], a[int(NR * 0.999)]}')
		# The busy share is read from the end of the load generator's warm-up
		# (its players' sign-ups hash passwords) to the end of its run.
		: >"$work/open.txt"
		(
			measuring "$work/open.txt"
			analyze
			busy >"$work/busy0"
		) &
		watch_pid=$!
		out=$("$work/loadgen" bets -url "$url" -players "$PLAYERS" -rate "$r" -pools "$POOLS" -duration "${OPEN_LOOP_DURATION}s" | tee "$work/open.txt" | awk '/^RESULT/')
		b1=$(busy)
		wait "$watch_pid"
		b0=$(cat "$work/busy0")
		p50=$(field p50_ms "$out")
		p99=$(field p99_ms "$out")
		p999=$(field p999_ms "$out")
		read -r rp50 rp99 rp999 <<<"$ref"
		read -r _ cpu <<<"$(cpu_per_op "$b0" "$b1" 0)"
		printf '%-10s %-30s %-30s %-8s %-10s\n' "$r/s" "$rp50 / $rp99 / $rp999 ms" "$p50 / $p99 / $p999 ms" "$cpu" "$(awk -v a="$p99" -v b="$rp99" 'BEGIN{printf "%.1f", a/b}')"
		grep -E '^  (offered|latency|send lag|refused)' "$work/open.txt" || true
		echo "  $out"
	done
fi
echo "machine load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
