#!/usr/bin/env bash
# rolling-restart.sh: issue 29's deploy measurement. Two server replicas on
# one Postgres database and one Redis (loopback), N WebSocket viewers of the
# biggest demo table (loadgen rolling: a share on the legacy graphql-ws) and
# bets at BET_RATE a second; then replica A is restarted (SIGTERM, wait for
# it to exit, start it again, wait until /readyz is 200), then replica B.
# loadgen acts as the load balancer (it polls /readyz) and as the clients
# (viewers resume with afterSeq on close; a bet without an answer is sent
# again with its idempotency key), and prints failed bets, event gaps, the
# closes and reconnects per second since each replica left the rotation, and
# the time each was unready. Everything it starts is stopped on exit, and its
# database dropped.
#
#   scripts/rolling-restart.sh                       # 5000 viewers, 20 bets/s
#   N=1000 BET_RATE=10 DRAIN_WINDOW=5s scripts/rolling-restart.sh
#
# Environment: N (5000), LEGACY (0.1: share of graphql-ws viewers), BET_RATE
# (20), DRAIN_WINDOW (10s), SCALE (TIME_SCALE of the servers, 5), SETTLE
# (seconds between the phases, 10), PORT_A / PORT_B (18801 / 18802), DB
# (pokertote_rolling), PGHOST / PGPORT / PGUSER (127.0.0.1 / 5432 / postgres),
# REDIS_URL (redis://127.0.0.1:6379/0), KEEP (a directory: keep the logs and
# the JSON report there).
set -euo pipefail
N=${N:-5000}
LEGACY=${LEGACY:-0.1}
BET_RATE=${BET_RATE:-20}
DRAIN_WINDOW=${DRAIN_WINDOW:-10s}
SCALE=${SCALE:-5}
SETTLE=${SETTLE:-10}
PORT_A=${PORT_A:-18801}
PORT_B=${PORT_B:-18802}
DB=${DB:-pokertote_rolling}
PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
PGUSER=${PGUSER:-postgres}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
KEEP=${KEEP:-}
export PGHOST PGPORT PGUSER PGSSLMODE=disable PGOPTIONS='-c client_min_messages=warning'

cd "$(dirname "$0")/.."
work=$(mktemp -d)
declare -A pid=()
loadgen_pid=""
cleanup() {
	[[ -n "$loadgen_pid" ]] && kill "$loadgen_pid" 2>/dev/null || true
	for r in "${!pid[@]}"; do kill -9 "${pid[$r]}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [[ -n "$KEEP" ]]; then mkdir -p "$KEEP" && cp "$work"/*.log "$work"/*.json "$work"/marks "$KEEP"/ 2>/dev/null || true; fi
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

echo "building server and loadgen..."
go build -o "$work/server" ./cmd/server
go build -o "$work/loadgen" ./cmd/loadgen
psql -qX -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
ulimit -n "$(ulimit -Hn)"

export ADMIN_EMAIL=rolling-admin@example.com ADMIN_PASSWORD=rolling-admin-password-1
common=(DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB?sslmode=disable" REDIS_URL="$REDIS_URL"
	REDIS_PREFIX="pokertote-rolling-$$:" JWT_SECRET="rolling restart secret of at least 32 bytes"
	DOCUMENT_PEPPER="rolling restart pepper of at least 32 bytes" DEMO_TABLES=true TIME_SCALE="$SCALE"
	DRAIN_WINDOW="$DRAIN_WINDOW" LOG_LEVEL=info DEV_ADMIN=false)

# start NAME PORT: starts a replica (its log appended to NAME.log).
start() {
	env "${common[@]}" ADDR="127.0.0.1:$2" "$work/server" >>"$work/$1.log" 2>&1 &
	pid[$1]=$!
}
# ready PORT: waits (up to 60 s) until /readyz is 200; prints how long it took.
ready() {
	local t0=$EPOCHREALTIME
	for _ in $(seq 600); do
		if curl -fsS -m 1 "http://127.0.0.1:$1/readyz" >/dev/null 2>&1; then
			awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
			return
		fi
		sleep 0.1
	done
	echo "replica on :$1 not ready within 60 s" >&2
	exit 1
}
# restart NAME PORT INDEX: SIGTERM, wait for the exit, start again, wait
# until ready; the SIGTERM and the ready are marked for loadgen.
restart() {
	local t0=$EPOCHREALTIME
	echo "$t0 sigterm $3" >>"$work/marks"
	kill -TERM "${pid[$1]}"
	wait "${pid[$1]}" || true
	local stopped
	stopped=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
	start "$1" "$2"
	local up
	up=$(ready "$2")
	echo "$EPOCHREALTIME ready $3" >>"$work/marks"
	echo "== replica $1: exited ${stopped}s after SIGTERM, ready ${up}s after its start"
	grep -h '"drained"\|msg=drained' "$work/$1.log" | tail -1 || true
}

start A "$PORT_A"
echo "replica A ready in $(ready "$PORT_A") s"
start B "$PORT_B"
echo "replica B ready in $(ready "$PORT_B") s"

echo "== $N viewers and $BET_RATE bets/s on both replicas"
timeout 900 "$work/loadgen" rolling -urls "http://127.0.0.1:$PORT_A/query,http://127.0.0.1:$PORT_B/query" \
	-n "$N" -legacy "$LEGACY" -bet-rate "$BET_RATE" -duration 10m -stop-file "$work/stop" -marks "$work/marks" -json "$work/rolling.json" \
	>"$work/loadgen.log" 2>&1 &
loadgen_pid=$!
for _ in $(seq 3000); do
	grep -qs 'measuring' "$work/loadgen.log" && break
	kill -0 "$loadgen_pid" 2>/dev/null || { cat "$work/loadgen.log"; exit 1; }
	sleep 0.1
done
cat "$work/loadgen.log"
sleep "$SETTLE"
restart A "$PORT_A" 0
sleep "$SETTLE"
restart B "$PORT_B" 1
sleep "$SETTLE"
touch "$work/stop"
wait "$loadgen_pid" || true
loadgen_pid=""
sed -n '/^rolling: [0-9]* viewers (/,$p' "$work/loadgen.log"
echo "== load: $(uptime)"
