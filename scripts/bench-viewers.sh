#!/usr/bin/env bash
# bench-viewers.sh: the fan-out benchmark (docs/fanout.md). Runs the server (embedded
# SQLite, in-process broker, TIME_SCALE so events arrive every few hundred
# ms) and, one after the other on the same client harness, N WebSocket
# viewers against it and against the minimal reference broadcaster
# (loadgen refcast, coder/websocket) sending the same number of events per
# second of the same size; then the table list against {__typename} over
# HTTP. Prints the ratios. Loopback only, bounded in time; everything it
# starts is stopped on exit.
#
#   N=2000 PROCS=4 DURATION=20s scripts/bench-viewers.sh
#
# PROFILE=/tmp/x.pprof also saves the server's CPU profile of the window
# (and x.pprof.heap, x.pprof.goroutine at its end).
set -euo pipefail
N=${N:-1000}
PROCS=${PROCS:-4}
DURATION=${DURATION:-20s}
SCALE=${SCALE:-10}
PORT=${PORT:-19080}
REFPORT=${REFPORT:-19081}
LOBBY=${LOBBY:-10s}
# The server's profiles and stage log (/debug/fanout) are served here.
DEBUG_PORT=${DEBUG_PORT:-$((PORT + 10))}
CONNS=${CONNS:-32}

cd "$(dirname "$0")/.."
# The server holds a socket per viewer, the client processes one each as
# well (loadgen raises its own limit): the soft limit up to the hard one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if (($(ulimit -n) < N + 1024)); then
	echo "bench-viewers.sh: open files limited to $(ulimit -n), N=$N needs more (raise the hard limit)" >&2
	exit 2
fi
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/server" ./cmd/server
go build -o "$work/loadgen" ./cmd/loadgen

DEBUG_ADDR="127.0.0.1:$DEBUG_PORT" DATA_DIR="$work/data" ADDR="127.0.0.1:$PORT" TIME_SCALE="$SCALE" LOG_LEVEL=warn DEMO_TABLES=true \
	"$work/server" >"$work/server.log" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 100); do
	curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
	sleep 0.2
done

echo "== table list vs {__typename}: $CONNS connections, $LOBBY each"
"$work/loadgen" lobby -url "http://127.0.0.1:$PORT/query" -conns "$CONNS" -duration "$LOBBY" -query '{__typename}' | tee "$work/typename.json"
"$work/loadgen" lobby -url "http://127.0.0.1:$PORT/query" -conns "$CONNS" -duration "$LOBBY" | tee "$work/list.json"

echo "== $N viewers of the server's biggest table for $DURATION ($PROCS client processes)"
"$work/loadgen" viewers -url "ws://127.0.0.1:$PORT/query" -n "$N" -procs "$PROCS" -pid "$server" -duration "$DURATION" \
	-stages "http://127.0.0.1:$DEBUG_PORT/debug/fanout" ${PROFILE:+-profile "$PROFILE"} | tee "$work/server.json"

# The reference sends what the server sent: its events per second and size,
# in bursts of the same mean size (the server commits several events at
# once, stamped with one at): with 1.23, one event per burst and a second
# in 23 % of them (until 30 Nov 18:15 it rounded to whole events;
# REF_BURST=1 sends single events, as that did at these rates).
read -r interval size burst < <(python3 -c '
import json,sys
s=json.load(open(sys.argv[1]))
rate=max(s.get("events_per_s",5),0.5)
burst=max(s.get("events_per_burst",1),1.0)
if sys.argv[2]: burst=float(sys.argv[2])
print("%dms %d %.3f" % (1000*burst/rate, s.get("avg_bytes",600), burst))' "$work/server.json" "${REF_BURST:-}")
"$work/loadgen" refcast -addr "127.0.0.1:$REFPORT" -interval "$interval" -size "$size" -burst "$burst" &
ref=$!
pids+=("$ref")
sleep 0.5
echo "== $N viewers of the reference broadcaster ($burst events every $interval, $size bytes)"
"$work/loadgen" viewers -url "ws://127.0.0.1:$REFPORT/query" -table 1 -n "$N" -procs "$PROCS" -pid "$ref" -duration "$DURATION" | tee "$work/ref.json"

echo "== ratios (shared 2-core machine: the client harness and other work run beside both)"
"$work/loadgen" compare -server "$work/server.json" -ref "$work/ref.json" -list "$work/list.json" -typename "$work/typename.json"
