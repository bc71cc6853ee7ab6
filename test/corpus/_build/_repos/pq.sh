# lib/pq: the driver package and hstore. Their tests need the CI job's PostgreSQL service (upstream
# CI: docker compose, role and database "pqgo", trust auth; the tests default PGHOST=localhost,
# PGUSER=pqgo, PGDATABASE=pqgo); the job points PGPORT at the service.
# The service: a throwaway PostgreSQL 15 (PGBIN) serves the target-branch run (base); in the
# revision run no database listens (the environment case pq-service-absent).
GO_TEST_ARGS=". ./hstore"
export PGPORT=55494
PQ_PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
PQ_PGDIR=""

pq_service_start() {
  local as=()
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  [ -x "$PQ_PGBIN/postgres" ] || die "no PostgreSQL server in $PQ_PGBIN (set PGBIN)"
  if (exec 3<>"/dev/tcp/127.0.0.1/$PGPORT") 2>/dev/null; then die "port $PGPORT is already in use"; fi
  PQ_PGDIR=$(mktemp -d /tmp/corpus-pq.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres: "$PQ_PGDIR"
  "${as[@]}" "$PQ_PGBIN/initdb" -D "$PQ_PGDIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  "${as[@]}" "$PQ_PGBIN/pg_ctl" -D "$PQ_PGDIR/data" -l "$PQ_PGDIR/log" -w -s \
    -o "-p $PGPORT -k $PQ_PGDIR -c listen_addresses=127.0.0.1" start
  "${as[@]}" "$PQ_PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE pqgo LOGIN SUPERUSER" -c "CREATE DATABASE pqgo OWNER pqgo"
}

pq_service_stop() {
  [ -n "$PQ_PGDIR" ] || return 0
  local as=()
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$PQ_PGBIN/pg_ctl" -D "$PQ_PGDIR/data" -w -s -m fast stop || true
  rm -rf "$PQ_PGDIR"
  PQ_PGDIR=""
}
trap pq_service_stop EXIT

# the runner's runner_test, with the service up when the workspace is at the base (origin/main)
eval "$(declare -f runner_test | sed '1s/^runner_test/pq_runner_test/')"
runner_test() { # runner_test WS RESULTS LOG
  if [ "$(git -C "$1" rev-parse HEAD)" = "$(git -C "$1" rev-parse refs/remotes/origin/main)" ]; then
    pq_service_start
  elif (exec 3<>"/dev/tcp/127.0.0.1/$PGPORT") 2>/dev/null; then
    die "port $PGPORT answers, but the revision run must find no database"
  fi
  pq_runner_test "$@"
  pq_service_stop
}
