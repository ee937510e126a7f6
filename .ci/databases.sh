# shellcheck shell=bash
# .ci/databases.sh — throw-away PostgreSQL and MariaDB servers for the test suite.
#
# Used by .ci/run, and by developers for local runs:
#
#     source .ci/databases.sh && start_databases   # installs servers via apt if missing (root/sudo),
#                                                  # starts both, exports the two URLs below
#     npm test
#     stop_databases                               # stops both servers, deletes their data
#
# start_databases exports
#     CALENDAR_TEST_POSTGRES_URL=postgres://calendar:calendar@127.0.0.1:<port>/calendar_test
#     CALENDAR_TEST_MYSQL_URL=mysql://calendar:calendar@127.0.0.1:<port>/calendar_test
# and, for the read-replica tests, a third PostgreSQL server as primary with two streaming
# replicas (.ci/replication.sh): CALENDAR_TEST_PG_PRIMARY_URL, CALENDAR_TEST_PG_REPLICA_URLS,
# CALENDAR_TEST_PG_CLUSTER, CALENDAR_TEST_PG_BIN.
# The user `calendar` (password `calendar`) is a superuser on PostgreSQL and has ALL PRIVILEGES
# on *.* (with grant option) on MariaDB, so tests may create/drop tables and databases.
#
# Both servers listen on 127.0.0.1 only, on port 55432 / 53306 when free (override the preferred
# ports with CALENDAR_CI_PG_PORT / CALENDAR_CI_MYSQL_PORT), else on the next free port. All data,
# sockets and logs live in one mktemp dir under /tmp (exported as CALENDAR_CI_DB_TMP) that
# stop_databases removes. Settings favour speed over durability (fsync off etc.): test data only.
# PostgreSQL runs as the `postgres` system user when called as root (it refuses to run as root);
# MariaDB runs with --user=root then. Time zone of both servers is UTC, charset UTF-8/utf8mb4.
#
# The functions do not change the caller's shell options; they return non-zero on failure
# (start_databases cleans up after itself before it does).

_ci_log() { printf '==> %s\n' "$*"; }
_ci_err() { printf '!!! %s\n' "$*" >&2; }

# Run a command as root (directly, or through sudo when we are not root).
_ci_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else _ci_err "need root (or sudo) to run: $*"; return 1
  fi
}

# ---- locating binaries -----------------------------------------------------------------------

# Sets _CI_PG_BIN to a directory holding initdb, pg_ctl, postgres, pg_isready, psql.
_ci_find_pg() {
  _CI_PG_BIN=
  local d best=
  # highest version under /usr/lib/postgresql (Debian layout)
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
    if [ -x "$d/initdb" ] && [ -x "$d/postgres" ] && [ -x "$d/pg_ctl" ]; then best=$d; fi
  done
  if [ -z "$best" ] && command -v postgres >/dev/null 2>&1; then
    d=$(dirname "$(readlink -f "$(command -v postgres)")")
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then best=$d; fi
  fi
  [ -n "$best" ] || return 1
  _CI_PG_BIN=$best
}

# Sets _CI_MY_SERVER, _CI_MY_INSTALL_DB, _CI_MY_CLIENT, _CI_MY_ADMIN.
_ci_find_mariadb() {
  local c
  _CI_MY_SERVER= _CI_MY_INSTALL_DB= _CI_MY_CLIENT= _CI_MY_ADMIN=
  for c in mariadbd /usr/sbin/mariadbd mysqld /usr/sbin/mysqld /usr/libexec/mysqld; do
    if c=$(command -v "$c" 2>/dev/null) && [ -x "$c" ]; then _CI_MY_SERVER=$c; break; fi
  done
  for c in mariadb-install-db /usr/bin/mariadb-install-db mysql_install_db /usr/bin/mysql_install_db; do
    if c=$(command -v "$c" 2>/dev/null) && [ -x "$c" ]; then _CI_MY_INSTALL_DB=$c; break; fi
  done
  for c in mariadb mysql; do
    if c=$(command -v "$c" 2>/dev/null); then _CI_MY_CLIENT=$c; break; fi
  done
  for c in mariadb-admin mysqladmin; do
    if c=$(command -v "$c" 2>/dev/null); then _CI_MY_ADMIN=$c; break; fi
  done
  [ -n "$_CI_MY_SERVER" ] && [ -n "$_CI_MY_INSTALL_DB" ] && [ -n "$_CI_MY_CLIENT" ] && [ -n "$_CI_MY_ADMIN" ]
}

