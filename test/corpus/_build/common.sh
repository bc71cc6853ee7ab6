# What build.sh (scenario cases) and build-oss.sh (real-bug cases) share: paths, a clean
# environment for git and the test tools, the self-check, the CI-like workspace and the Allure 2
# report with its shared app. Sourced, never run; the caller has `set -euo pipefail`.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
CORPUS="$ROOT/test/corpus"
SRC="$CORPUS/_build"
SHARED="$CORPUS/_shared/allure2"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ci-diagnosis/corpus"
OUT="$CACHE/out"
ALLURE2="$ROOT/node_modules/allure-commandline/dist/bin/allure"

export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
export NO_COLOR=1 FORCE_COLOR=0 GOTOOLCHAIN=local
# git: no user or system config (signing, hooks, templates) may change the commits
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0

log() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# run_tests LOG cmd... : tests may fail (exit 1); any other exit code is a real error
run_tests() {
  local logfile="$1" rc=0
  shift
  "$@" >"$logfile" 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    tail -40 "$logfile" >&2
    die "exit code $rc: $* (log: $logfile)"
  fi
}

check_cases() { # check_cases CASE... : the self-check of built cases (corpus.py check)
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

# use_workspace_root : sets WS_ROOT, the CI-like workspace, so report paths look like
# /builds/ci-corpus/<repository>/..., a prefix config/path-mapping.json strips
use_workspace_root() {
  if [ -n "${CORPUS_WORKSPACE:-}" ]; then
    WS_ROOT="$CORPUS_WORKSPACE"
  elif mkdir -p /builds/ci-corpus 2>/dev/null && [ -w /builds/ci-corpus ]; then
    WS_ROOT=/builds/ci-corpus
  else
    WS_ROOT="$CACHE/builds/ci-corpus"
  fi
  mkdir -p "$WS_ROOT" "$OUT"
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
  # the app (about 2 MB) is the same file in every report of one Allure version: keep one copy
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
