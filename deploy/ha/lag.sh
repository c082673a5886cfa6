#!/usr/bin/env bash
# Replica lag and read offload under a bet load (issue 27,
# docs/bench/2026-12-01-failover.md): brings the HA topology up with its two
# server replicas, then runs at once
#   - `loadgen bets` open loop on each server (RATE bets/s in all),
#   - `loadgen replag` on the primary (pg_stat_replication replay lag),
#   - `loadgen reads` (an affiliate's results/draw/verifyDraw load, READ_RATE
#     reads/s over both servers; the share of repository reads the standby
#     served, from /metrics),
# prints their reports and takes everything down. Run as root:
#   deploy/ha/lag.sh                      (RATE=1000 READ_RATE=200 DURATION=30s)
#   RATE=400 DURATION=20s deploy/ha/lag.sh
set -euo pipefail
cd "$(dirname "$0")"
. ./env.sh
RATE=${RATE:-1000}
READ_RATE=${READ_RATE:-200}
DURATION=${DURATION:-30s}
PLAYERS=${PLAYERS:-64}
OUT=${LAG_OUT:-/tmp/pokertote-lag}
# The demo tables settle draws within the run, for the reads to verify.
export HA_TIME_SCALE=${HA_TIME_SCALE:-10}
HA_SERVERS=2 ./up.sh >/dev/null
HA_SCRIPTS=$(pwd)
[ -n "${KEEP_UP:-}" ] || trap '"$HA_SCRIPTS/down.sh" >/dev/null' EXIT
REPO=$(cd ../.. && pwd)
(cd "$REPO" && go build -o "$HA_DIR/loadgen" ./cmd/loadgen)
mkdir -p "$OUT"
urls=()
for p in $SERVER_PORTS; do urls+=("http://127.0.0.1:$p/query"); done
per=$(awk "BEGIN { print $RATE / ${#urls[@]} }")
secs=${DURATION%s}
pids=()
i=0
for u in "${urls[@]}"; do
	i=$((i + 1))
	"$HA_DIR/loadgen" bets -url "$u" -admin-email "$ADMIN_EMAIL" -admin-password "$ADMIN_PASSWORD" \
		-players "$PLAYERS" -rate "$per" -warmup 5s -duration "$DURATION" >"$OUT/bets-$i.out" 2>&1 &
	pids+=($!)
done
# Sample once every bets run has its players and is past its warm-up.
for i in $(seq ${#urls[@]}); do
	until grep -q "players ready" "$OUT/bets-$i.out" 2>/dev/null; do
		kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { cat "$OUT/bets-$i.out"; exit 1; }
		sleep 0.5
	done
done
sleep 6
sample=$((secs - 8))
[ "$sample" -ge 5 ] || sample=5
"$HA_DIR/loadgen" replag -db "$(database_url)" -duration "${sample}s" >"$OUT/replag.out" 2>&1 &
pids+=($!)
"$HA_DIR/loadgen" reads -url "$(IFS=,; echo "${urls[*]}")" -admin-email "$ADMIN_EMAIL" -admin-password "$ADMIN_PASSWORD" \
	-rate "$READ_RATE" -duration "${sample}s" >"$OUT/reads.out" 2>&1 &
pids+=($!)
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$OUT"/bets-*.out "$OUT/replag.out" "$OUT/reads.out"; do
	echo "== $(basename "$f")"
	grep -v "^bets: table\|preparing" "$f"
done
exit $fail