# Installs the Debian packages for whichever server is missing (apt-get update once first).
ensure_database_servers() {
  local pkgs=() policy_created=0 rc=0 log t0=$SECONDS
  _ci_find_pg || pkgs+=(postgresql)
  _ci_find_mariadb || pkgs+=(mariadb-server mariadb-client)
  if [ "${#pkgs[@]}" -eq 0 ]; then
    _ci_log "database servers already installed (postgresql: $_CI_PG_BIN, mariadb: $_CI_MY_SERVER)"
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    _ci_err "missing ${pkgs[*]} and no apt-get here: install PostgreSQL and MariaDB server yourself"
    return 1
  fi
  _ci_log "installing ${pkgs[*]} with apt-get"
  # Keep the packages' maintainer scripts from starting system-wide services (which would keep
  # running on 5432/3306 after us): policy-rc.d exit 101 = "not allowed". Docker images ship one.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    _ci_as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d' \
      && policy_created=1
  fi
  # apt's chatter goes to a log, shown only when it fails
  log=$(mktemp /tmp/calendar-ci-apt.XXXXXX.log) || return 1
  _ci_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 </dev/null || rc=$?
  if [ "$rc" -eq 0 ]; then
    _ci_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${pkgs[@]}" \
      >>"$log" 2>&1 </dev/null || rc=$?
  fi
  if [ "$policy_created" -eq 1 ]; then _ci_as_root rm -f /usr/sbin/policy-rc.d; fi
  if [ "$rc" -ne 0 ]; then
    _ci_err "apt-get failed (exit $rc); last lines of its output:"; tail -n 40 "$log" >&2; rm -f "$log"
    return "$rc"
  fi
  rm -f "$log"
  _ci_log "installed ${pkgs[*]} in $((SECONDS - t0))s"
  _ci_find_pg || { _ci_err "postgresql installed but initdb/postgres/pg_ctl not found"; return 1; }
  _ci_find_mariadb || { _ci_err "mariadb installed but mariadbd/mariadb-install-db/mariadb(-admin) not found"; return 1; }
}

# Exit 0 while process $1 exists and is not a zombie (a dead server not yet reaped by init).
_ci_alive() {
  local stat
  stat=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [ -n "$stat" ] && [ "${stat#Z}" = "$stat" ]
}

# ---- ports -----------------------------------------------------------------------------------

# Exit 0 when 127.0.0.1:$1 can be bound right now.
_ci_port_free() {
  local port=$1
  if command -v node >/dev/null 2>&1; then
    node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));
             s.listen(+process.argv[1],"127.0.0.1",()=>s.close(()=>process.exit(0)))' "$port" 2>/dev/null
  else
    # nothing answers there (a listener on 0.0.0.0 or 127.0.0.1 would)
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
  fi
}

# Prints the first free port from $1 on (tries 50), skipping the ports given as further args.
_ci_pick_port() {
  local port=$1 i skip ok; shift
  for ((i = 0; i < 50; i++, port++)); do
    ok=1
    for skip in "$@"; do [ "$port" = "$skip" ] && ok=0; done
    if [ "$ok" -eq 1 ] && _ci_port_free "$port"; then echo "$port"; return 0; fi
  done
  _ci_err "no free TCP port found in $1..$port"; return 1
}

# ---- PostgreSQL ------------------------------------------------------------------------------

_ci_pg_run() {  # run a PostgreSQL binary as the postgres user when we are root
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else (cd / && "$@"); fi
}

_ci_start_postgres() {
  local dir=$CALENDAR_CI_DB_TMP/pg port=$1 i
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin postgres \
      || { _ci_err "could not create the postgres system user"; return 1; }
  fi
  mkdir -p "$dir" || return 1
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir" || return 1; fi
  chmod 700 "$dir" || return 1
  _ci_log "starting postgresql ($("$_CI_PG_BIN/postgres" --version | awk '{print $3}')) on 127.0.0.1:$port"
  if ! _ci_pg_run "$_CI_PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 \
        --locale=C --no-sync >"$CALENDAR_CI_DB_TMP/pg-initdb.log" 2>&1; then
    _ci_err "initdb failed:"; tail -n 30 "$CALENDAR_CI_DB_TMP/pg-initdb.log" >&2; return 1
  fi
  cat >>"$dir/data/postgresql.conf" <<CONF || return 1

# --- added by .ci/databases.sh (throw-away test server) ---
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
timezone = 'UTC'
max_connections = 200
CONF
  _CI_PG_PORT=$port
  if ! _ci_pg_run "$_CI_PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 start >/dev/null; then
    _ci_err "postgresql did not start; last lines of its log:"; tail -n 40 "$dir/postgres.log" >&2; return 1
  fi
  for ((i = 0; i < 60; i++)); do
    "$_CI_PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t 2 && break
    sleep 1
  done
  if [ "$i" -ge 60 ]; then
    _ci_err "postgresql not accepting connections on 127.0.0.1:$port after 60s; last lines of its log:"
    tail -n 40 "$dir/postgres.log" >&2; return 1
  fi
  if ! _ci_pg_run "$_CI_PG_BIN/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE calendar LOGIN SUPERUSER PASSWORD 'calendar'" \
        -c "CREATE DATABASE calendar_test OWNER calendar ENCODING 'UTF8'" >/dev/null; then
    _ci_err "could not create role/database on postgresql"; return 1
  fi
}

