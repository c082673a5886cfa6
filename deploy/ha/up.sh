#!/usr/bin/env bash
# Brings up the local HA topology of issue 27 on 127.0.0.1 (docs/scaling.md):
#   - Postgres 15 primary + synchronous hot standby managed by pg_auto_failover
#     (monitor on :5500, nodes on :5501 and :5502), failover in seconds;
#     HA_STANDBYS=2 adds a second standby on :5503 and sets
#     number-sync-standbys 1 (losing one standby then keeps commits
#     synchronous on the other; losing both stops writes rather than run
#     unreplicated);
#   - Redis master :6390 + replica :6391 + three Sentinels :26390-26392;
#   - two Pokertote server replicas :8091 and :8092 (HA_SERVERS=0: none)
#     following the primary (multi-host DATABASE_URL) and the Redis master
#     (REDIS_SENTINELS), reading lag-tolerant queries from the standby.
# Run as root (it installs the Debian packages it needs and runs Postgres as
# the postgres user). Idempotent: what already runs is left alone. Every
# file lives under HA_DIR (default /tmp/pokertote-ha); down.sh removes it.
set -euo pipefail
cd "$(dirname "$0")"
. ./env.sh
REPO=$(cd ../.. && pwd)
HA_SERVERS=${HA_SERVERS:-2}

need_pkgs=()
command -v pg_autoctl >/dev/null || need_pkgs+=(pg-auto-failover-cli postgresql-15-auto-failover)
[ -x "$PG_BIN/postgres" ] || need_pkgs+=(postgresql-15)
command -v redis-server >/dev/null || need_pkgs+=(redis-server)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	echo "installing ${need_pkgs[*]}"
	# policy-rc.d keeps the packages' own services from starting.
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
	rm -f /usr/sbin/policy-rc.d
fi

mkdir -p "$HA_DIR"/{xdg/config,xdg/data,xdg/run,log,run,redis,pg}
chown -R postgres:postgres "$HA_DIR"/xdg "$HA_DIR"/log "$HA_DIR"/pg
chmod 700 "$HA_DIR"/xdg/run
chmod 755 "$HA_DIR"

