#!/usr/bin/env bash
# Builds the real-bug cases of test/corpus/ (format: test/corpus/README.md): a real bug-fix commit of
# a real open-source project, reverted in the source only, so that the test the fix added fails (the
# Defects4J / BugsJS / BugsInPy method). Sources in test/corpus/_build/<case>/ (taken from the
# upstream commit; see README "Real-bug cases"): base/ = the fixed upstream tree (reduced to the
# files its tests need), revision/ = base with the fix's source change reverted.
# For each case, as build.sh does: a two-commit repository (fixed authors and dates) -> repo.bundle,
# the project's own pytest suite with allure-pytest at the base (-> history/base) and at the revision
# (-> report), allure-commandline 2.46.1 -> Allure 2 reports, case.json; then the self-check.
# Independent of build.sh (which does not call it); shares its venv, _shared/ and corpus.py.
#
# Usage: bash test/corpus/build-oss.sh [CASE...]   (default: every case; idempotent)
#        bash test/corpus/build-oss.sh --check      (only the self-check of the committed cases)
# Needs: node 20 + the root node_modules (allure-commandline; npm ci first), java 17, python3 and,
# on the first run, PyPI (pytest, allure-pytest: _build/requirements-python.txt).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

CORPUS="$ROOT/test/corpus"
SRC="$CORPUS/_build"
SHARED="$CORPUS/_shared/allure2"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ci-diagnosis/corpus"
OUT="$CACHE/out"
VENV="$CACHE/venv"
ALLURE2="$ROOT/node_modules/allure-commandline/dist/bin/allure"
ALL_CASES=(humanize-metric-carry humanize-size-rollover parse-findall-case parse-unused-align)

export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
export NO_COLOR=1 FORCE_COLOR=0
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0

log() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "build-oss.sh: $*" >&2; exit 1; }

check_cases() { # check_cases CASE...
  log "self-check"
  local tmp failed=0 c
  tmp=$(mktemp -d)
  for c in "$@"; do
    [ -f "$CORPUS/$c/case.json" ] || { echo "FAIL $c: no case.json"; failed=1; continue; }
    if ! git bundle verify -q "$CORPUS/$c/repo.bundle" >/dev/null 2>&1 \
      || ! git clone -q --bare "$CORPUS/$c/repo.bundle" "$tmp/$c.git" 2>/dev/null; then
      echo "FAIL $c: repo.bundle does not verify or clone"
      failed=1
      continue
    fi
    python3 "$SRC/corpus.py" check "$CORPUS/$c" "$tmp/$c.git" || failed=1
  done
  rm -rf "$tmp"
  [ "$failed" = 0 ] || die "self-check failed"
}

if [ "${1:-}" = "--check" ]; then
  check_cases "${ALL_CASES[@]}"
  exit 0
fi

CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("${ALL_CASES[@]}")
for c in "${CASES[@]}"; do [ -f "$SRC/$c/case.in.json" ] || die "unknown case: $c"; done
for tool in node python3 java git; do command -v "$tool" >/dev/null || die "missing tool: $tool"; done
[ -x "$ALLURE2" ] || die "run npm ci at the repository root first (allure-commandline missing)"

if [ -n "${CORPUS_WORKSPACE:-}" ]; then
  WS_ROOT="$CORPUS_WORKSPACE"
elif mkdir -p /builds/ci-corpus 2>/dev/null && [ -w /builds/ci-corpus ]; then
  WS_ROOT=/builds/ci-corpus
else
  WS_ROOT="$CACHE/builds/ci-corpus"
fi
mkdir -p "$WS_ROOT" "$OUT"

python_env() { # the same venv as build.sh
  local req="$SRC/requirements-python.txt"
  if [ ! -x "$VENV/bin/python" ] || ! cmp -s "$req" "$VENV/.requirements"; then
    log "Python venv ($VENV)"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q -r "$req"
    cp "$req" "$VENV/.requirements"
  fi
}

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

workspace() { # workspace CASE REPOSITORY SHA : a fresh clone of the bundle at SHA; prints its path
  local ws="$WS_ROOT/$2"
  rm -rf "$ws"
  git clone -q --no-checkout "$CORPUS/$1/repo.bundle" "$ws"
  git -C "$ws" checkout -q --detach "$3"
  echo "$ws"
}

allure_report() { # allure_report RESULTS DEST : an Allure 2 report whose assets/ links to the shared copy
  local results="$1" dest="$2" f rel
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  "$ALLURE2" generate "$results" -o "$dest" --clean >/dev/null
  [ -s "$dest/data/categories.json" ] || die "allure generate wrote no report into $dest"
  mkdir -p "$SHARED/assets"
  for f in "$dest"/assets/*; do
    if [ ! -e "$SHARED/assets/$(basename "$f")" ]; then
      cp "$f" "$SHARED/assets/"
    elif ! cmp -s "$f" "$SHARED/assets/$(basename "$f")"; then
      die "$f differs from the shared copy in $SHARED/assets"
    fi
  done
  rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$SHARED/assets" "$dest")
  rm -rf "$dest/assets"
  ln -s "$rel" "$dest/assets"
}

# prepare_<repository> WS : the project's build step before its tests (none for parse)
prepare_humanize() {
  # hatch-vcs writes src/humanize/_version.py (git-ignored) when the package is built; do the same
  # (the upstream commits are 37 and 38 commits after the tag 4.15.0; no test reads the version)
  printf '__version__ = version = "4.15.0"\n' >"$1/src/humanize/_version.py"
}
prepare_parse() { :; }

pytest_run() { # pytest_run REPOSITORY WS RESULTS LOG : the project's pytest suite, with allure-pytest
  local rc=0
  rm -rf "$3"
  "prepare_$1" "$2"
  (cd "$2" && PYTHONPATH="$2/src:$2" "$VENV/bin/python" -m pytest -p no:cacheprovider --color=no \
    --alluredir "$3" --clean-alluredir) >"$4" 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    tail -40 "$4" >&2
    die "pytest exit code $rc in $2 (log: $4)"
  fi
}

build_case() {
  local c="$1" repository ws o="$OUT/$1"
  log "$c"
  repository=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["repository"])' "$SRC/$c/case.in.json")
  rm -rf "${CORPUS:?}/$c"
  make_repo "$c"
  rm -rf "$o" && mkdir -p "$o"
  ws=$(workspace "$c" "$repository" "$BASE")
  pytest_run "$repository" "$ws" "$o/base-results" "$o/base.log"
  ws=$(workspace "$c" "$repository" "$REV")
  pytest_run "$repository" "$ws" "$o/revision-results" "$o/revision.log"
  allure_report "$o/base-results" "$CORPUS/$c/history/base"
  allure_report "$o/revision-results" "$CORPUS/$c/report"
  python3 "$SRC/corpus.py" write-case "$SRC/$c/case.in.json" "$SRC/$c/revision.msg" "$BASE" "$REV" "$CORPUS/$c/case.json"
  rm -rf "${WS_ROOT:?}/$repository"
}

python_env
for c in "${CASES[@]}"; do build_case "$c"; done
check_cases "${CASES[@]}"
log "done"
du -sh "${CASES[@]/#/$CORPUS/}" | sed "s|$ROOT/||" >&2
