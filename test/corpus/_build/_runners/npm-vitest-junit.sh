# vitest's own JUnit reporter -> JUnit XML (platform junit). Sourced by build-oss.sh, which provides
# CACHE, OUT, SRC, REPOSITORY_NAME, log, die, run_tests and junit_report.
# _build/_repos/<repository>.sh sets NPM_DEPS (exact versions of what the tests need, e.g. the
# project's vitest from its lockfile), or defines npm_deps WS printing them one a line when they
# depend on the tree (cases of one project at different upstream commits), and optionally
# TEST_ARGS (the spec files to run).
# Each set is installed once (npm install of exact versions with a shared npm cache; npm's
# lockfile kept beside it) into $CACHE/npm-deps-<hash>/; each run copies that node_modules into
# the workspace (node_modules is never part of the case's tree).
RUNNER_PLATFORM=junit

npm_deps_setup() { # npm_deps_setup SPEC... : NPM_DEPS_DIR = a node_modules holding exactly SPEC...
  local spec json=""
  [ $# -gt 0 ] || die "$REPOSITORY_NAME: _repos/$REPOSITORY_NAME.sh sets no NPM_DEPS"
  for spec in "$@"; do
    case "$spec" in
      @*/*@*) json+="${json:+,}\"${spec%@*}\":\"${spec##*@}\"" ;;
      @*) die "NPM_DEPS: $spec has no exact version" ;;
      *@*) json+="${json:+,}\"${spec%%@*}\":\"${spec#*@}\"" ;;
      *) die "NPM_DEPS: $spec has no exact version" ;;
    esac
  done
  NPM_DEPS_DIR="$CACHE/npm-deps-$(printf '%s\n' "$@" | sha256sum | cut -c1-12)"
  if [ ! -f "$NPM_DEPS_DIR/.installed" ]; then
    log "npm dependencies for $REPOSITORY_NAME ($NPM_DEPS_DIR)"
    rm -rf "$NPM_DEPS_DIR" && mkdir -p "$NPM_DEPS_DIR"
    printf '{"name":"ci-deps","private":true,"dependencies":{%s}}\n' "$json" >"$NPM_DEPS_DIR/package.json"
    (cd "$NPM_DEPS_DIR" && npm install --save-exact --no-audit --no-fund --loglevel=error \
      --cache "$CACHE/npm-cache" >/dev/null) || die "npm install failed in $NPM_DEPS_DIR"
    touch "$NPM_DEPS_DIR/.installed"
  fi
}

npm_deps_into() { # npm_deps_into WS
  npm_deps_for "$1"
  rm -rf "$1/node_modules"
  cp -a "$NPM_DEPS_DIR/node_modules" "$1/node_modules"
}

npm_deps_for() { # npm_deps_for WS : NPM_DEPS_DIR for this tree, installed if needed
  local deps
  if declare -F npm_deps >/dev/null; then mapfile -t deps < <(npm_deps "$1"); else deps=("${NPM_DEPS[@]}"); fi
  npm_deps_setup "${deps[@]}"
}

runner_setup() { :; }

runner_test() { # runner_test WS RESULTS LOG
  rm -rf "$2" && mkdir -p "$2"
  npm_deps_into "$1"
  run_tests "$3" bash -c 'cd "$1" && CI=true ./node_modules/.bin/vitest run --no-color --reporter=default \
    --reporter=junit --outputFile.junit="$2/junit.xml" ${3:-}' _ "$1" "$2" "${TEST_ARGS:-}"
}

runner_report() { junit_report "$1" "$2"; }
