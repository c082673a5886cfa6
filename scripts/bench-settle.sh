#!/usr/bin/env bash
# bench-settle.sh: settling a draw of 100,000 bets (BenchmarkSettleDraw,
# persistence/totedb/tote_bench_test.go), this checkout against a base
# commit, alternated, on the local Postgres (and SQLite with DIALECTS).
#
# Builds the totedb test binary of the base (a temporary git worktree) and
# of this checkout, then runs them one after the other ROUNDS times, each
# `-benchtime 2x` (two settlements per run, each of a fresh draw of BETS
# bets), and prints every run's ns/op and peak heap growth, then the
# medians. The machine is shared: compare the two columns of one run, not
# runs of different days.
#
#   scripts/bench-settle.sh                    # base = main, 3 rounds, postgres
#   BASE=b87d637 ROUNDS=5 scripts/bench-settle.sh
#   DIALECTS="postgres sqlite" scripts/bench-settle.sh
#
# Environment: BASE (main), ROUNDS (3), BETS (100000), DIALECTS
# (postgres), TEST_DATABASE_URL (the Postgres to create the bench
# databases on; default postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail

BASE=${BASE:-main}
ROUNDS=${ROUNDS:-3}
BETS=${BETS:-100000}
DIALECTS=${DIALECTS:-postgres}
export POKERTOTE_REQUIRE_SERVICES=1

cd "$(dirname "$0")/.."
work=$(mktemp -d)
base_tree="$work/base"
cleanup() {
	git worktree remove --force "$base_tree" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

echo "building the test binaries (base $BASE, this checkout $(git rev-parse --short HEAD))..."
git worktree add --detach "$base_tree" "$BASE" >/dev/null 2>&1
# The same benchmark on both sides (it reports the CPU metrics too).
cp persistence/totedb/tote_bench_test.go "$base_tree/persistence/totedb/tote_bench_test.go"
(cd "$base_tree" && go test -c -o "$work/before.test" ./persistence/totedb)
go test -c -o "$work/after.test" ./persistence/totedb

# run BINARY DIALECT: "ms/op peak-heap-MB cpu-ms/op" of one -benchtime 2x
# run (cpu: this process's and the database backends' CPU in the step).
run() {
	(cd persistence/totedb && "$1" -test.run '^$' -test.bench "SettleDraw/$2/bets=$BETS\$" -test.benchtime 2x -test.benchmem) |
		awk '/^BenchmarkSettleDraw/ {for (i = 1; i <= NF; i++) {if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "peak-heap-MB") mb = $i
			if ($(i+1) == "go-cpu-ms/op") gc = $i; if ($(i+1) == "pg-cpu-ms/op") pc = $i}}
			END {printf "%.0f %s %.0f\n", ns / 1e6, mb, gc + pc}'
}
median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(psql -AtX "${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}" -c 'SHOW server_version' 2>/dev/null | sed 's/^/Postgres /')"
for d in $DIALECTS; do
	printf '\n%s, %s bets, ms per settlement (peak heap MB)\n' "$d" "$BETS"
	printf '%-6s %-10s %-26s %-26s %s\n' round time "before ms (heap MB, cpu ms)" "after ms (heap MB, cpu ms)" load
	b=() a=() bc=() ac=()
	for r in $(seq 1 "$ROUNDS"); do
		read -r bt bm bcpu <<<"$(run "$work/before.test" "$d")"
		read -r at am acpu <<<"$(run "$work/after.test" "$d")"
		printf '%-6s %-10s %-26s %-26s %s\n' "$r" "$(date -u +%H:%M:%S)" "$bt ($bm, $bcpu)" "$at ($am, $acpu)" "$(cut -d' ' -f1 /proc/loadavg)"
		b+=("$bt") a+=("$at") bc+=("$bcpu") ac+=("$acpu")
	done
	printf 'median wall: before %s ms, after %s ms, ratio %s\n' "$(median "${b[@]}")" "$(median "${a[@]}")" \
		"$(awk -v x="$(median "${a[@]}")" -v y="$(median "${b[@]}")" 'BEGIN {printf "%.2f", x / y}')"
	printf 'median cpu:  before %s ms, after %s ms, ratio %s\n' "$(median "${bc[@]}")" "$(median "${ac[@]}")" \
		"$(awk -v x="$(median "${ac[@]}")" -v y="$(median "${bc[@]}")" 'BEGIN {printf "%.2f", x / y}')"
done
