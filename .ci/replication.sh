# shellcheck shell=bash
# .ci/replication.sh — a throw-away PostgreSQL primary with two streaming replicas, on loopback.
#
# Sourced by .ci/databases.sh (start_databases starts one for the `replicas` tests and exports
# the variables below), and run by the failover tests, which need a cluster of their own to
# stop and promote:
#
#     bash .ci/replication.sh start <dir>   # prints the KEY=value lines below, once streaming
#     bash .ci/replication.sh stop <dir>    # stops the three servers (the caller removes <dir>)
#
#     CALENDAR_TEST_PG_PRIMARY_URL=postgres://calendar:calendar@127.0.0.1:<p0>/calendar_test
#     CALENDAR_TEST_PG_REPLICA_URLS=postgres://…:<p1>/calendar_test,postgres://…:<p2>/calendar_test
#     CALENDAR_TEST_PG_CLUSTER=<dir>         # holds primary/, r1/, r2/ (data directories)
#     CALENDAR_TEST_PG_BIN=<dir of pg_ctl>   # the tests run pg_ctl as the postgres user when root
#
# Each server listens on 127.0.0.1 only, on a free port from 56432 on. The replicas were taken with
# pg_basebackup -R (standby.signal, primary_conninfo) and stream through slots r1 and r2. Test data
# only: fsync is off, every login is trusted.

# The helpers of databases.sh (which sources this file in turn, unless it is loading it).
_CI_REPLICATION_LOADED=1
if ! declare -F _ci_pick_port >/dev/null; then
  # shellcheck source=databases.sh
  source "$(dirname "${BASH_SOURCE[0]}")/databases.sh"
fi

# Starts the cluster in the empty directory $1 and sets the variables above (not exported).
start_replication() {
  local dir p0 p1 p2 i n t0=$SECONDS
  # Absolute: the servers run from / (see _ci_pg_run).
  dir=$(realpath -m -- "$1") || return 1
  _ci_find_pg || { _ci_err "no PostgreSQL binaries (initdb, pg_ctl) found"; return 1; }
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin postgres || return 1
  fi
  mkdir -p "$dir" || return 1
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir" || return 1; fi
  chmod 700 "$dir" || return 1
  p0=$(_ci_pick_port "${CALENDAR_CI_REPLICATION_PORT:-56432}") || return 1
  p1=$(_ci_pick_port $((p0 + 1)) "$p0") || return 1
  p2=$(_ci_pick_port $((p1 + 1)) "$p0" "$p1") || return 1
  _ci_log "starting a postgresql primary on 127.0.0.1:$p0 and replicas on $p1, $p2"
  _ci_pg_run "$_CI_PG_BIN/initdb" -D "$dir/primary" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1 || { _ci_err "initdb failed:"; tail -n 30 "$dir/initdb.log" >&2; return 1; }
  cat >>"$dir/primary/postgresql.conf" <<CONF || return 1

# --- added by .ci/replication.sh (throw-away test cluster) ---
listen_addresses = '127.0.0.1'
port = $p0
unix_socket_directories = '$dir'
fsync = off
full_page_writes = off
timezone = 'UTC'
max_connections = 200
wal_level = replica
max_wal_senders = 10
max_replication_slots = 10
hot_standby = on
hot_standby_feedback = on
cluster_name = 'primary'
CONF
  _ci_pg_run "$_CI_PG_BIN/pg_ctl" -D "$dir/primary" -l "$dir/primary.log" -w -t 60 start >/dev/null \
    || { _ci_err "the primary did not start:"; tail -n 30 "$dir/primary.log" >&2; return 1; }
  _ci_pg_run "$_CI_PG_BIN/psql" -X -q -h "$dir" -p "$p0" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE calendar LOGIN SUPERUSER PASSWORD 'calendar'" \
    -c "CREATE DATABASE calendar_test OWNER calendar ENCODING 'UTF8'" >/dev/null || return 1
  for n in 1 2; do
    local port=$p1
    [ "$n" -eq 2 ] && port=$p2
    _ci_pg_run "$_CI_PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$p0" -U postgres -D "$dir/r$n" -X stream -R -C -S "r$n" -c fast --no-sync \
      >"$dir/basebackup-r$n.log" 2>&1 || { _ci_err "pg_basebackup r$n failed:"; tail -n 30 "$dir/basebackup-r$n.log" >&2; return 1; }
    printf "port = %s\ncluster_name = 'r%s'\n" "$port" "$n" | _ci_pg_run tee -a "$dir/r$n/postgresql.auto.conf" >/dev/null || return 1
    _ci_pg_run "$_CI_PG_BIN/pg_ctl" -D "$dir/r$n" -l "$dir/r$n.log" -w -t 60 start >/dev/null \
      || { _ci_err "replica r$n did not start:"; tail -n 30 "$dir/r$n.log" >&2; return 1; }
  done
  for ((i = 0; i < 300; i++)); do
    n=$(_ci_pg_run "$_CI_PG_BIN/psql" -X -qAt -h "$dir" -p "$p0" -U postgres -d postgres \
      -c "select count(*) from pg_stat_replication where state = 'streaming'" 2>/dev/null)
    [ "$n" = 2 ] && break
    sleep 0.02
  done
  [ "$n" = 2 ] || { _ci_err "the replicas are not streaming after $i tries"; return 1; }
  CALENDAR_TEST_PG_PRIMARY_URL="postgres://calendar:calendar@127.0.0.1:$p0/calendar_test"
  CALENDAR_TEST_PG_REPLICA_URLS="postgres://calendar:calendar@127.0.0.1:$p1/calendar_test,postgres://calendar:calendar@127.0.0.1:$p2/calendar_test"
  CALENDAR_TEST_PG_CLUSTER=$dir
  CALENDAR_TEST_PG_BIN=$_CI_PG_BIN
  _ci_log "primary and two streaming replicas ready in $((SECONDS - t0))s"
}

# Stops every server of the cluster in $1 that is running (immediately: test data only).
stop_replication() {
  local dir d
  dir=$(realpath -m -- "$1") || return 1
  _ci_find_pg || return 0
  for d in "$dir"/primary "$dir"/r1 "$dir"/r2; do
    [ -f "$d/postmaster.pid" ] || continue
    _ci_pg_run "$_CI_PG_BIN/pg_ctl" -D "$d" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    start)
      [ -n "${2:-}" ] || { echo "usage: $0 start <dir>" >&2; exit 2; }
      start_replication "$2" >&2 || { stop_replication "$2"; exit 1; }
      printf 'CALENDAR_TEST_PG_PRIMARY_URL=%s\nCALENDAR_TEST_PG_REPLICA_URLS=%s\nCALENDAR_TEST_PG_CLUSTER=%s\nCALENDAR_TEST_PG_BIN=%s\n' \
        "$CALENDAR_TEST_PG_PRIMARY_URL" "$CALENDAR_TEST_PG_REPLICA_URLS" "$CALENDAR_TEST_PG_CLUSTER" "$CALENDAR_TEST_PG_BIN"
      ;;
    stop)
      [ -n "${2:-}" ] || { echo "usage: $0 stop <dir>" >&2; exit 2; }
      stop_replication "$2"
      ;;
    *) echo "usage: $0 start|stop <dir>" >&2; exit 2 ;;
  esac
fi
