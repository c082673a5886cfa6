#!/usr/bin/env bash
# The Postgres side of the restore drill: a scratch cluster of its own, on
# its own port, in a folder of its own, backed up with pgBackRest exactly as
# deploy/postgres/ sets up production (WAL archived by archive-push, full
# backups), and restored to a point in time.
#
#   drill-cluster.sh init DIR PORT     new cluster, stanza, database pokertote, a full backup
#   drill-cluster.sh backup DIR        another full backup
#   drill-cluster.sh archive DIR       switch the WAL and wait until it is archived
#   drill-cluster.sh restore DIR TIME  stop, restore the last backup and replay the
#                                      archive to TIME (a timestamptz), promote, start
#   drill-cluster.sh stop DIR          stop the cluster (the folder stays)
#
# Postgres refuses to run as root: as root every command runs as the
# postgres user (the folder is given to it); otherwise as the caller.
# app/restore_drill_test.go plays draws against it and checks the restored
# database (docs/operations.md, "Restore drill").
set -euo pipefail

cmd=${1:?usage: drill-cluster.sh init|backup|archive|restore|stop DIR [ARG]}
dir=${2:?the drill folder}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -x "$bindir/initdb" ] || { echo "PostgreSQL's server binaries are not installed: sudo apt-get install -y postgresql" >&2; exit 1; }
command -v pgbackrest >/dev/null || { echo "pgBackRest is not installed: sudo apt-get install -y pgbackrest" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
br() { as_pg pgbackrest --config="$dir/pgbackrest.conf" --stanza=drill "$@"; }
pgctl() { as_pg "$bindir/pg_ctl" -D "$dir/pgdata" -l "$dir/postgres.log" -w -t 60 "$@"; }
port() { cat "$dir/port"; }
sql() { as_pg "$bindir/psql" -X -q -t -A -h "$dir/sock" -p "$(port)" -d postgres -v ON_ERROR_STOP=1 -c "$1"; }

init() {
  local port=${3:?the port}
  mkdir -p "$dir"/{sock,repo,log,lock,spool}
  echo "$port" >"$dir/port"
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres: "$dir"
    runuser -u postgres -- test -w "$dir" || { echo "user postgres cannot reach $dir: give its parent folders o+x" >&2; exit 1; }
  fi
  cat >"$dir/pgbackrest.conf" <<CONF
[global]
repo1-path=$dir/repo
repo1-retention-full=2
log-path=$dir/log
lock-path=$dir/lock
spool-path=$dir/spool
log-level-console=warn
log-level-file=info
start-fast=y
archive-async=n
compress-type=lz4

[drill]
pg1-path=$dir/pgdata
pg1-port=$port
pg1-socket-path=$dir/sock
CONF
  as_pg "$bindir/initdb" -D "$dir/pgdata" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  cat >>"$dir/pgdata/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir/sock'
wal_level = replica
archive_mode = on
archive_command = 'pgbackrest --config=$dir/pgbackrest.conf --stanza=drill archive-push %p'
max_wal_senders = 3
fsync = off
CONF
  pgctl start >/dev/null
  br stanza-create
  sql "CREATE DATABASE pokertote"
  br backup --type=full
}

restore() {
  local target=${3:?the target time}
  pgctl stop -m fast >/dev/null
  br restore --delta --type=time --target="$target" --target-action=promote
  pgctl start >/dev/null
  for _ in $(seq 1 120); do
    [ "$(sql 'SELECT pg_is_in_recovery()')" = f ] && return
    sleep 0.5
  done
  echo "the restored cluster did not leave recovery (see $dir/postgres.log)" >&2
  exit 1
}

case "$cmd" in
  init) init "$@" ;;
  backup) br backup --type=full ;;
  archive) br check ;;
  restore) restore "$@" ;;
  stop) [ -f "$dir/pgdata/postmaster.pid" ] && pgctl stop -m fast >/dev/null || true ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
