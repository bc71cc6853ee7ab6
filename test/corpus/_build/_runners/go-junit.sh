# go test -v + go-junit-report -> JUnit XML (platform junit). Sourced by build-oss.sh, which
# provides OUT, REPOSITORY_NAME, run_tests, junit_report and exports GOTOOLCHAIN=local.
# Modules (the project's, go-junit-report) come from the Go module proxy (Go's own module cache).
# GO_TEST_ARGS (optional, from _repos/<repository>.sh): the packages and flags after
# `go test -count=1 -v` (default ./...), e.g. "-run '^TestUIS' ."
RUNNER_PLATFORM=junit
GO_JUNIT_REPORT="github.com/jstemmer/go-junit-report/v2@v2.1.0"

runner_setup() {
  command -v go >/dev/null || die "missing tool: go"
  # fetch and build the converter once (go run caches the build)
  (cd "$OUT" && go run "$GO_JUNIT_REPORT" -version >/dev/null) || die "go-junit-report unavailable"
}

runner_test() { # runner_test WS RESULTS LOG
  rm -rf "$2" && mkdir -p "$2"
  # go test exits 1 when tests fail (build failures too: go-junit-report records those as errors)
  run_tests "$3" bash -c 'cd "$1" && eval "go test -count=1 -v ${2:-./...}"' _ "$1" "${GO_TEST_ARGS:-}"
  (cd "$OUT" && go run "$GO_JUNIT_REPORT" -in "$3" -set-exit-code=false >"$2/junit.xml")
  [ -s "$2/junit.xml" ] || die "go-junit-report wrote nothing (log: $3)"
}

runner_report() { junit_report "$1" "$2"; }
