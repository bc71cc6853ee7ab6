#!/usr/bin/env bash
# Builds the acceptance-scenario cases of test/corpus/ (format: test/corpus/README.md) from REAL
# test runs. For each case in test/corpus/_build/<case>/ (a base tree, a revision tree, their
# commit messages, case.in.json with the truth):
#   1. a tiny git repository with two commits (fixed authors and dates, so the shas are stable)
#      -> <case>/repo.bundle (refs: main = base, change = revision, HEAD -> main)
#   2. the project's tests, run at the base and at the revision in a CI-like workspace
#      ($CORPUS_WORKSPACE/<repository>, default /builds/ci-corpus/<repository>)
#      -> <case>/history/base/ and <case>/report/ (Allure 2 report, or JUnit XML)
#   3. <case>/case.json (base and revision shas filled in)
# then checks every case: the bundle clones and holds both commits, the report has exactly
# truth.failures failing tests, the base run passes (pre-existing: fails the same tests), and
# every truth location exists at the revision and shows the expected code.
#
# Usage: bash test/corpus/build.sh [CASE...]      (default: every case; idempotent)
#        bash test/corpus/build.sh --check         (only the self-check of the committed cases)
# Needs: node 20 + the root node_modules (allure-commandline; run npm ci first), java 17 (Allure
# and Maven), mvn, python3, go, PostgreSQL 15 server binaries (PGBIN, default
# /usr/lib/postgresql/15/bin) and, on the first run, PyPI / npm / Maven Central / the Go proxy.
# Caches under ${XDG_CACHE_HOME:-~/.cache}/ci-diagnosis/corpus/ (Python venv, fixture repos, raw
# results and logs); npm, Maven and Go use their usual caches (~/.npm, ~/.m2, GOMODCACHE).
set -euo pipefail

# shellcheck source=_build/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/_build/common.sh"
cd "$ROOT"

VENV="$CACHE/venv"
GO_JUNIT_REPORT="github.com/jstemmer/go-junit-report/v2@v2.1.0"
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
PG_PORT=55432
ORDERS_DB_URL="postgres://orders:orders@127.0.0.1:$PG_PORT/orders?sslmode=disable"
ALL_CASES=(price-rounding order-assembler login-params dirty-fixture db-refused pre-existing)

now() { echo "$EPOCHREALTIME"; }
declare -a TIMINGS=()
timed() { # timed LABEL cmd... : runs cmd, records its wall time
  local label="$1" t0 t1
  shift
  t0=$(now)
  "$@"
  t1=$(now)
  TIMINGS+=("$(printf '%-18s %6.1f s' "$label" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")")
}

if [ "${1:-}" = "--check" ]; then
  check_cases "${ALL_CASES[@]}"
  exit 0
fi

CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL_CASES[@]}")
for c in "${CASES[@]}"; do [ -f "$SRC/$c/case.in.json" ] || die "unknown case: $c"; done

for tool in node python3 java mvn go git; do
  command -v "$tool" >/dev/null || die "missing tool: $tool"
done
[ -x "$ALLURE2" ] || die "run npm ci at the repository root first (allure-commandline missing)"
[ -x "$PGBIN/postgres" ] || die "PostgreSQL server binaries not found in $PGBIN (set PGBIN)"

use_workspace_root

python_env() {
  local req="$SRC/requirements-python.txt"
  if [ ! -x "$VENV/bin/python" ] || ! cmp -s "$req" "$VENV/.requirements"; then
    log "Python venv ($VENV)"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q -r "$req"
    cp "$req" "$VENV/.requirements"
  fi
}

# ---- the fixture repository and its bundle -------------------------------------------------------
BASE="" REV=""
commit_tree() { # commit_tree REPO TREE MESSAGE NAME EMAIL DATE
  local repo="$1" tree="$2"
  find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -R "$tree/." "$repo/"
  find "$repo" -path "$repo/.git" -prune -o -type f -exec chmod 0644 {} +
  git -C "$repo" add -A
  GIT_AUTHOR_NAME="$4" GIT_AUTHOR_EMAIL="$5" GIT_AUTHOR_DATE="$6" \
    GIT_COMMITTER_NAME="$4" GIT_COMMITTER_EMAIL="$5" GIT_COMMITTER_DATE="$6" \
    git -C "$repo" commit -q --no-verify -F "$3"
}

