# pytest + allure-pytest -> Allure 2 (allure-commandline). Sourced by build-oss.sh, which provides
# CACHE, SRC, REPOSITORY_NAME (the case's repository), run_tests and allure_report.
# Python packages: _build/requirements-python.txt plus _build/_repos/<repository>.requirements.txt
# when the project needs more (one venv per distinct set, cached).
RUNNER_PLATFORM=allure2

runner_setup() {
  local req="$OUT/requirements-$REPOSITORY_NAME.txt"
  cat "$SRC/requirements-python.txt" >"$req"
  if [ -f "$SRC/_repos/$REPOSITORY_NAME.requirements.txt" ]; then
    cat "$SRC/_repos/$REPOSITORY_NAME.requirements.txt" >>"$req"
  fi
  VENV="$CACHE/venv-$(sha256sum "$req" | cut -c1-12)"
  if [ ! -x "$VENV/bin/python" ]; then
    log "Python venv ($VENV)"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q -r "$req"
  fi
}

# PYTEST_ARGS (optional, from _repos/<repository>.sh): extra arguments, e.g. the test folder
runner_test() { # runner_test WS RESULTS LOG
  rm -rf "$2"
  run_tests "$3" bash -c 'cd "$1" && PYTHONPATH="$1/src:$1" "$2" -m pytest -p no:cacheprovider --color=no \
    --alluredir "$3" --clean-alluredir ${4:-}' _ "$1" "$VENV/bin/python" "$2" "${PYTEST_ARGS:-}"
}

runner_report() { allure_report "$1" "$2"; }
