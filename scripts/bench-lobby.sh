#!/usr/bin/env bash
# bench-lobby.sh: the lobby's table list over HTTP against a bare net/http
# handler, alternated in the same run (docs/fanout.md, the lobby).
#
# Starts the server on the embedded default (SQLite in a temporary
# DATA_DIR, in-process broker, demo tables, TIME_SCALE so draws move while
# it runs), saves its answer to the web client's lobby query (the Tables
# document of web/src/api/ops.ts, sent as the client sends it: the text and
# empty variables, anonymous as before sign-in) and starts `loadgen
# refhttp`, a bare net/http handler answering those very bytes. Then, ROUNDS
# times, `loadgen lobby` drives the server and then the reference with CONNS
# keep-alive connections for DURATION each, and prints each round's ratio
# (server / reference) and their median. Loopback only; everything it
# starts is stopped on exit. The machine is shared: read the ratios.
#
#   scripts/bench-lobby.sh
#   ROUNDS=5 DURATION=10s CONNS=32 scripts/bench-lobby.sh
#   PROFILE=/tmp/lobby scripts/bench-lobby.sh   # the server's CPU profile of
#                                                # the first round (DEBUG_ADDR)
#
# Environment: PORT (19180, the server; PORT+1 its DEBUG_ADDR), REFPORT
# (19182), CONNS (32), DURATION (10s), ROUNDS (3), SCALE (TIME_SCALE, 10),
# TOKEN (a bearer token to send instead of none), PROFILE (a directory).
set -euo pipefail
PORT=${PORT:-19180}
REFPORT=${REFPORT:-19182}
CONNS=${CONNS:-32}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
SCALE=${SCALE:-10}
TOKEN=${TOKEN:-}
PROFILE=${PROFILE:-}

cd "$(dirname "$0")/.."
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

echo "building server and loadgen..."
go build -o "$work/server" ./cmd/server
go build -o "$work/loadgen" ./cmd/loadgen

# The lobby's document, exactly as web/src/api/ops.ts holds it.
python3 - web/src/api/ops.ts >"$work/tables.graphql" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r"export const Tables = /\* GraphQL \*/ `(.*?)`;", src, re.S)
if not m:
    sys.exit("no Tables document in " + sys.argv[1])
sys.stdout.write(m.group(1))
PY

DEBUG_ADDR="127.0.0.1:$((PORT + 1))" DATA_DIR="$work/data" ADDR="127.0.0.1:$PORT" TIME_SCALE="$SCALE" LOG_LEVEL=warn DEMO_TABLES=true \
	"$work/server" >"$work/server.log" 2>&1 &
pids+=("$!")
url="http://127.0.0.1:$PORT/query"
for _ in $(seq 100); do
	curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
	sleep 0.2
done

# The reference answers the server's own answer, byte for byte.
python3 -c 'import json,sys; print(json.dumps({"query": open(sys.argv[1]).read(), "variables": {}}))' "$work/tables.graphql" >"$work/req.json"
curl -fsS -H 'Content-Type: application/json' ${TOKEN:+-H "Authorization: Bearer $TOKEN"} --data-binary @"$work/req.json" "$url" >"$work/answer.json"
if grep -q '"errors"' "$work/answer.json"; then
	echo "the server refused the lobby's query:" >&2
	cat "$work/answer.json" >&2
	exit 1
fi
echo "answer: $(wc -c <"$work/answer.json") bytes, $(grep -o '"id"' "$work/answer.json" | wc -l) ids"
"$work/loadgen" refhttp -addr "127.0.0.1:$REFPORT" -body "$work/answer.json" &
pids+=("$!")
sleep 0.5

median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
rps() { sed -E 's/.*"req_per_s":([0-9.e+]+).*/\1/' <<<"$1"; }
errors() { sed -E 's/.*"errors":([0-9]+).*/\1/' <<<"$1"; }

echo "machine: $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n%-6s %-14s %-8s %-14s %-8s %-6s\n' round lobby_req_s errors ref_req_s errors ratio
ratios=()
for round in $(seq 1 "$ROUNDS"); do
	if [[ -n "$PROFILE" && $round == 1 ]]; then
		mkdir -p "$PROFILE"
		secs=$(( ${DURATION%s} > 3 ? ${DURATION%s} - 2 : 1 ))
		curl -fsS -o "$PROFILE/cpu-lobby.pprof" "http://127.0.0.1:$((PORT + 1))/debug/pprof/profile?seconds=$secs" &
		prof=$!
	fi
	s=$("$work/loadgen" lobby -url "$url" -conns "$CONNS" -duration "$DURATION" -query-file "$work/tables.graphql" ${TOKEN:+-token "$TOKEN"})
	if [[ -n "$PROFILE" && $round == 1 ]]; then wait "$prof"; fi
	r=$("$work/loadgen" lobby -url "http://127.0.0.1:$REFPORT/query" -conns "$CONNS" -duration "$DURATION" -query-file "$work/tables.graphql")
	ratio=$(awk -v a="$(rps "$s")" -v b="$(rps "$r")" 'BEGIN{printf "%.2f", a/b}')
	printf '%-6s %-14.0f %-8s %-14.0f %-8s %-6s\n' "$round" "$(rps "$s")" "$(errors "$s")" "$(rps "$r")" "$(errors "$r")" "$ratio"
	ratios+=("$ratio")
done
echo "median ratio of $ROUNDS rounds: $(median "${ratios[@]}") (${ratios[*]})"
# What the server's response cache did over the run (graph/response_cache.go).
curl -fsS "http://127.0.0.1:$PORT/metrics" | grep '^pokertote_response_cache_requests_total' || true
if [[ -n "$PROFILE" ]]; then echo "profile: $PROFILE/cpu-lobby.pprof"; fi
echo "machine load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
