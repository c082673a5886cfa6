# Shared settings of deploy/ha/up.sh, down.sh and chaos.sh (sourced).
HA_DIR=${HA_DIR:-/tmp/pokertote-ha}
PG_BIN=/usr/lib/postgresql/15/bin
MONITOR_PORT=${MONITOR_PORT:-5500}
NODE1_PORT=${NODE1_PORT:-5501}
NODE2_PORT=${NODE2_PORT:-5502}
NODE3_PORT=${NODE3_PORT:-5503} # the second standby, with HA_STANDBYS=2
HA_STANDBYS=${HA_STANDBYS:-1}
REDIS_MASTER_PORT=${REDIS_MASTER_PORT:-6390}
REDIS_REPLICA_PORT=${REDIS_REPLICA_PORT:-6391}
SENTINEL_PORTS=${SENTINEL_PORTS:-"26390 26391 26392"}
SERVER_PORTS=${SERVER_PORTS:-"8091 8092"}
PG_PROXY_BASE=${PG_PROXY_BASE:-5510} # per server replica: a cuttable proxy to each node (chaos.sh)
DB_NAME=pokertote
ADMIN_EMAIL=${ADMIN_EMAIL:-admin@ha.local}
ADMIN_PASSWORD=${ADMIN_PASSWORD:-ha admin password 1}
# pg_autoctl keeps its configuration and state under XDG folders: inside
# HA_DIR, so down.sh removes every trace.
export XDG_CONFIG_HOME=$HA_DIR/xdg/config XDG_DATA_HOME=$HA_DIR/xdg/data XDG_RUNTIME_DIR=$HA_DIR/xdg/run
export PATH=$PG_BIN:/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin

as_pg() { runuser -u postgres -- env XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" PATH="$PATH" "$@"; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
sentinels_csv() { local s=""; for p in $SENTINEL_PORTS; do s="$s${s:+,}127.0.0.1:$p"; done; echo "$s"; }
pg_hosts() { local h="127.0.0.1:$NODE1_PORT,127.0.0.1:$NODE2_PORT"; [ "$HA_STANDBYS" -lt 2 ] || h="$h,127.0.0.1:$NODE3_PORT"; echo "$h"; }
database_url() { echo "postgres://postgres@$(pg_hosts)/$DB_NAME?target_session_attrs=read-write&connect_timeout=2&sslmode=disable"; }
read_url() { echo "postgres://postgres@$(pg_hosts)/$DB_NAME?target_session_attrs=prefer-standby&connect_timeout=2&sslmode=disable"; }
