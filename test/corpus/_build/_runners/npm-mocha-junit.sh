# mocha + mocha-junit-reporter -> JUnit XML (platform junit). Sourced by build-oss.sh, which
# provides CACHE, OUT, SRC, REPOSITORY_NAME, log, die, run_tests and junit_report.
# _build/_repos/<repository>.sh sets NPM_DEPS (exact versions: the project's dependencies, its test
# devDependencies, mocha and mocha-junit-reporter; or npm_deps WS, see npm-vitest-junit.sh) and
# optionally TEST_ARGS (mocha's arguments, e.g. --check-leaks test/), TEST_ENV (VAR=value ... for
# the test process) and TEST_LOAD (N: N CPU-bound processes run beside the tests, as on a CI agent
# shared with other jobs; for timing-sensitive suites whose flakiness is the case).
# The npm part (npm_deps_for, npm_deps_into) is shared with npm-vitest-junit.sh.
# shellcheck source=npm-vitest-junit.sh
source "$SRC/_runners/npm-vitest-junit.sh"
RUNNER_PLATFORM=junit

runner_test() { # runner_test WS RESULTS LOG
  local load=() i
  rm -rf "$2" && mkdir -p "$2"
  npm_deps_into "$1"
  for ((i = 0; i < ${TEST_LOAD:-0}; i++)); do
    node -e 'for (const end = Date.now() + 600e3; Date.now() < end;);' &
    load+=($!)
  done
  run_tests "$3" bash -c 'cd "$1" && env ${4:-} ./node_modules/.bin/mocha --no-color \
    --reporter mocha-junit-reporter --reporter-options "mochaFile=$2/junit.xml" ${3:-}
    rc=$?  # mocha exits with the number of failed tests: one that wrote its report exits 1
    if [ "$rc" -gt 1 ] && [ -s "$2/junit.xml" ]; then exit 1; fi
    exit "$rc"' \
    _ "$1" "$2" "${TEST_ARGS:-}" "${TEST_ENV:-}"
  if [ ${#load[@]} -gt 0 ]; then
    kill "${load[@]}" 2>/dev/null || true
    wait "${load[@]}" 2>/dev/null || true
  fi
}
