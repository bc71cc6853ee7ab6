#!/usr/bin/env bash
# Builds the real-bug cases of test/corpus/ (format: test/corpus/README.md, "Real-bug cases"):
# changes made from real commits of real open-source projects (a bug fix reverted in the source
# only, a behaviour change whose test update is left out, a service the suite needs left absent, a
# flaky test's fix undone, a bug already on the target branch), run with the project's own tests
# and a real reporter.
#
# Two steps, so that no upstream tree is kept outside the case's own bundle:
#   import CASE UPSTREAM_GIT   the upstream commit (case.in.json provenance.commit) of a local
#                              mirror, reduced to `keep`, + _build/CASE/base.patch if present
#                              -> base commit; + _build/CASE/change.patch -> revision commit;
#                              -> CASE/repo.bundle (fixed authors and dates: stable shas)
#   [CASE...]                  from CASE/repo.bundle: the `runs` of case.in.json (each the
#                              project's tests at base or revision in a CI-like workspace, retried
#                              until its expected outcome) -> report/ and history/*, case.json,
#                              then the self-check. Default: every case with a provenance.
#   --check                    only the self-check of the committed cases
#
# _build/CASE/: case.in.json, base.msg, revision.msg, change.patch [, base.patch]
# _build/_runners/RUNNER.sh: runner_setup; runner_test WS RESULTS LOG (test failures are not
#                            errors); runner_report RESULTS DEST; RUNNER_PLATFORM
# _build/_repos/REPOSITORY.sh (optional): prepare WS, the project's build step before its tests
set -euo pipefail

# shellcheck source=_build/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/_build/common.sh"
cd "$ROOT"

field() { python3 "$SRC/corpus.py" field "$SRC/$1/case.in.json" "$2"; } # field CASE DOTTED.KEY

