# Maven + Surefire -> JUnit XML (the Surefire reports as they are). Sourced by build-oss.sh, which
# provides OUT, REPOSITORY_NAME, run_tests and junit_report.
# Dependencies and plugins come from Maven Central into ~/.m2 (the first run downloads them).
# The run is restricted to the test classes the case keeps: every *Test.java / *Tests.java under
# src/test/java (of MAVEN_MODULE, if set), given to Surefire as -Dtest=Class1,Class2,... so that a
# case's report holds only its relevant classes. Optional, from _repos/<repository>.sh:
#   MAVEN_MODULE  a module folder (multi-module project): runs mvn -pl MODULE -am
#   MAVEN_TESTS   the -Dtest value, instead of the kept test classes
#   MAVEN_ARGS    more arguments to mvn
RUNNER_PLATFORM=junit

runner_setup() {
  command -v mvn >/dev/null || die "missing tool: mvn"
}

maven_test_classes() { # maven_test_classes DIR : the kept test classes, comma-separated
  find "$1/src/test/java" -type f \( -name '*Test.java' -o -name '*Tests.java' \) -printf '%f\n' 2>/dev/null \
    | sed 's/\.java$//' | sort | paste -sd, -
}

runner_test() { # runner_test WS RESULTS LOG
  local ws="$1" module="${MAVEN_MODULE:-}" dir tests
  dir="$ws${module:+/$module}"
  tests="${MAVEN_TESTS:-$(maven_test_classes "$dir")}"
  [ -n "$tests" ] || die "no test classes under $dir/src/test/java"
  rm -rf "$2"
  mkdir -p "$2"
  # exit 1 = test failures (a compile error is exit 1 too: then there are no reports, caught below)
  run_tests "$3" bash -c 'cd "$1" && mvn -B -ntp -Dstyle.color=never ${2:+-pl "$2" -am} ${4:-} test \
    -Dtest="$3" -Dsurefire.failIfNoSpecifiedTests=false' _ "$ws" "$module" "$tests" "${MAVEN_ARGS:-}"
  cp "$dir"/target/surefire-reports/TEST-*.xml "$2/" 2>/dev/null \
    || { tail -40 "$3" >&2; die "no Surefire reports in $dir/target/surefire-reports (log: $3)"; }
}

runner_report() { junit_report "$1" "$2"; }