_ci_stop_postgres() {
  local data=$CALENDAR_CI_DB_TMP/pg/data pid i
  [ -f "$data/postmaster.pid" ] || return 0
  pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null)
  _ci_log "stopping postgresql"
  _ci_pg_run "$_CI_PG_BIN/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
  [ -n "$pid" ] || return 0
  for ((i = 0; i < 10; i++)); do _ci_alive "$pid" || return 0; sleep 1; done
  _ci_err "postgresql (pid $pid) did not stop; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
}

# ---- MariaDB ---------------------------------------------------------------------------------

_ci_my_sql() {  # run SQL as root over the unix socket
  "$_CI_MY_CLIENT" --no-defaults -S "$CALENDAR_CI_DB_TMP/mysql/mysqld.sock" -u root "$@"
}

_ci_start_mariadb() {
  local dir=$CALENDAR_CI_DB_TMP/mysql port=$1 i pid user=()
  if [ "$(id -u)" -eq 0 ]; then user=(--user=root); fi
  mkdir -p "$dir/data" "$dir/tmp" || return 1
  _ci_log "starting mariadb ($("$_CI_MY_SERVER" --version | sed 's/^.*Ver //; s/-MariaDB.*//; s/ .*//')) on 127.0.0.1:$port"
  if ! "$_CI_MY_INSTALL_DB" --no-defaults --datadir="$dir/data" "${user[@]}" \
        --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
        >"$CALENDAR_CI_DB_TMP/mariadb-install-db.log" 2>&1 </dev/null; then
    _ci_err "mariadb-install-db failed:"; tail -n 30 "$CALENDAR_CI_DB_TMP/mariadb-install-db.log" >&2; return 1
  fi
  # Subshell: the server is not a job of the caller's shell (no job-control noise when sourced).
  ( exec "$_CI_MY_SERVER" --no-defaults "${user[@]}" --datadir="$dir/data" --tmpdir="$dir/tmp" \
      --socket="$dir/mysqld.sock" --port="$port" --bind-address=127.0.0.1 --skip-name-resolve \
      --pid-file="$dir/mysqld.pid" --log-error="$dir/mysqld.log" \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci --default-time-zone=+00:00 \
      --max-connections=300 --innodb-buffer-pool-size=256M --innodb-flush-log-at-trx-commit=0 \
      --innodb-doublewrite=0 --skip-log-bin \
      </dev/null >>"$dir/mysqld.log" 2>&1 ) &
  pid=$!
  echo "$pid" >"$dir/server.pid"
  _CI_MY_PORT=$port
  for ((i = 0; i < 60; i++)); do
    if ! _ci_alive "$pid"; then i=999; break; fi
    "$_CI_MY_ADMIN" --no-defaults -S "$dir/mysqld.sock" -u root --connect-timeout=2 ping >/dev/null 2>&1 && break
    sleep 1
  done
  if [ "$i" -ge 60 ]; then
    if [ "$i" -eq 999 ]; then _ci_err "mariadb exited during start-up; last lines of its log:"
    else _ci_err "mariadb not accepting connections after 60s; last lines of its log:"; fi
    tail -n 40 "$dir/mysqld.log" >&2; return 1
  fi
  if ! _ci_my_sql -e "
        CREATE DATABASE IF NOT EXISTS calendar_test CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
        CREATE USER 'calendar'@'127.0.0.1' IDENTIFIED BY 'calendar';
        CREATE USER 'calendar'@'localhost' IDENTIFIED BY 'calendar';
        CREATE USER 'calendar'@'%' IDENTIFIED BY 'calendar';
        GRANT ALL PRIVILEGES ON *.* TO 'calendar'@'127.0.0.1' WITH GRANT OPTION;
        GRANT ALL PRIVILEGES ON *.* TO 'calendar'@'localhost' WITH GRANT OPTION;
        GRANT ALL PRIVILEGES ON *.* TO 'calendar'@'%' WITH GRANT OPTION;
        FLUSH PRIVILEGES;"; then
    _ci_err "could not create user/database on mariadb"; return 1
  fi
}

_ci_stop_mariadb() {
  local dir=$CALENDAR_CI_DB_TMP/mysql pid i
  [ -f "$dir/server.pid" ] || return 0
  pid=$(cat "$dir/server.pid")
  _ci_alive "$pid" || return 0
  _ci_log "stopping mariadb"
  "$_CI_MY_ADMIN" --no-defaults -S "$dir/mysqld.sock" -u root --connect-timeout=5 shutdown >/dev/null 2>&1 \
    || kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 30; i++)); do _ci_alive "$pid" || return 0; sleep 1; done
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 10; i++)); do _ci_alive "$pid" || return 0; sleep 1; done
  _ci_err "mariadb (pid $pid) did not stop; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
}

