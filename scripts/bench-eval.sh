#!/usr/bin/env bash
# bench-eval.sh: our 7-card evaluator (BenchmarkEval7Random in domain/hand)
# beside OMPEval's omp::HandEvaluator, measured in the same run on this
# machine, alternating ROUNDS times (default 3), by the CPU time of the
# measuring thread per hand (CLOCK_THREAD_CPUTIME_ID). Both evaluate the
# same loop: 65,536 pre-dealt random seven-card hands in turn, the Values
# summed. Then BenchmarkOddsPocket10 (exact odds for ten positions after the
# pockets, one goroutine).
#
# On a loaded machine the thread CPU time still grows with the load (other
# processes evict the tables from the caches), so the script prints each
# round, the means and the best of each side; take more rounds (ROUNDS=9)
# when the load is high.
#
# Both sides run pinned to one CPU (BENCH_CPU, default the last one) with
# taskset: on a VM one virtual CPU can be slower than another by a third
# (the host's neighbours, interrupts), and a round that lands one side on
# each would compare the CPUs rather than the evaluators.
#
# OMPEval is not part of this repository. Fetch it (github.com/zekyll/OMPEval)
# and point OMPEVAL_DIR at its checkout, or at a bare git directory, which is
# then exported to a temporary folder:
#
#   OMPEVAL_DIR=/tmp/ompeval scripts/bench-eval.sh
#   OMPEVAL_DIR=/path/to/OMPEval.git ROUNDS=5 scripts/bench-eval.sh
#
# The harness scripts/bench-eval/ompeval_bench.cpp is our own code; it is
# compiled with g++ -O3 -msse4.2 against OMPEval's HandEvaluator in a
# temporary folder outside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

if [[ -z "${OMPEVAL_DIR:-}" ]]; then
	echo "bench-eval.sh: set OMPEVAL_DIR to a checkout (or bare git directory) of github.com/zekyll/OMPEval" >&2
	exit 2
fi
rounds=${ROUNDS:-3}
iters=${ITERS:-200000000}
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
pin=()
if command -v taskset >/dev/null; then
	pin=(taskset -c "$cpu")
else
	echo "bench-eval.sh: no taskset, the sides are not pinned" >&2
fi

tmp=$(mktemp -d /tmp/bench-eval.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

src=$OMPEVAL_DIR
if [[ ! -f "$src/omp/HandEvaluator.cpp" ]]; then
	if git --git-dir="$OMPEVAL_DIR" rev-parse --verify -q HEAD >/dev/null; then
		mkdir "$tmp/ompeval"
		git --git-dir="$OMPEVAL_DIR" archive HEAD | tar -x -C "$tmp/ompeval"
		src=$tmp/ompeval
	else
		echo "bench-eval.sh: $OMPEVAL_DIR holds neither omp/HandEvaluator.cpp nor a git repository" >&2
		exit 2
	fi
fi
commit=$(git --git-dir="$OMPEVAL_DIR" rev-parse HEAD 2>/dev/null || git -C "$OMPEVAL_DIR" rev-parse HEAD 2>/dev/null || echo unknown)

g++ -O3 -std=c++11 -msse4.2 -I"$src" -o "$tmp/ompeval_bench" \
	"$repo/scripts/bench-eval/ompeval_bench.cpp" "$src/omp/HandEvaluator.cpp"
go test -c -o "$tmp/hand.test" ./domain/hand
go test -c -o "$tmp/odds.test" ./domain/odds

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores, $(go version | cut -d' ' -f3-)"
echo "OMPEval commit: $commit"
echo "pinned: ${pin[*]:-no}"
uptime

ours=()
theirs=()
for r in $(seq "$rounds"); do
	o=$("${pin[@]}" "$tmp/hand.test" -test.run '^$' -test.bench '^BenchmarkEval7Random$' -test.benchtime "${iters}x" |
		awk '/^BenchmarkEval7Random/ { for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") print $i }')
	t=$("${pin[@]}" "$tmp/ompeval_bench" "$iters" | awk '{ for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/hand") print $i }')
	ours+=("$o")
	theirs+=("$t")
	printf 'round %d: ours %s cpu-ns/hand, OMPEval %s cpu-ns/hand, ratio %s\n' "$r" "$o" "$t" \
		"$(awk -v o="$o" -v t="$t" 'BEGIN { printf "%.2f", o / t }')"
done
awk -v o="${ours[*]}" -v t="${theirs[*]}" 'BEGIN {
	n = split(o, a, " "); split(t, b, " ")
	mo = a[1]; mt = b[1]
	for (i = 1; i <= n; i++) {
		so += a[i]; st += b[i]
		if (a[i] < mo) mo = a[i]
		if (b[i] < mt) mt = b[i]
	}
	printf "mean: ours %.2f, OMPEval %.2f cpu-ns/hand, ratio ours/OMPEval %.2f\n", so / n, st / n, so / st
	printf "best: ours %.2f, OMPEval %.2f cpu-ns/hand, ratio ours/OMPEval %.2f\n", mo, mt, mo / mt
	for (i = 1; i <= n; i++) r[i] = a[i] / b[i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j-1] > r[j]; j--) { x = r[j]; r[j] = r[j-1]; r[j-1] = x }
	printf "median ratio of the rounds: %.2f\n", (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
}'
uptime

"${pin[@]}" "$tmp/odds.test" -test.run '^$' -test.bench '^BenchmarkOddsPocket10$' -test.benchmem -test.count "$rounds"
