#!/usr/bin/env bash
# The chaos run of issue 27 (docs/bench/2026-12-01-failover.md): brings the
# HA topology up without its own server replicas, runs TestHAChaos (two
# server replicas under continuous bets; SIGKILL of the Postgres standby,
# which rejoins; SIGKILL of the Postgres primary mid-draw; kill of the Redis
# master, one replica cut from Postgres for 10 s;
# money invariants and the table stream checked after each; figures printed
# as FIGURE lines), then takes everything down. Before it,
# TestReadYourWritesOnTheStandby (persistence/sqldb) pauses the standby's replay
# and checks that a player's read after their write goes to the primary
# until the standby has replayed it. Run as root:
#   deploy/ha/chaos.sh            (about 6 minutes; KEEP_UP=1 leaves it up)
set -euo pipefail
cd "$(dirname "$0")"
. ./env.sh
CHAOS_OUT=${CHAOS_OUT:-/tmp/pokertote-chaos.out}
HA_SERVERS=0 ./up.sh
HA_SCRIPTS=$(pwd)
[ -n "${KEEP_UP:-}" ] || trap '"$HA_SCRIPTS/down.sh"' EXIT
export HA_DIR MONITOR_PORT NODE1_PORT NODE2_PORT REDIS_MASTER_PORT REDIS_REPLICA_PORT
export HA_SENTINELS=$(sentinels_csv)
cd ../..
go test -tags chaos -count=1 -run TestReadYourWritesOnTheStandby -v ./persistence/sqldb/ 2>&1 | tee "$CHAOS_OUT.ryw" | grep -E "^(---|ok|FAIL)|replayed past|Error" || true
grep -q -- "--- PASS: TestReadYourWritesOnTheStandby" "$CHAOS_OUT.ryw"
go test -tags chaos -count=1 -timeout 20m -run TestHAChaos -v ./app/ 2>&1 | tee "$CHAOS_OUT" | grep -E "FIGURE|---|FAIL|ok |panic|money invariants|no gap|killed|rejoined|Error|error" || true
grep -q -- "--- PASS: TestHAChaos" "$CHAOS_OUT"