wait_for() { # description, seconds, command...
	local what=$1 secs=$2; shift 2
	for _ in $(seq $((secs * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
	echo "timed out waiting for $what; last log lines:" >&2
	tail -n 5 "$HA_DIR"/log/*.log >&2; return 1
}
sql_at() { as_pg "$PG_BIN/psql" -qAtX -h 127.0.0.1 -p "$1" -U postgres -d "$2" -c "$3"; }

# --- Postgres: monitor + two nodes ------------------------------------------
start_keeper() { # name, pgdata, create args...
	local name=$1 data=$2; shift 2
	if alive "$HA_DIR/run/$name.pid"; then return; fi
	if [ -f "$data/PG_VERSION" ]; then
		setsid nohup runuser -u postgres -- env XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" PATH="$PATH" \
			pg_autoctl run --pgdata "$data" >>"$HA_DIR/log/$name.log" 2>&1 &
	else
		setsid nohup runuser -u postgres -- env XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" PATH="$PATH" \
			pg_autoctl "$@" --pgdata "$data" --hostname 127.0.0.1 --auth trust --no-ssl --run >>"$HA_DIR/log/$name.log" 2>&1 &
	fi
	echo $! >"$HA_DIR/run/$name.pid"
}
MONITOR_URL="postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable"
start_keeper monitor "$HA_DIR/pg/monitor" create monitor --pgport "$MONITOR_PORT"
wait_for "the monitor" 60 sql_at "$MONITOR_PORT" pg_auto_failover "SELECT 1 FROM pgautofailover.formation"
# Fail over in seconds rather than the defaults' ~30 s: check health every
# second, give up on a node after 3 s, do not wait long for a dead primary to
# confirm its demotion (every node is on this machine: a primary that does not
# answer is down, not partitioned from the monitor).
for setting in "health_check_period = '1s'" "health_check_timeout = '1s'" "health_check_max_retries = 1" \
	"health_check_retry_delay = '500ms'" "node_considered_unhealthy_timeout = '3s'" "primary_demote_timeout = '3s'"; do
	sql_at "$MONITOR_PORT" postgres "ALTER SYSTEM SET pgautofailover.$setting"
done
sql_at "$MONITOR_PORT" postgres "SELECT pg_reload_conf()" >/dev/null

start_keeper node1 "$HA_DIR/pg/node1" create postgres --pgport "$NODE1_PORT" --monitor "$MONITOR_URL" --dbname "$DB_NAME" --name node1
wait_for "node1 as primary" 120 sh -c "'$PG_BIN/psql' -qAtX -h 127.0.0.1 -p $MONITOR_PORT -U postgres -d pg_auto_failover -c \"SELECT 1 FROM pgautofailover.node WHERE reportedstate IN ('single','primary','wait_primary')\" | grep -q 1"
start_keeper node2 "$HA_DIR/pg/node2" create postgres --pgport "$NODE2_PORT" --monitor "$MONITOR_URL" --dbname "$DB_NAME" --name node2
wait_for "a synchronous standby" 180 sh -c "'$PG_BIN/psql' -qAtX -h 127.0.0.1 -p $MONITOR_PORT -U postgres -d pg_auto_failover -c \"SELECT count(*) FROM pgautofailover.node WHERE reportedstate IN ('primary','secondary')\" | grep -qx 2"
# Commits wait for the standby (synchronous_standby_names = '*' while it is
# healthy, synchronous_commit on): what was answered is on both nodes. With
# one standby number_sync_standbys must stay 0, so a primary that loses its
# standby goes on alone (wait_primary, synchronous_standby_names = '').
# With a second standby it is 1: one standby may be lost, both stop writes.
if [ "$HA_STANDBYS" -ge 2 ]; then
	start_keeper node3 "$HA_DIR/pg/node3" create postgres --pgport "$NODE3_PORT" --monitor "$MONITOR_URL" --dbname "$DB_NAME" --name node3
	wait_for "two synchronous standbys" 180 sh -c "'$PG_BIN/psql' -qAtX -h 127.0.0.1 -p $MONITOR_PORT -U postgres -d pg_auto_failover -c \"SELECT count(*) FROM pgautofailover.node WHERE reportedstate IN ('primary','secondary')\" | grep -qx 3"
	# pg_auto_failover sets 1 by itself when the second standby joins (and
	# then refuses setting it again): set it only if it is still 0.
	if [ "$(sql_at "$MONITOR_PORT" pg_auto_failover "SELECT number_sync_standbys FROM pgautofailover.formation WHERE formationid = 'default'")" = 0 ]; then
		as_pg pg_autoctl set formation number-sync-standbys 1 --pgdata "$HA_DIR/pg/monitor" >/dev/null
	fi
fi
as_pg pg_autoctl show state --pgdata "$HA_DIR/pg/monitor"

# --- Redis: master, replica, three sentinels --------------------------------
start_redis() { # name, port, extra args...
	local name=$1 port=$2; shift 2
	if alive "$HA_DIR/run/$name.pid"; then return; fi
	mkdir -p "$HA_DIR/redis/$name"
	redis-server --port "$port" --bind 127.0.0.1 --dir "$HA_DIR/redis/$name" --save "" --appendonly no \
		--daemonize yes --pidfile "$HA_DIR/run/$name.pid" --logfile "$HA_DIR/log/$name.log" "$@"
	wait_for "redis $name" 20 redis-cli -p "$port" ping
}
start_redis redis-master "$REDIS_MASTER_PORT"
start_redis redis-replica "$REDIS_REPLICA_PORT" --replicaof 127.0.0.1 "$REDIS_MASTER_PORT"
for p in $SENTINEL_PORTS; do
	f="$HA_DIR/redis/sentinel-$p.conf"
	if [ ! -f "$f" ]; then
		cat >"$f" <<CONF
port $p
bind 127.0.0.1
daemonize yes
pidfile $HA_DIR/run/sentinel-$p.pid
logfile $HA_DIR/log/sentinel-$p.log
dir $HA_DIR/redis
sentinel monitor mymaster 127.0.0.1 $REDIS_MASTER_PORT 2
sentinel down-after-milliseconds mymaster 1000
sentinel failover-timeout mymaster 5000
sentinel parallel-syncs mymaster 1
CONF
	fi
	alive "$HA_DIR/run/sentinel-$p.pid" || redis-server "$f" --sentinel
	wait_for "sentinel $p" 20 redis-cli -p "$p" ping
done

# --- Pokertote server replicas -----------------------------------------------
if [ "$HA_SERVERS" -gt 0 ]; then
	if [ ! -x "$HA_DIR/pokertote" ] || [ -n "${HA_REBUILD:-}" ]; then
		(cd "$REPO" && go build -o "$HA_DIR/pokertote" ./cmd/server)
	fi
	i=0
	for port in $SERVER_PORTS; do
		i=$((i + 1))
		[ "$i" -le "$HA_SERVERS" ] || break
		alive "$HA_DIR/run/server-$port.pid" && continue
		env ADDR=127.0.0.1:$port DATABASE_URL="$(database_url)" DATABASE_READ_URL="$(read_url)" \
			REDIS_SENTINELS="$(sentinels_csv)" REDIS_MASTER_NAME=mymaster REDIS_PREFIX=pokertote-ha: \
			JWT_SECRET="local HA topology secret, 32 bytes or more" DOCUMENT_PEPPER="local HA topology pepper, 32 bytes or more" \
			ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" TIME_SCALE="${HA_TIME_SCALE:-1}" LOG_LEVEL=warn \
			setsid nohup "$HA_DIR/pokertote" >>"$HA_DIR/log/server-$port.log" 2>&1 &
		echo $! >"$HA_DIR/run/server-$port.pid"
		wait_for "server :$port" 60 curl -fsS "http://127.0.0.1:$port/readyz"
	done
fi

echo
echo "HA topology up (files under $HA_DIR, logs in $HA_DIR/log):"
echo "  DATABASE_URL=$(database_url)"
echo "  DATABASE_READ_URL=$(read_url)"
echo "  REDIS_SENTINELS=$(sentinels_csv) REDIS_MASTER_NAME=mymaster"
echo "  monitor: postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover"
i=0
for port in $SERVER_PORTS; do i=$((i + 1)); [ "$i" -le "$HA_SERVERS" ] && echo "  server: http://127.0.0.1:$port/"; done
echo "  admin: $ADMIN_EMAIL / $ADMIN_PASSWORD"
