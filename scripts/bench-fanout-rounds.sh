#!/usr/bin/env bash
# bench-fanout-rounds.sh: the fan-out figures of docs/bench/2026-12-05-fanout.md.
# ROUNDS times, one after the other: scripts/bench-viewers.sh at 1,000,
# 5,000 and 10,000 viewers (2, 4 and 8 client processes), each run
# measuring the server and then the reference broadcaster on the same
# client harness. Each run's output goes to OUT/round-N-viewers.log, its
# load average before and after to OUT/load.log; a summary line per run
# to stdout.
#
#   ROUNDS=3 OUT=/tmp/fanout scripts/bench-fanout-rounds.sh
set -euo pipefail
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-$(mktemp -d)}
SIZES=${SIZES:-"1000:2 5000:4 10000:8"}
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(go version | cut -d' ' -f3), output in $OUT"
for r in $(seq "$ROUNDS"); do
	for s in $SIZES; do
		n=${s%%:*} procs=${s##*:}
		log="$OUT/round-$r-$n.log"
		before=$(cut -d' ' -f1 /proc/loadavg)
		start=$(date -u +%H:%M:%S)
		N=$n PROCS=$procs DURATION=${DURATION:-15s} LOBBY=${LOBBY:-3s} scripts/bench-viewers.sh >"$log" 2>&1 || echo "run failed: $log"
		after=$(cut -d' ' -f1 /proc/loadavg)
		echo "round $r N=$n $start load $before -> $after" >>"$OUT/load.log"
		printf 'round %s N=%-5s %s load %s -> %s | ' "$r" "$n" "$start" "$before" "$after"
		grep -E '^(p99 delivery|memory/connection|fan-out spread p99|viewers connected):' "$log" | sed -E 's/ +/ /g' | tr '\n' '|'
		echo
	done
done