oss_cases() {
  local f
  for f in "$SRC"/*/case.in.json; do
    if python3 "$SRC/corpus.py" field "$f" provenance.commit >/dev/null 2>&1; then basename "$(dirname "$f")"; fi
  done
}


# ---- import: upstream commit -> two-commit repository -> repo.bundle ------------------------------
commit_all() { # commit_all REPO MESSAGE NAME EMAIL DATE
  git -C "$1" add -A
  GIT_AUTHOR_NAME="$3" GIT_AUTHOR_EMAIL="$4" GIT_AUTHOR_DATE="$5" \
    GIT_COMMITTER_NAME="$3" GIT_COMMITTER_EMAIL="$4" GIT_COMMITTER_DATE="$5" \
    git -C "$1" commit -q --no-verify --allow-empty -F "$2"
}

import_case() { # import_case CASE UPSTREAM_GIT
  local c="$1" upstream="$2" repo="$CACHE/repos/$1" commit keep
  [ -f "$SRC/$c/change.patch" ] || die "$c: no change.patch"
  commit=$(field "$c" provenance.commit)
  git -C "$upstream" cat-file -e "$commit^{commit}" 2>/dev/null || die "$c: $commit not in $upstream"
  mapfile -t keep < <(field "$c" keep)
  [ ${#keep[@]} -gt 0 ] || die "$c: case.in.json has no keep paths"
  rm -rf "$repo" && mkdir -p "$repo"
  git -C "$repo" init -q -b main
  git -C "$upstream" archive --format=tar "$commit" -- "${keep[@]}" | tar -x -C "$repo"
  if [ -f "$SRC/$c/base.patch" ]; then git -C "$repo" apply --whitespace=nowarn "$SRC/$c/base.patch"; fi
  commit_all "$repo" "$SRC/$c/base.msg" "Mara Maintainer" "mara@example.com" "2026-03-02T09:15:00+00:00"
  git -C "$repo" checkout -q -b change
  git -C "$repo" apply --whitespace=nowarn "$SRC/$c/change.patch"
  commit_all "$repo" "$SRC/$c/revision.msg" "Chris Contributor" "chris@example.com" "2026-03-04T16:40:00+00:00"
  git -C "$repo" checkout -q main
  mkdir -p "$CORPUS/$c"
  git -C "$repo" -c pack.threads=1 bundle create -q "$CORPUS/$c/repo.bundle" HEAD main change
  log "$c imported: base $(git -C "$repo" rev-parse main), revision $(git -C "$repo" rev-parse change)"
}

if [ "${1:-}" = "import" ]; then
  [ $# -eq 3 ] || die "usage: build-oss.sh import CASE UPSTREAM_GIT"
  import_case "$2" "$3"
  exit 0
fi

mapfile -t ALL_CASES < <(oss_cases)
if [ "${1:-}" = "--check" ]; then
  check_cases "${ALL_CASES[@]}"
  exit 0
fi

CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL_CASES[@]}")
for c in "${CASES[@]}"; do
  [ -f "$SRC/$c/case.in.json" ] || die "unknown case: $c"
  [ -f "$CORPUS/$c/repo.bundle" ] || die "$c: no repo.bundle (build-oss.sh import $c UPSTREAM_GIT first)"
done
for tool in node python3 java git; do command -v "$tool" >/dev/null || die "missing tool: $tool"; done
[ -x "$ALLURE2" ] || die "run npm ci at the repository root first (allure-commandline missing)"

use_workspace_root

# ---- helpers for the runners (run_tests, allure_report: _build/common.sh) ---------------------------
junit_report() { # junit_report RESULTS DEST : the runner's JUnit XML files, as a folder
  rm -rf "$2"
  mkdir -p "$2"
  find "$1" -maxdepth 1 -name '*.xml' -exec cp {} "$2/" \;
  [ -n "$(ls -A "$2")" ] || die "no JUnit XML in $1"
}

# ---- build: runs from the bundle -> reports, case.json ---------------------------------------------

# one_run CASE REPOSITORY SHA DEST EXPECT ATTEMPTS : runs until the outcome is EXPECT (pass | fail | any)
one_run() {
  local c="$1" repository="$2" sha="$3" dest="$4" expect="$5" attempts="$6" i ws failing o
  for ((i = 1; i <= attempts; i++)); do
    o="$OUT/$c/$(echo "$dest" | tr / _)-$i"
    rm -rf "$o" && mkdir -p "$o"
    ws=$(workspace "$c" "$repository" "$sha")
    if declare -F prepare >/dev/null; then (cd "$ws" && prepare "$ws"); fi
    runner_test "$ws" "$o/results" "$o/test.log"
    runner_report "$o/results" "$CORPUS/$c/$dest"
    failing=$(python3 "$SRC/corpus.py" failures "$CORPUS/$c/$dest" "$RUNNER_PLATFORM" | grep -c . || true)
    rm -rf "${WS_ROOT:?}/$repository"
    case "$expect" in
      any) return 0 ;;
      pass) [ "$failing" -eq 0 ] && return 0 ;;
      fail) [ "$failing" -gt 0 ] && return 0 ;;
      *) die "$c: run expect must be pass, fail or any, not $expect" ;;
    esac
    echo "   $c $dest attempt $i: $failing failing, want $expect" >&2
  done
  die "$c: $dest never gave the outcome $expect in $attempts attempts (logs: $OUT/$c)"
}

build_case() {
  local c="$1" repository runner base rev line at dest expect attempts sha
  log "$c"
  repository=$(field "$c" repository)
  runner=$(field "$c" runner)
  [ -f "$SRC/_runners/$runner.sh" ] || die "$c: unknown runner $runner (no _build/_runners/$runner.sh)"
  base=$(git ls-remote "$CORPUS/$c/repo.bundle" refs/heads/main | cut -f1)
  rev=$(git ls-remote "$CORPUS/$c/repo.bundle" refs/heads/change | cut -f1)
  (
    unset -f prepare
    REPOSITORY_NAME="$repository"
    # shellcheck source=/dev/null
    source "$SRC/_runners/$runner.sh"
    # shellcheck source=/dev/null
    if [ -f "$SRC/_repos/$repository.sh" ]; then source "$SRC/_repos/$repository.sh"; fi
    runner_setup
    rm -rf "${CORPUS:?}/$c/report" "${CORPUS:?}/$c/history"
    python3 "$SRC/corpus.py" runs "$SRC/$c/case.in.json" >"$OUT/$c.runs"
    while read -r at dest expect attempts; do
      if [ "$at" = base ]; then sha="$base"; else sha="$rev"; fi
      one_run "$c" "$repository" "$sha" "$dest" "$expect" "$attempts"
    done <"$OUT/$c.runs"
    python3 "$SRC/corpus.py" write-case "$SRC/$c/case.in.json" "$SRC/$c/revision.msg" "$base" "$rev" \
      "$CORPUS/$c/case.json" "$RUNNER_PLATFORM"
  )
}

for c in "${CASES[@]}"; do build_case "$c"; done
check_cases "${CASES[@]}"
log "done"
du -sh "${CASES[@]/#/$CORPUS/}" | sed "s|$ROOT/||" >&2