make_repo() { # make_repo CASE : sets BASE and REV, writes CASE/repo.bundle
  local c="$1" repo="$CACHE/repos/$1"
  rm -rf "$repo"
  mkdir -p "$repo"
  git -C "$repo" init -q -b main
  commit_tree "$repo" "$SRC/$c/base" "$SRC/$c/base.msg" "Mara Maintainer" "mara@example.com" "2026-03-02T09:15:00+00:00"
  git -C "$repo" checkout -q -b change
  commit_tree "$repo" "$SRC/$c/revision" "$SRC/$c/revision.msg" "Chris Contributor" "chris@example.com" "2026-03-04T16:40:00+00:00"
  git -C "$repo" checkout -q main
  BASE=$(git -C "$repo" rev-parse main)
  REV=$(git -C "$repo" rev-parse change)
  mkdir -p "$CORPUS/$c"
  git -C "$repo" -c pack.threads=1 bundle create -q "$CORPUS/$c/repo.bundle" HEAD main change
}

# ---- reports (allure_report: _build/common.sh) -----------------------------------------------------
junit_report() { # junit_report DEST FILE... : a folder of JUnit XML files
  rm -rf "$1"
  mkdir -p "$1"
  local dest="$1"
  shift
  cp "$@" "$dest/"
}

# ---- runners -------------------------------------------------------------------------------------
pytest_run() { # pytest_run WS RESULTS LOG
  rm -rf "$2"
  run_tests "$3" bash -c 'cd "$1" && "$2" -m pytest -p no:cacheprovider --alluredir "$3" --clean-alluredir' \
    _ "$1" "$VENV/bin/python" "$2"
}

maven_run() { # maven_run WS REPORTS LOG : copies target/surefire-reports/TEST-*.xml into REPORTS
  run_tests "$3" bash -c 'cd "$1" && mvn -B -ntp -Dstyle.color=never test' _ "$1"
  rm -rf "$2"
  mkdir -p "$2"
  cp "$1"/target/surefire-reports/TEST-*.xml "$2/"
}

gotest_run() { # gotest_run WS XML LOG : go test -v (ORDERS_DB_URL set), converted by go-junit-report
  run_tests "$3" bash -c 'cd "$1" && ORDERS_DB_URL="$2" go test -count=1 -v ./...' _ "$1" "$ORDERS_DB_URL"
  (cd "$1" && go run "$GO_JUNIT_REPORT" -in "$3" -set-exit-code=false >"$2")
  [ -s "$2" ] || die "go-junit-report wrote nothing"
}

vitest_run() { # vitest_run WS RESULTS LOG
  (cd "$1" && npm ci --no-audit --no-fund --loglevel=error >"$3.npm" 2>&1) || { cat "$3.npm" >&2; die "npm ci failed"; }
  run_tests "$3" bash -c 'cd "$1" && ./node_modules/.bin/vitest run' _ "$1"
  rm -rf "$2"
  cp -R "$1/allure-results" "$2"
}