# ---- public API ------------------------------------------------------------------------------

start_databases() {
  local pg_port my_port t0=$SECONDS
  if [ -n "${CALENDAR_CI_DB_TMP:-}" ] && [ -d "$CALENDAR_CI_DB_TMP" ]; then
    _ci_log "databases already started by this shell ($CALENDAR_CI_DB_TMP); run stop_databases first"
    return 0
  fi
  ensure_database_servers || return 1
  CALENDAR_CI_DB_TMP=$(mktemp -d /tmp/calendar-ci-db.XXXXXX) || { _ci_err "mktemp failed"; return 1; }
  export CALENDAR_CI_DB_TMP
  chmod 755 "$CALENDAR_CI_DB_TMP"   # the postgres user must reach its sub-directory
  if pg_port=$(_ci_pick_port "${CALENDAR_CI_PG_PORT:-55432}") \
     && _ci_start_postgres "$pg_port" \
     && my_port=$(_ci_pick_port "${CALENDAR_CI_MYSQL_PORT:-53306}" "$pg_port") \
     && _ci_start_mariadb "$my_port"; then
    # Only the replica tests need it: without it they start clusters of their own.
    if start_replication "$CALENDAR_CI_DB_TMP/replication"; then
      export CALENDAR_TEST_PG_PRIMARY_URL CALENDAR_TEST_PG_REPLICA_URLS CALENDAR_TEST_PG_CLUSTER CALENDAR_TEST_PG_BIN
    else
      _ci_err "the primary with two replicas did not start; the replica tests start their own"
      stop_replication "$CALENDAR_CI_DB_TMP/replication"
    fi
    export CALENDAR_TEST_POSTGRES_URL="postgres://calendar:calendar@127.0.0.1:$pg_port/calendar_test"
    export CALENDAR_TEST_MYSQL_URL="mysql://calendar:calendar@127.0.0.1:$my_port/calendar_test"
    _ci_log "databases ready in $((SECONDS - t0))s:"
    _ci_log "  CALENDAR_TEST_POSTGRES_URL=$CALENDAR_TEST_POSTGRES_URL"
    _ci_log "  CALENDAR_TEST_MYSQL_URL=$CALENDAR_TEST_MYSQL_URL"
    _ci_log "  CALENDAR_TEST_PG_PRIMARY_URL=${CALENDAR_TEST_PG_PRIMARY_URL:-}"
    _ci_log "  CALENDAR_TEST_PG_REPLICA_URLS=${CALENDAR_TEST_PG_REPLICA_URLS:-}"
    return 0
  fi
  _ci_err "starting the databases failed; cleaning up"
  stop_databases
  return 1
}

# Stops whatever start_databases started and removes its temp dir. Safe to call more than once.
stop_databases() {
  [ -n "${CALENDAR_CI_DB_TMP:-}" ] || return 0
  if [ -d "$CALENDAR_CI_DB_TMP" ]; then
    if [ -n "${_CI_PG_BIN:-}" ]; then _ci_stop_postgres; stop_replication "$CALENDAR_CI_DB_TMP/replication"; fi
    if [ -n "${_CI_MY_ADMIN:-}" ]; then _ci_stop_mariadb; fi
    rm -rf "$CALENDAR_CI_DB_TMP"
  fi
  unset CALENDAR_CI_DB_TMP CALENDAR_TEST_POSTGRES_URL CALENDAR_TEST_MYSQL_URL
  unset CALENDAR_TEST_PG_PRIMARY_URL CALENDAR_TEST_PG_REPLICA_URLS CALENDAR_TEST_PG_CLUSTER CALENDAR_TEST_PG_BIN
  return 0
}

# Prints the last lines of both server logs (for a failed test run).
print_database_logs() {
  local f
  for f in "${CALENDAR_CI_DB_TMP:-/nonexistent}/pg/postgres.log" "${CALENDAR_CI_DB_TMP:-/nonexistent}/mysql/mysqld.log" \
           "${CALENDAR_CI_DB_TMP:-/nonexistent}"/replication/{primary,r1,r2}.log; do
    [ -f "$f" ] || continue
    printf -- '---- last lines of %s ----\n' "${f##*/}"
    tail -n 40 "$f"
  done
}

# The primary with two replicas (start_replication, stop_replication).
if [ -z "${_CI_REPLICATION_LOADED:-}" ]; then
  # shellcheck source=replication.sh
  source "$(dirname "${BASH_SOURCE[0]}")/replication.sh"
fi
