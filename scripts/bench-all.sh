#!/usr/bin/env bash
# bench-all.sh: every benchmark script (scripts/bench-*.sh but this one), one
# after the other, so that all the figures of docs/bench/ can be reproduced
# by one command. Not part of the test suite (no test or make target runs
# it): it takes the better part of an hour and wants the local Postgres.
#
# Each script's output (stdout and stderr) goes to OUT/<name>.log, and OUT
# is also handed to each script as its own OUT (bench-fanout-rounds.sh puts
# its per-run logs in OUT/<name>/). OUT/summary.txt gets one line per
# script: its exit status, start and end (UTC) and the load average before
# and after, since the machine is shared and every figure is a ratio to a
# reference measured in the same run. A script that fails (or runs past
# TIMEOUT) is recorded and the next one runs; the exit status is 1 if any
# failed.
#
#   scripts/bench-all.sh                       # OUT=/tmp/bench-all-<UTC time>
#   OUT=/tmp/b ONLY="bench-lobby bench-fanout-rounds" scripts/bench-all.sh
#   SKIP="bench-eval bench-viewers" scripts/bench-all.sh
#   LIST=1 scripts/bench-all.sh                # print what would run
#
# Each script keeps its own settings (ROUNDS, DURATION, ...: see each
# header) and reads them from the environment, so a variable set here
# reaches every script that reads it. bench-eval.sh needs OMPEVAL_DIR (a
# checkout of OMPEval, not part of this repository) and fails without it;
# bench-viewers.sh is one run of what bench-fanout-rounds.sh runs ROUNDS
# times at three sizes.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/bench-all-$(date -u +%Y-%m-%dT%H%M%SZ)}
TIMEOUT=${TIMEOUT:-2h}
ONLY=${ONLY:-}
SKIP=${SKIP:-}

scripts=()
for f in scripts/bench-*.sh; do
	name=$(basename "$f" .sh)
	[[ $name == bench-all ]] && continue
	if [[ -n $ONLY && " $ONLY " != *" $name "* ]]; then continue; fi
	if [[ " $SKIP " == *" $name "* ]]; then continue; fi
	scripts+=("$name")
done
if [[ -n ${LIST:-} ]]; then
	printf '%s\n' "${scripts[@]}"
	exit 0
fi

mkdir -p "$OUT"
summary="$OUT/summary.txt"
{
	echo "bench-all: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)'), $(nproc) cores, $(go version | cut -d' ' -f3)"
	echo "scripts: ${scripts[*]}"
} | tee "$summary"
failed=0
for name in "${scripts[@]}"; do
	log="$OUT/$name.log"
	before=$(cut -d' ' -f1 /proc/loadavg)
	start=$(date -u +%H:%M:%S)
	echo "== $name ($start, load $before) -> $log"
	OUT="$OUT/$name" timeout -k 30s "$TIMEOUT" "scripts/$name.sh" >"$log" 2>&1
	rc=$?
	after=$(cut -d' ' -f1 /proc/loadavg)
	line="$name: exit $rc, $start-$(date -u +%H:%M:%S) UTC, load $before -> $after, log $log"
	echo "$line" | tee -a "$summary"
	if ((rc != 0)); then
		failed=1
		tail -n 5 "$log" | sed 's/^/    /'
	fi
done
echo "summary: $summary"
exit "$failed"