PGDIR=""
pg_start() { # a throwaway PostgreSQL on 127.0.0.1:$PG_PORT with role and database "orders"
  local as=()
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then die "port $PG_PORT is already in use"; fi
  PGDIR=$(mktemp -d /tmp/corpus-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres: "$PGDIR"
  "${as[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  "${as[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -s \
    -o "-p $PG_PORT -k $PGDIR -c listen_addresses=127.0.0.1" start
  "${as[@]}" "$PGBIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE orders LOGIN PASSWORD 'orders'" -c "CREATE DATABASE orders OWNER orders"
}
pg_stop() {
  [ -n "$PGDIR" ] || return 0
  local as=()
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -w -s -m fast stop || true
  rm -rf "$PGDIR"
  PGDIR=""
}
trap pg_stop EXIT

# ---- the cases -----------------------------------------------------------------------------------
# Each case: make_repo, a base run (-> history/base) and a revision run (-> report), case.json.

python_case() { # python_case CASE REPOSITORY [reuse] : pytest + allure-pytest, Allure 2 reports
  local c="$1" repository="$2" reuse="${3:-}" ws o="$OUT/$1"
  make_repo "$c"
  rm -rf "$o" && mkdir -p "$o"
  ws=$(workspace "$c" "$repository" "$BASE")
  pytest_run "$ws" "$o/base-results" "$o/base.log"
  if [ "$reuse" = reuse ]; then
    # the CI agent reuses its workspace: check out the revision over the base run's leftovers
    git -C "$ws" checkout -q --detach "$REV"
  else
    ws=$(workspace "$c" "$repository" "$REV")
  fi
  pytest_run "$ws" "$o/revision-results" "$o/revision.log"
  allure_report "$o/base-results" "$CORPUS/$c/history/base"
  allure_report "$o/revision-results" "$CORPUS/$c/report"
}

case_price_rounding() { python_case price-rounding pricing-service; }
case_order_assembler() { python_case order-assembler order-service; }
# the workspace is not cleaned between the base run and the revision run (see README)
case_dirty_fixture() { python_case dirty-fixture accounts reuse; }

case_login_params() { # Maven + JUnit 5 (Jupiter 6), Surefire XML
  local c=login-params ws o="$OUT/login-params"
  make_repo "$c"
  rm -rf "$o" && mkdir -p "$o"
  ws=$(workspace "$c" auth-service "$BASE")
  maven_run "$ws" "$o/base-reports" "$o/base.log"
  ws=$(workspace "$c" auth-service "$REV")
  maven_run "$ws" "$o/revision-reports" "$o/revision.log"
  junit_report "$CORPUS/$c/history/base" "$o"/base-reports/*.xml
  junit_report "$CORPUS/$c/report" "$o"/revision-reports/*.xml
}

case_db_refused() { # go test + go-junit-report; the base run has its database, the revision run not
  local c=db-refused ws o="$OUT/db-refused"
  make_repo "$c"
  rm -rf "$o" && mkdir -p "$o"
  ws=$(workspace "$c" orders-store "$BASE")
  pg_start
  gotest_run "$ws" "$o/base.xml" "$o/base.log"
  pg_stop
  if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then die "port $PG_PORT still answers"; fi
  ws=$(workspace "$c" orders-store "$REV")
  gotest_run "$ws" "$o/revision.xml" "$o/revision.log"
  cp "$o/base.xml" "$o/junit.xml"
  junit_report "$CORPUS/$c/history/base" "$o/junit.xml"
  cp "$o/revision.xml" "$o/junit.xml"
  junit_report "$CORPUS/$c/report" "$o/junit.xml"
}

case_pre_existing() { # vitest + allure-vitest, Allure 2 reports
  local c=pre-existing ws o="$OUT/pre-existing"
  make_repo "$c"
  rm -rf "$o" && mkdir -p "$o"
  ws=$(workspace "$c" textkit "$BASE")
  vitest_run "$ws" "$o/base-results" "$o/base.log"
  ws=$(workspace "$c" textkit "$REV")
  vitest_run "$ws" "$o/revision-results" "$o/revision.log"
  allure_report "$o/base-results" "$CORPUS/$c/history/base"
  allure_report "$o/revision-results" "$CORPUS/$c/report"
}

build_case() {
  local c="$1"
  log "$c"
  rm -rf "${CORPUS:?}/$c"
  "case_${c//-/_}"
  python3 "$SRC/corpus.py" write-case "$SRC/$c/case.in.json" "$SRC/$c/revision.msg" "$BASE" "$REV" "$CORPUS/$c/case.json"
  rm -rf "${WS_ROOT:?}/$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["repository"])' "$SRC/$c/case.in.json")"
}

[ ${#CASES[@]} -eq ${#ALL_CASES[@]} ] && rm -rf "$SHARED"
timed python-venv python_env
for c in "${CASES[@]}"; do timed "$c" build_case "$c"; done
check_cases "${CASES[@]}"

log "done"
printf '%s\n' "${TIMINGS[@]}" >&2
du -sh "$CORPUS"/*/ 2>/dev/null | sed "s|$ROOT/||" >&2
du -sh "$CORPUS" | sed "s|$ROOT/||" >&2
