#!/usr/bin/env bash
# Stops everything deploy/ha/up.sh started (by the pids it recorded) and
# removes HA_DIR. Safe to run when nothing is up.
set -uo pipefail
cd "$(dirname "$0")"
. ./env.sh
[ -d "$HA_DIR" ] || { echo "nothing to stop ($HA_DIR does not exist)"; exit 0; }
stop_pid() { # pidfile, signal
	local f=$1 sig=${2:-TERM}
	[ -f "$f" ] || return 0
	local pid; pid=$(cat "$f")
	if kill -0 "$pid" 2>/dev/null; then
		kill "-$sig" -- "-$pid" 2>/dev/null || kill "-$sig" "$pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}
for f in "$HA_DIR"/run/server-*.pid; do stop_pid "$f"; done
for f in "$HA_DIR"/run/sentinel-*.pid "$HA_DIR"/run/redis-*.pid; do stop_pid "$f"; done
for n in node3 node2 node1 monitor; do stop_pid "$HA_DIR/run/$n.pid"; done
# A postmaster whose keeper was killed (chaos.sh) may outlive it: stop each
# data folder's own postmaster by its postmaster.pid.
for d in "$HA_DIR"/pg/node1 "$HA_DIR"/pg/node2 "$HA_DIR"/pg/node3 "$HA_DIR"/pg/monitor; do
	if [ -f "$d/postmaster.pid" ]; then
		pid=$(head -1 "$d/postmaster.pid")
		kill -0 "$pid" 2>/dev/null && kill -QUIT "$pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	fi
done
rm -rf "$HA_DIR"
echo "HA topology down; $HA_DIR removed"
